import { foldCase } from '../text/normalise.ts';

/**
 * Rule-based facts read from a product name: model codes, attribute values, origin. Only what
 * the name states is returned; nothing is guessed.
 */

const UNIT_TOKEN =
  /^\d+(\.\d+)?(ml|l|g|kg|mg|gb|tb|mb|mm|cm|m|w|kw|v|mah|인치|매|개|개입|입|롤|p|pcs|ea|팩|세트|인용|등급|개월|세|종|구|단|호|년|월)$/i;
const DIMENSION_TOKEN = /^\d+(\.\d+)?(x\d+(\.\d+)?){1,2}(mm|cm|m)?$/i;
const SIZE_TOKEN = /^(x{0,3}s|m|x{0,3}l|[2-5]xl|free|프리)$/i;

/** Tokens of the NFKC text with case kept, split on spaces and brackets. */
const rawTokens = (name: string): string[] =>
  name
    .normalize('NFKC')
    .split(/[\s[\](){}【】〔〕<>「」『』,/·+|]+/)
    .map((t) => t.replace(/^[-.~*]+|[-.~*]+$/g, ''))
    .filter(Boolean);

/** Model codes: letters and digits together (`DX1234-100`, `SM-G991N`), not sizes or units. */
export function modelCodes(name: string): string[] {
  return rawTokens(name).filter(
    (t) =>
      t.length >= 4 &&
      /[0-9]/.test(t) &&
      /[A-Za-z]/.test(t) &&
      /^[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]$/.test(t) &&
      !UNIT_TOKEN.test(t) &&
      !DIMENSION_TOKEN.test(t) &&
      !SIZE_TOKEN.test(t),
  );
}

const ORIGINS: Record<string, string> = {
  국내산: '대한민국',
  국산: '대한민국',
  한국산: '대한민국',
  madeinkorea: '대한민국',
  미국산: '미국',
  호주산: '호주',
  칠레산: '칠레',
  베트남산: '베트남',
  중국산: '중국',
  일본산: '일본',
  뉴질랜드산: '뉴질랜드',
  노르웨이산: '노르웨이',
  이탈리아산: '이탈리아',
  프랑스산: '프랑스',
};

/** Country of origin when the name states it (`국내산`, `made in korea`). */
export function originOf(name: string): { word: string; country: string } | undefined {
  const s = foldCase(name).replace(/\s+/g, '');
  for (const [word, country] of Object.entries(ORIGINS)) if (s.includes(word)) return { word, country };
  return undefined;
}

type Lexicon = readonly (readonly [canonical: string, ...spellings: string[]])[];

const COLOURS: Lexicon = [
  ['블랙', 'black', '검정', '검은색', '블렉'],
  ['화이트', 'white', '흰색', '하얀색', '화이뜨'],
  ['네이비', 'navy', '남색'],
  ['그레이', 'gray', 'grey', '회색', '그래이'],
  ['베이지', 'beige'],
  ['카키', 'khaki'],
  ['레드', 'red', '빨강', '빨간색'],
  ['아이보리', 'ivory'],
  ['차콜', 'charcoal'],
  ['스카이블루', 'skyblue', '하늘색'],
  ['블루', 'blue', '파랑', '파란색'],
  ['핑크', 'pink', '분홍'],
  ['그린', 'green', '초록'],
  ['옐로우', 'yellow', '노랑'],
  ['브라운', 'brown', '갈색'],
  ['퍼플', 'purple', '보라'],
  ['오렌지', 'orange'],
  ['실버', 'silver'],
  ['골드', 'gold'],
  ['민트', 'mint'],
];
const MATERIALS: Lexicon = [
  ['천연가죽', '천연 가죽'],
  ['합성가죽', '인조가죽'],
  ['소가죽', '카우하이드'],
  ['스테인리스', '스텐', 'stainless', '스테인레스'],
  ['실버925', '925실버'],
  ['폴리에스터', 'polyester', '폴리'],
  ['나일론', 'nylon'],
  ['스판덱스', 'spandex'],
  ['린넨', 'linen', '마'],
  ['울', 'wool'],
  ['면', 'cotton', '코튼', '순면'],
  ['메쉬', 'mesh', '메시'],
  ['스웨이드', 'suede'],
  ['캔버스', 'canvas'],
  ['원목'],
  ['패브릭', 'fabric'],
  ['스틸', 'steel'],
  ['실리콘', 'silicone'],
  ['세라믹', 'ceramic'],
  ['강화유리'],
  ['카본', 'carbon'],
  ['아세테이트'],
  ['tpe'],
  ['pu'],
  ['pp'],
];
const SEASONS: Lexicon = [['사계절'], ['봄'], ['여름', '썸머', 'summer'], ['가을'], ['겨울', '윈터', 'winter']];
const FITS: Lexicon = [['세미오버핏'], ['오버핏', 'overfit'], ['레귤러핏', 'regularfit'], ['슬림핏', 'slimfit']];
const SKIN_TYPES: Lexicon = [['건성'], ['지성'], ['복합성'], ['민감성'], ['모든피부', '모든 피부']];
const STORAGE_METHODS: Lexicon = [
  ['실온보관', '실온'],
  ['냉장보관', '냉장'],
  ['냉동보관', '냉동'],
];
const CONNECTIONS: Lexicon = [
  ['블루투스', 'bluetooth'],
  ['USB-C', 'usb-c', 'usbc', 'c타입'],
  ['Wi-Fi', 'wifi', 'wi-fi', '와이파이'],
  ['HDMI', 'hdmi'],
];
const ASSEMBLY: Lexicon = [['완제품'], ['고객조립', '자가조립', 'diy'], ['설치배송']];
const ORIGIN_VALUES: Lexicon = [['국내산', '국산'], ['미국산'], ['호주산'], ['칠레산'], ['베트남산'], ['중국산']];

/** Whole-token lookup for short words, substring for longer ones (`블랙면티` still says 블랙). */
function findLexicon(name: string, lexicon: Lexicon, all = false): string[] {
  const folded = foldCase(name);
  const tokens = new Set(folded.split(/[\s[\](){},/·+|]+/).filter(Boolean));
  const joined = folded.replace(/\s+/g, '');
  const found: string[] = [];
  for (const [canonical, ...spellings] of lexicon) {
    const hit = [canonical, ...spellings].some((w) => {
      const f = foldCase(w).replace(/\s+/g, '');
      return f.length <= 1 || /^[a-z]{1,3}$/.test(f) ? tokens.has(f) : joined.includes(f);
    });
    if (hit) {
      found.push(canonical);
      if (!all) break;
    }
  }
  return found;
}

const firstMatch = (name: string, re: RegExp): RegExpMatchArray | null => name.normalize('NFKC').match(re);

/** Grams in a weight written as g or kg. */
function grams(name: string): string | undefined {
  const m = firstMatch(name, /(\d+(?:\.\d+)?)\s?(kg|g)(?![a-z])/i);
  if (!m) return undefined;
  const value = Number(m[1]) * (m[2]!.toLowerCase() === 'kg' ? 1000 : 1);
  return String(Math.round(value));
}

/**
 * Extractors by what an attribute is about, chosen from the attribute's name (`색상`, `용량(ml)`).
 * The first rule whose pattern matches the attribute name decides.
 */
const RULES: readonly { about: RegExp; extract: (name: string) => string | undefined }[] = [
  { about: /색상|컬러|color/i, extract: (n) => findLexicon(n, COLOURS)[0] },
  { about: /사이즈\(mm\)|발사이즈/, extract: (n) => firstMatch(n, /(?<![\d.])(2[1-9]0|2[1-9]5|300)(?:\s?mm)?(?![\d.])/)?.[1] },
  { about: /화면/, extract: (n) => firstMatch(n, /(\d+(?:\.\d+)?)\s?(?:인치|inch|")/i)?.[1] },
  {
    about: /저장용량/,
    extract: (n) =>
      firstMatch(n, /(\d+\s?(?:GB|TB))(?![a-z])/i)?.[1]
        ?.replace(/\s/g, '')
        .toUpperCase(),
  },
  { about: /용량\(ml\)/, extract: (n) => firstMatch(n, /(\d+(?:\.\d+)?)\s?ml(?![a-z])/i)?.[1] },
  {
    about: /용량/,
    extract: (n) =>
      firstMatch(n, /(\d+(?:\.\d+)?\s?(?:ml|l|kg|g|인용|롤))(?![a-z가-힣])/i)?.[1]
        ?.replace(/\s/g, '')
        .replace(/l$/, 'L')
        .replace(/mL$/, 'ml'),
  },
  { about: /중량\(g\)/, extract: grams },
  { about: /무게\(kg\)/, extract: (n) => firstMatch(n, /(\d+(?:\.\d+)?)\s?kg(?![a-z])/i)?.[1] },
  { about: /소비전력/, extract: (n) => firstMatch(n, /(\d+)\s?w(?![a-z])/i)?.[1] },
  { about: /에너지/, extract: (n) => firstMatch(n, /([1-5])\s?등급/)?.[0]?.replace(/\s/g, '') },
  {
    about: /사이즈/,
    extract: (n) =>
      rawTokens(n)
        .find((t) => SIZE_TOKEN.test(t))
        ?.toUpperCase()
        .replace('프리', 'FREE'),
  },
  { about: /크기|치수|dimension/i, extract: (n) => rawTokens(n).find((t) => DIMENSION_TOKEN.test(t)) },
  { about: /소재|재질/, extract: (n) => findLexicon(n, MATERIALS, true).join(', ') || undefined },
  { about: /계절/, extract: (n) => findLexicon(n, SEASONS, true).join(', ') || undefined },
  { about: /핏/, extract: (n) => findLexicon(n, FITS)[0] },
  { about: /피부/, extract: (n) => findLexicon(n, SKIN_TYPES, true).join(', ') || undefined },
  { about: /보관/, extract: (n) => findLexicon(n, STORAGE_METHODS)[0] },
  { about: /원산지/, extract: (n) => findLexicon(n, ORIGIN_VALUES)[0] },
  { about: /연결/, extract: (n) => findLexicon(n, CONNECTIONS, true).join(', ') || undefined },
  { about: /조립/, extract: (n) => findLexicon(n, ASSEMBLY)[0] },
  {
    about: /연령/,
    extract: (n) => firstMatch(n, /(\d+\s?(?:개월|세))\s?이상/)?.[0]?.replace(/\s/g, '') ?? (/신생아/.test(n) ? '신생아' : undefined),
  },
  { about: /수량|구성/, extract: (n) => firstMatch(n, /(\d+)\s?(?:개입|개|입|팩|세트|ea)(?![a-z가-힣])/i)?.[1] },
];

/** The value the product name states for an attribute, or undefined. */
export function attributeValue(attNm: string, productName: string): string | undefined {
  const rule = RULES.find((r) => r.about.test(attNm));
  return rule?.extract(productName);
}

const ATTRIBUTE_WORDS = new Set(
  [COLOURS, MATERIALS, SEASONS, FITS, SKIN_TYPES, STORAGE_METHODS, ORIGIN_VALUES].flatMap((lex) =>
    lex.flatMap((spellings) => spellings.map((w) => foldCase(w).replace(/\s+/g, ''))),
  ),
);

/** True for a word that names a colour, material, season, fit … (never a brand or a category). */
export const isAttributeWord = (word: string): boolean => ATTRIBUTE_WORDS.has(foldCase(word).replace(/\s+/g, ''));

const COLOUR_WORDS = new Set(COLOURS.flatMap((spellings) => spellings.map((w) => foldCase(w))));
/** Counts and packs (`4종`, `2개입`, `1+1` spelled `1 1`) and bare numbers (`97`, `3`). */
const COUNT_TOKEN = /^\d+(\.\d+)?(종|개|개입|입|팩|세트|매|롤|p|pcs|ea|박스|box|병|캔|봉|포)?%?$/i;

/**
 * True for a word of a normalised name that picks a variant of the goods (size, colour,
 * capacity, dimension, count, bare number) rather than saying what they are. Such words are
 * left out of category scoring: `270mm` or `블랙` must not pull toward an unrelated leaf
 * that shares a few letters (`블랙` ~ `슬랙스`).
 */
export const isVariantWord = (word: string): boolean =>
  UNIT_TOKEN.test(word) ||
  DIMENSION_TOKEN.test(word) ||
  SIZE_TOKEN.test(word) ||
  COUNT_TOKEN.test(word) ||
  COLOUR_WORDS.has(foldCase(word));
