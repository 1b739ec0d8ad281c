import { unspaced } from './normalise.ts';

/**
 * Character n-grams of the normalised text with its spaces removed. Korean compounds are spaced
 * freely (`반팔티셔츠` / `반팔 티셔츠`), so words are a poor unit; bigrams and trigrams of the
 * unspaced text match either way. A single character yields itself.
 */
export function charNgrams(text: string, sizes: readonly number[] = [2, 3]): string[] {
  const s = unspaced(text);
  if (s.length === 0) return [];
  if (s.length === 1) return [s];
  const grams: string[] = [];
  for (const n of sizes) {
    for (let i = 0; i + n <= s.length; i++) grams.push(s.slice(i, i + n));
  }
  return grams;
}

/** Counts of each n-gram. */
export function ngramCounts(text: string, sizes?: readonly number[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const g of charNgrams(text, sizes)) counts.set(g, (counts.get(g) ?? 0) + 1);
  return counts;
}
