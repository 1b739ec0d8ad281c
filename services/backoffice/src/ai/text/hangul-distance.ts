import { disassemble } from 'es-hangul';
import { distance } from 'fastest-levenshtein';

/**
 * Similarity of two short names in [0, 1] that understands Hangul: syllables are compared by
 * their jamo (`닉` = ㄴ ㅣ ㄱ), so a typo that changes one jamo (나이키 → 나이크) costs one edit
 * out of many instead of a whole syllable.
 */
export function hangulSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const ja = disassemble(a);
  const jb = disassemble(b);
  const longest = Math.max(ja.length, jb.length);
  if (longest === 0) return 0;
  return 1 - distance(ja, jb) / longest;
}

/** Jamo length of a text, the scale of `hangulSimilarity`. */
export const jamoLength = (text: string): number => disassemble(text).length;
