import { createRandom, type Catalog } from '@bo/data-generator';
import { brandSpelling, DECORATIONS, jamoTypo, splitSpace, type LabelledName } from './labelled-names.ts';

/** An existing goods item of the evaluation database, its name as the generator built it. */
export interface EvalGoods {
  goodsNo: string;
  goodsNm: string;
  brandNo: string | null;
  stdCtgNo: string;
}

/** Variant words sellers append; the classifier must not be pulled by them. */
const VARIANT_WORDS = [
  '270mm',
  '250',
  '블랙',
  '화이트',
  '네이비',
  'FREE',
  'XL',
  '2개입',
  '1+1',
  '500ml',
  '1.5L',
  '3kg',
  '10매',
  '4종',
  '128GB',
  '55인치',
  '30x40cm',
];

/**
 * Labelled names from the goods the demo generator built (brand + product line + leaf word +
 * model code + attribute values), each labelled with its goods' true brand and leaf, and the
 * noise of real listings: decorations, brand spellings (English, alias, one-jamo typo, spacing),
 * spacing or a typo in the leaf word, the leaf word generalised to its parent category's name
 * (`러닝화` → `운동화`, which no longer names one leaf), the model code dropped, extra variant
 * words, reordering. The evaluation holds each goods item out of the classifier's goods index
 * while its name is scored.
 */
export function noisyGoodsNames(goods: readonly EvalGoods[], catalog: Catalog, seed: number): (LabelledName & { goodsNo: string })[] {
  const r = createRandom(seed);
  const leafOf = new Map(catalog.leaves.map((l) => [l.row.std_ctg_no, l]));
  const parentName = new Map(catalog.masters.std_ctg.map((c) => [c.std_ctg_no, c.std_ctg_nm]));
  const brandOf = new Map(catalog.masters.brand.map((b) => [b.brand_no, b]));
  const aliasesOf = new Map<string, string[]>();
  for (const a of catalog.masters.brand_alias) aliasesOf.set(a.brand_no, [...(aliasesOf.get(a.brand_no) ?? []), a.alias_nm]);
  return goods.map((g) => {
    const noise: string[] = [];
    const leaf = leafOf.get(g.stdCtgNo)!;
    const brand = g.brandNo ? brandOf.get(g.brandNo) : undefined;
    // The brand stays one unit (it may be several words) when words are dropped or moved.
    const hasBrand = !!brand && g.goodsNm.startsWith(`${brand.brand_nm} `);
    let rest = hasBrand ? g.goodsNm.slice(brand.brand_nm.length + 1) : g.goodsNm;
    const leafRoll = r.next();
    let leafWord = leaf.leafName;
    if (leafRoll < 0.15) {
      leafWord = splitSpace(leafWord, r);
      noise.push('leaf-spacing');
    } else if (leafRoll < 0.25) {
      const typed = jamoTypo(leafWord, r);
      if (typed !== leafWord) noise.push('leaf-typo');
      leafWord = typed;
    } else if (leafRoll < 0.33) {
      leafWord = parentName.get(leaf.row.upr_std_ctg_no ?? '') ?? leafWord;
      noise.push('leaf-generalised');
    }
    rest = rest.replace(leaf.leafName, leafWord);
    let words = rest.split(' ');
    if (r.chance(0.3)) {
      words = words.filter((w) => !/^[A-Z]{2}-\d/.test(w));
      noise.push('no-model-code');
    }
    if (r.chance(0.3)) {
      words.push(r.pick(VARIANT_WORDS));
      noise.push('variant-word');
    }
    if (hasBrand) words.unshift(brandSpelling(brand.brand_nm, brand.brand_eng_nm, aliasesOf.get(brand.brand_no) ?? [], r, noise));
    if (r.chance(0.15) && words.length > 2) {
      // The last word (mostly a variant) ahead of the brand, as in `블랙 나이키 …`.
      words.unshift(words.pop()!);
      noise.push('reordered');
    }
    if (r.chance(0.3)) {
      words.unshift(r.pick(DECORATIONS));
      noise.push('decoration');
    }
    return { goodsNo: g.goodsNo, productName: words.join(' '), brandNo: g.brandNo, stdCtgNo: g.stdCtgNo, noise };
  });
}
