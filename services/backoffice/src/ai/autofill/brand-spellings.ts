import { convertQwertyToHangul, getChoseong } from 'es-hangul';
import { normaliseText } from '../text/normalise.ts';

/**
 * How sellers write a brand besides its master spelling, read with what `es-hangul` offers:
 * words split where Latin meets Hangul or at hyphens (`lg전자`, `skdlzl에어포스1`), letters
 * spaced out (`N I K E`), Korean typed on the English keyboard layout (`skdlzl`), initial
 * consonants only (`ㄴㅇㅋ`).
 */

/** Words for brand matching: the normalised words, split at hyphens and where Latin/digits meet Hangul; spaced letters joined. */
export function brandWords(productName: string): string[] {
  return brandWordsGlued(productName).map((w) => w.word);
}

/** The brand words, each marked when the next word was glued to it in the name (`lg` of `lg생활건강`). */
export function brandWordsGlued(productName: string): { word: string; gluedToNext: boolean }[] {
  const split = normaliseText(productName)
    .split(' ')
    .flatMap((w) => w.split('-'))
    .flatMap((w) => (w.match(/[a-z0-9.&']+|[^a-z0-9.&']+/g) ?? []).map((part, i, all) => ({ word: part, gluedToNext: i < all.length - 1 })))
    .filter((w) => w.word);
  // `N I K E`, `나 이 키`: three or more single letters in a row are one spaced-out word.
  const out: { word: string; gluedToNext: boolean }[] = [];
  let run: { word: string; gluedToNext: boolean }[] = [];
  const flush = () => {
    if (run.length >= 3) out.push({ word: run.map((w) => w.word).join(''), gluedToNext: false });
    else out.push(...run);
    run = [];
  };
  for (const w of split) {
    if (w.word.length === 1 && /[a-z가-힣]/.test(w.word)) run.push(w);
    else {
      flush();
      out.push(w);
    }
  }
  flush();
  return out;
}

/** Latin runs of the raw name read as Korean typed on the English layout; only readings that are whole syllables. */
export function keyboardReadings(productName: string): { typed: string; hangul: string }[] {
  const runs = productName.normalize('NFKC').match(/[A-Za-z]{3,}/g) ?? [];
  return runs.map((typed) => ({ typed, hangul: convertQwertyToHangul(typed) })).filter((r) => /^[가-힣]{2,}$/.test(r.hangul));
}

/** Initial consonants of a Korean key (`나이키` → `ㄴㅇㅋ`), or undefined when the key is not all Hangul syllables. */
export function choseongOf(key: string): string | undefined {
  return /^[가-힣]{2,}$/.test(key) ? getChoseong(key).normalize('NFKC') : undefined;
}

/** A word written only in initial consonants (after NFKC, compatibility jamo become conjoining ones). */
export const isChoseongWord = (word: string): boolean => /^[\u1100-\u1112]{2,}$/.test(word.normalize('NFKC'));

/** Words that say the goods are *not* of the brand they name: compatible, for, look-alike, replacement, not. */
const COMPAT_WORD = /^(호환|전용|대체|대용|아님|아닌|비브랜드|짝퉁|레플)|^(st|style|스타일|스타일의|느낌)$/;

/** The compatibility or negation word within three words after the brand (or right before it), if any. */
export function compatWordNear(ws: readonly string[], start: number, end: number): string | undefined {
  const near = [...ws.slice(end, end + 3), ...ws.slice(Math.max(0, start - 1), start)];
  return near.find((w) => COMPAT_WORD.test(w));
}

/** Glued after a brand, these keep the brand its own word (`나이키정품`, `다이슨코리아`). */
export const KNOWN_SUFFIXES = [
  '코리아',
  '정품',
  '공식',
  '공식몰',
  '몰',
  '스토어',
  '본사',
  '정품인증',
  '코리아정품',
  '공식판매',
  '공식인증',
];
