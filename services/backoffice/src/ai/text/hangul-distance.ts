import { disassemble } from 'es-hangul';
import { distance } from 'fastest-levenshtein';

/** A text as Hangul jamo (`닉` → ㄴ ㅣ ㄱ, compound vowels split); other characters unchanged. */
export const toJamo = (text: string): string => disassemble(text);

/** Similarity in [0, 1] of two jamo strings: 1 − edit distance / longer length. */
export function jamoSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 0 : 1 - distance(a, b) / longest;
}

/**
 * Similarity of two short names that understands Hangul: syllables are compared by their
 * jamo, so a typo that changes one jamo (나이키 → 나이크) costs one edit out of many instead
 * of a whole syllable.
 */
export const hangulSimilarity = (a: string, b: string): number => jamoSimilarity(toJamo(a), toJamo(b));
