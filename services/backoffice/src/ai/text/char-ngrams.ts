import { toJamo } from './hangul-distance.ts';
import { unspaced } from './normalise.ts';

/**
 * Character n-grams of the normalised text with its spaces removed. Korean compounds are spaced
 * freely (`반팔티셔츠` / `반팔 티셔츠`), so words are a poor unit; bigrams and trigrams of the
 * unspaced text match either way. A single character yields itself.
 */
export function charNgrams(text: string, sizes: readonly number[] = [2, 3]): string[] {
  return ngramsOf(unspaced(text), sizes);
}

function ngramsOf(s: string, sizes: readonly number[]): string[] {
  if (s.length === 0) return [];
  if (s.length < Math.min(...sizes)) return [s];
  const grams: string[] = [];
  for (const n of sizes) {
    for (let i = 0; i + n <= s.length; i++) grams.push(s.slice(i, i + n));
  }
  return grams;
}

/** Jamo n-grams get their own namespace so they never collide with character n-grams. */
const JAMO_MARK = '\u0001';
const JAMO_SIZE = 4;

/**
 * Features of a text for TF-IDF: character bigrams and trigrams, plus jamo 4-grams of the
 * unspaced text. A one-jamo typo (`쿠선` for `쿠션`) destroys every character n-gram of a short
 * word but keeps most of its jamo n-grams.
 */
export function ngramCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const s = unspaced(text);
  const add = (g: string) => counts.set(g, (counts.get(g) ?? 0) + 1);
  for (const g of ngramsOf(s, [2, 3])) add(g);
  for (const g of ngramsOf(toJamo(s), [JAMO_SIZE])) add(JAMO_MARK + g);
  return counts;
}
