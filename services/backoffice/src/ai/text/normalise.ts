/**
 * Text normalisation shared by brand matching, category similarity and document retrieval.
 * Sellers type the same thing many ways: full-width letters, mixed case, extra spaces and
 * marketing decorations such as `[공식]` or `(정품)` that say nothing about the goods.
 */

/** Words that only decorate a listing; removed when bracketed, and when standing alone. */
const DECORATION_WORDS = [
  '공식',
  '공식몰',
  '공식판매',
  '공식수입',
  '정품',
  '정품인증',
  '무료배송',
  '당일발송',
  '당일출고',
  '오늘출발',
  '빠른배송',
  '로켓배송',
  '특가',
  '초특가',
  '핫딜',
  '타임딜',
  '한정',
  '한정판매',
  '단독',
  '신상',
  '신상품',
  '최신상',
  '인기',
  '베스트',
  '국내배송',
  '국내정품',
  '해외직구',
  '병행수입',
  '사은품증정',
  '증정',
  '세일',
  '할인',
  'best',
  'new',
  'hot',
  'sale',
  'event',
  'official',
];

const DECORATION_SET = new Set(DECORATION_WORDS);
const OPEN = '[(【〔<「『{';
const CLOSE = '])】〕>」』}';
const BRACKETED = new RegExp(`[${escapeClass(OPEN)}]([^${escapeClass(OPEN + CLOSE)}]*)[${escapeClass(CLOSE)}]`, 'g');

function escapeClass(chars: string): string {
  return chars.replace(/[\]\\^-]/g, '\\$&');
}

/** NFKC (full-width → ASCII, compatibility jamo) and lower case. */
export const foldCase = (text: string): string => text.normalize('NFKC').toLowerCase();

/** True when a bracketed segment is only decoration (`[공식]`, `(정품/무료배송)`). */
function isDecoration(inner: string): boolean {
  const words = inner
    .split(/[\s/,·|+&]+/)
    .map((w) => w.replace(/[!~*★☆♥]/g, ''))
    .filter(Boolean);
  return words.length > 0 && words.every((w) => DECORATION_SET.has(w));
}

/**
 * Case-folded text with decorations removed, brackets and punctuation turned into spaces,
 * spaces collapsed. Hyphens and dots inside words survive (model codes like `ab-120`, `1.5l`).
 */
export function normaliseText(text: string): string {
  const folded = foldCase(text).replace(BRACKETED, (_whole, inner: string) => (isDecoration(inner) ? ' ' : ` ${inner} `));
  return folded
    .replace(/[★☆♥♡※!?~*"'`^|_=;:#@$%]+/g, ' ')
    .replace(/[[\](){}【】〔〕<>「」『』,/·+&]+/g, ' ')
    .replace(/(^|\s)[-.]+|[-.]+(?=\s|$)/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !DECORATION_SET.has(w))
    .join(' ');
}

/** The normalised text without spaces: sellers space Korean words unpredictably. */
export const unspaced = (text: string): string => normaliseText(text).replace(/\s+/g, '');

/** Words of the normalised text. */
export const words = (text: string): string[] => {
  const n = normaliseText(text);
  return n ? n.split(' ') : [];
};

/** The product name as a seller would want it shown: decorations dropped, spacing tidied, case kept. */
export function cleanDisplayName(text: string): string {
  const kept = text
    .normalize('NFKC')
    .replace(BRACKETED, (whole, inner: string) => (isDecoration(foldCase(inner)) ? ' ' : whole))
    .split(/\s+/)
    .filter((w) => w && !DECORATION_SET.has(foldCase(w)));
  return kept.join(' ').trim();
}
