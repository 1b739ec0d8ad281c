import { disassemble, assemble } from 'es-hangul';
import { createRandom, type Catalog, type Random } from '@bo/data-generator';

/** A product name as a seller might type it, with the brand and leaf category it really has. */
export interface LabelledName {
  productName: string;
  brandNo: string | null;
  stdCtgNo: string;
  /** What noise was applied, for reading the failures. */
  noise: string[];
}

export const DECORATIONS = [
  '[공식]',
  '(정품)',
  '[무료배송]',
  '[특가]',
  '★당일발송★',
  '[단독]',
  '(국내정품)',
  '[BEST]',
  '【한정】',
  '(당일출고)',
];
const LINE_WORDS = [
  '에센셜',
  '데일리',
  '베이직',
  '프리미엄',
  '시그니처',
  '클래식',
  '오리지널',
  '라이트',
  '모던',
  '스탠다드',
  '플러스',
  '2025년형',
  '신형',
];
const QUANTITIES = ['1+1', '2개입', '3팩', '10매', '대용량', '세트'];
/** Vowel jamo sellers confuse (ㅐ/ㅔ, ㅓ/ㅗ …): the realistic one-jamo typo. */
const VOWEL_SWAPS: Record<string, string> = { ㅐ: 'ㅔ', ㅔ: 'ㅐ', ㅓ: 'ㅗ', ㅗ: 'ㅓ', ㅜ: 'ㅡ', ㅡ: 'ㅜ', ㅣ: 'ㅢ', ㅏ: 'ㅑ', ㅕ: 'ㅓ' };
const CONSONANT_SWAPS: Record<string, string> = {
  ㄲ: 'ㄱ',
  ㄱ: 'ㄲ',
  ㄸ: 'ㄷ',
  ㄷ: 'ㄸ',
  ㅃ: 'ㅂ',
  ㅂ: 'ㅃ',
  ㅆ: 'ㅅ',
  ㅅ: 'ㅆ',
  ㅉ: 'ㅈ',
  ㅈ: 'ㅉ',
};

/** One jamo of one syllable swapped for a look-alike (`나이키` → `나이끼`, `셔츠` → `셔즈`). */
export function jamoTypo(word: string, r: Random): string {
  const syllables = [...word].map((ch, i) => ({ ch, i })).filter(({ ch }) => /[가-힣]/.test(ch));
  if (syllables.length < 2) return word;
  const { ch, i } = r.pick(syllables);
  const jamo = [...disassemble(ch)];
  const swaps = jamo.map((j, k) => ({ k, to: VOWEL_SWAPS[j] ?? CONSONANT_SWAPS[j] })).filter((s) => s.to);
  if (!swaps.length) return word;
  const { k, to } = r.pick(swaps);
  jamo[k] = to!;
  // A swap inside a split compound vowel (ㅢ = ㅡ + ㅣ) may leave no valid syllable: no typo then.
  let typed: string;
  try {
    typed = assemble(jamo);
  } catch {
    return word;
  }
  return typed.length === 1 ? word.slice(0, i) + typed + word.slice(i + 1) : word;
}

/** A space inside a compound (`반팔티셔츠` → `반팔 티셔츠`). */
export function splitSpace(word: string, r: Random): string {
  if (word.length < 4) return word;
  const at = r.int(2, word.length - 2);
  return `${word.slice(0, at)} ${word.slice(at)}`;
}

/** A seller's model code: letters and digits (`AB1234-01`). */
function modelCode(r: Random): string {
  const letters = 'ABCDEFGHJKLMNPRSTVWXYZ';
  const prefix = Array.from({ length: r.int(2, 3) }, () => r.pick([...letters])).join('');
  const digits = String(r.int(100, 99999));
  return r.chance(0.5) ? `${prefix}${digits}` : `${prefix}${digits}-${String(r.int(1, 99)).padStart(2, '0')}`;
}

export function brandSpelling(nm: string, eng: string | null, aliases: readonly string[], r: Random, noise: string[]): string {
  const roll = r.next();
  if (roll < 0.35) return nm;
  if (roll < 0.5 && eng) {
    noise.push('brand-english');
    return r.pick([eng, eng.toLowerCase(), eng[0] + eng.slice(1).toLowerCase()]);
  }
  if (roll < 0.75 && aliases.length) {
    noise.push('brand-alias');
    return r.pick(aliases);
  }
  if (roll < 0.88) {
    const typed = jamoTypo(nm, r);
    if (typed !== nm) noise.push('brand-typo');
    return typed;
  }
  noise.push('brand-spacing');
  return splitSpace(nm, r);
}

/**
 * Labelled product names from the demo masters: a leaf category, usually a brand that sells in
 * that root, and the noise real listings carry: decorations, English/alias/misspelt brands,
 * spacing inside compounds, one-jamo typos, model codes, product-line words, attribute values
 * and quantities, in shuffled order around the core words.
 */
export function labelledNames(catalog: Catalog, count: number, seed: number): LabelledName[] {
  const r = createRandom(seed);
  const aliasesOf = new Map<string, string[]>();
  for (const a of catalog.masters.brand_alias) aliasesOf.set(a.brand_no, [...(aliasesOf.get(a.brand_no) ?? []), a.alias_nm]);
  const out: LabelledName[] = [];
  for (let i = 0; i < count; i++) {
    const leaf = r.pick(catalog.leaves);
    const noise: string[] = [];
    const pool = catalog.brandsByRoot[leaf.rootIndex] ?? [];
    const brand = pool.length && r.chance(0.88) ? r.pick(pool) : undefined;
    const parts: string[] = [];
    if (r.chance(0.3)) {
      noise.push('decoration');
      parts.push(r.pick(DECORATIONS));
    }
    if (brand) parts.push(brandSpelling(brand.row.brand_nm, brand.row.brand_eng_nm, aliasesOf.get(brand.row.brand_no) ?? [], r, noise));
    if (r.chance(0.5)) parts.push(r.pick(LINE_WORDS));
    let leafWord = leaf.leafName;
    const leafRoll = r.next();
    if (leafRoll < 0.2) {
      leafWord = splitSpace(leafWord, r);
      noise.push('leaf-spacing');
    } else if (leafRoll < 0.32) {
      const typed = jamoTypo(leafWord, r);
      if (typed !== leafWord) noise.push('leaf-typo');
      leafWord = typed;
    }
    parts.push(leafWord);
    if (r.chance(0.4)) {
      noise.push('model-code');
      parts.push(modelCode(r));
    }
    const attrs = leaf.attributes.filter((a) => a.typ === '10' || a.attCd === 'CAPACITY' || a.attCd === 'MATERIAL');
    const attrCount = r.int(0, Math.min(2, attrs.length));
    for (let k = 0; k < attrCount; k++) {
      noise.push('attribute');
      parts.push(r.pick(r.pick(attrs).values));
    }
    if (r.chance(0.1)) {
      noise.push('quantity');
      parts.push(r.pick(QUANTITIES));
    }
    if (r.chance(0.15) && parts.length > 2) {
      // Brand after the product word, as in `러닝화 나이키 …`.
      noise.push('reordered');
      const last = parts.splice(parts.length - 1, 1)[0]!;
      parts.splice(1, 0, last);
    }
    out.push({ productName: parts.join(' '), brandNo: brand?.row.brand_no ?? null, stdCtgNo: leaf.row.std_ctg_no, noise });
  }
  return out;
}
