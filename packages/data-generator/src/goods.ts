import { addDays } from '@bo/db';
import type { AttributeDef } from './category-tree.ts';
import { PROFILE_TRAITS } from './goods-traits.ts';
import type { BrandInfo, Catalog, LeafInfo } from './masters.ts';
import type { Random } from './random.ts';
import { hms } from './time-of-day.ts';

export interface GoodsRow {
  goods_no: string;
  goods_nm: string;
  entr_no: string;
  brand_no: string | null;
  std_ctg_no: string;
  md_id: string | null;
  sale_stat_cd: string;
  goods_comp_cd: string | null;
  goods_typ_cd: string | null;
  sale_meth_cd: string | null;
  buy_typ_cd: string | null;
  deli_proc_typ_cd: string | null;
  deli_goods_gb_cd: string | null;
  deli_way_cd: string | null;
  disp_yn: 'Y' | 'N';
  sale_prc: number;
  disp_dlex_amt: number | null;
  buyr_age_lmt_cd: string | null;
  buy_qty_lmt_yn: 'Y' | 'N';
  min_lmt_qty: number | null;
  max_lmt_qty: number | null;
  rglr_deli_goods_yn: 'Y' | 'N';
  frgn_dir_pur_goods_yn: 'Y' | 'N';
  sch_kwd_nm: string | null;
  seo_title_nm: string | null;
  seo_desc: string | null;
  seo_kwd_nm: string | null;
  modl_nm: string | null;
  mfco_nm: string | null;
  home_nm: string | null;
  salemn_nm: string | null;
  incom_nm: string | null;
  stk_mgr_yn: 'Y' | 'N';
  stk_qty: number;
  sfty_stk_qty: number;
  img_path: string | null;
  goods_reg_dtm: string;
}

/** A generated goods item with what the activity generator needs to know about it. */
export interface GeneratedGoods {
  row: GoodsRow;
  leaf: LeafInfo;
  brand: BrandInfo | null;
  /** Chosen attribute values, in the leaf's attribute order. */
  attributeValues: { def: AttributeDef; value: string }[];
  /** Day index (0 = first day of the period, negative = before it) from which it can be ordered; Infinity = never. */
  sellableFrom: number;
  /** Relative demand: page views and orders are drawn in proportion to it. */
  popularity: number;
  /** Dashboard state: `00` is on-sale goods at or below safety stock, not a stored status. */
  dashboardStatus: '00' | '02' | '03' | '10' | '20';
}

/**
 * Dashboard states in proportion, and the first five goods cover one of each so that even a
 * tiny data set shows every sale status.
 */
const STATUS_WEIGHTS: readonly (readonly [GeneratedGoods['dashboardStatus'], number])[] = [
  ['10', 68],
  ['00', 8],
  ['20', 12],
  ['02', 7],
  ['03', 5],
];
const COVERAGE_ORDER: readonly GeneratedGoods['dashboardStatus'][] = ['10', '00', '02', '03', '20'];

/** Attributes that appear in goods names ("… 블랙 L", "… 500g"); the rest stay in the spec. */
const NAME_ATTRIBUTES = new Set(['COLOR', 'SIZE', 'CAPACITY', 'STORAGE_GB', 'WEIGHT']);

export function goodsNumber(index: number, count: number): string {
  return `GD${String(index + 1).padStart(Math.max(4, String(count).length), '0')}`;
}

function modelCode(brand: BrandInfo | null, random: Random): string {
  const letters = (brand?.row.brand_eng_nm ?? 'GEN')
    .replace(/[^A-Z]/g, '')
    .padEnd(2, 'X')
    .slice(0, 2);
  return `${letters}-${random.int(22, 25)}${random.pick(['S', 'F', 'W', 'A', 'P', ''])}${random.int(100, 999)}${random.pick(['', 'A', 'B', 'K'])}`;
}

const roundPrice = (won: number) => (won >= 10_000 ? Math.round(won / 1000) * 1000 - 100 : Math.round(won / 100) * 100);

function price(min: number, max: number, random: Random): number {
  // Log-uniform: many cheap items, a few expensive ones.
  return roundPrice(Math.exp(Math.log(min) + random.next() * (Math.log(max) - Math.log(min))));
}

function pickBrand(catalog: Catalog, leaf: LeafInfo, random: Random): BrandInfo | null {
  const candidates = catalog.brandsByRoot[leaf.rootIndex]!;
  if (candidates.length === 0 || random.chance(0.04)) return null;
  // Well-known brands carry more of the assortment than the invented ones.
  return candidates[random.weighted(candidates.map((b) => (b.known ? 3 : 1)))]!;
}

function buildOne(
  catalog: Catalog,
  index: number,
  count: number,
  status: GeneratedGoods['dashboardStatus'],
  period: { start: string; end: string; days: number },
  random: Random,
): GeneratedGoods {
  const leaf = random.pick(catalog.leaves);
  const brand = pickBrand(catalog, leaf, random);
  const traits = PROFILE_TRAITS[leaf.profile];
  const goods_no = goodsNumber(index, count);
  const line = random.pick(traits.lines);
  const attributeValues = leaf.attributes.map((def) => ({ def, value: random.pick(def.values) }));
  const nameAttrs = attributeValues
    .filter((a) => NAME_ATTRIBUTES.has(a.def.attCd))
    .slice(0, 2)
    .map((a) => (a.def.attCd === 'WEIGHT' && leaf.profile === 'food' ? `${a.value}g` : a.value));
  const model = modelCode(brand, random);
  const goods_nm = [brand?.row.brand_nm, line, leaf.leafName, model, ...nameAttrs].filter(Boolean).join(' ');
  const entr_no = brand && random.chance(0.6) ? brand.homeEntrNo : random.pick(catalog.masters.entr).entr_no;
  const entrNm = catalog.masters.entr.find((e) => e.entr_no === entr_no)!.entr_nm;
  const sale_prc = price(traits.price[0], traits.price[1], random);

  // Registration: most goods were listed before the period; some during it (sold from then on);
  // approval-awaiting goods were registered recently, rejected ones during the period.
  let regDayIndex: number;
  if (status === '02') regDayIndex = period.days - 1 - random.int(0, Math.min(13, period.days - 1));
  else if (status === '03') regDayIndex = random.int(0, period.days - 1);
  else regDayIndex = random.chance(0.1) ? random.int(0, period.days - 1) : -random.int(1, 720);
  const goods_reg_dtm = `${addDays(period.start, regDayIndex)} ${hms(random.int(9 * 3600, 19 * 3600))}`;

  const stk_mgr_yn = status === '00' || status === '20' || random.chance(0.85) ? 'Y' : 'N';
  const sfty_stk_qty = stk_mgr_yn === 'Y' ? random.int(3, 30) : 0;
  const stk_qty =
    status === '20' ? 0 : status === '00' ? random.int(0, sfty_stk_qty) : stk_mgr_yn === 'Y' ? sfty_stk_qty + random.int(1, 500) : 0;

  // Some goods were registered with thin content: no SEO, no keywords, no model name.
  const thinSeo = random.chance(0.15);
  const keywords = [brand?.row.brand_nm, brand?.row.brand_eng_nm, leaf.leafName, line, leaf.groupName, ...nameAttrs].filter(Boolean);
  const imported = brand?.seed.imported ?? false;
  const largeDelivery = leaf.profile === 'furniture' || (leaf.profile === 'appliance' && leaf.groupName === '대형가전');
  const fresh = leaf.groupName === '신선식품';
  const limited = random.chance(0.1);
  const row: GoodsRow = {
    goods_no,
    goods_nm,
    entr_no,
    brand_no: brand?.row.brand_no ?? null,
    std_ctg_no: leaf.row.std_ctg_no,
    md_id: random.chance(0.03) ? null : leaf.row.md_id,
    sale_stat_cd: status === '00' ? '10' : status,
    goods_comp_cd: random.chance(0.1) ? '20' : '10',
    goods_typ_cd: random.chance(0.05) ? '20' : '10',
    sale_meth_cd: random.chance(0.04) ? '20' : '10',
    buy_typ_cd: random.pick(['10', '20', '20', '30']),
    deli_proc_typ_cd: random.chance(0.3) ? '20' : '10',
    deli_goods_gb_cd: largeDelivery ? '20' : fresh ? '30' : '10',
    deli_way_cd: largeDelivery ? '20' : '10',
    disp_yn: status === '02' || status === '03' || random.chance(0.04) ? 'N' : 'Y',
    sale_prc,
    disp_dlex_amt: random.chance(0.05) ? null : sale_prc >= 30_000 || largeDelivery ? 0 : random.pick([2500, 3000]),
    buyr_age_lmt_cd: random.chance(0.02) ? '19' : null,
    buy_qty_lmt_yn: limited ? 'Y' : 'N',
    min_lmt_qty: limited ? 1 : null,
    max_lmt_qty: limited ? random.pick([2, 3, 5, 10]) : null,
    rglr_deli_goods_yn: (leaf.profile === 'food' || leaf.profile === 'living') && random.chance(0.15) ? 'Y' : 'N',
    frgn_dir_pur_goods_yn: imported && random.chance(0.08) ? 'Y' : 'N',
    sch_kwd_nm: random.chance(0.1) ? null : keywords.join(','),
    seo_title_nm: thinSeo ? null : `${goods_nm} | ${leaf.groupName} 최저가`,
    seo_desc:
      thinSeo || random.chance(0.1) ? null : `${brand?.row.brand_nm ?? ''} ${leaf.leafName} ${line} 라인. ${traits.sizeNote}`.trim(),
    seo_kwd_nm: thinSeo ? null : keywords.slice(0, 4).join(','),
    modl_nm: random.chance(0.08) ? null : model,
    mfco_nm: brand ? (imported ? (brand.row.brand_eng_nm ?? brand.row.brand_nm) : brand.row.brand_nm) : random.chance(0.5) ? entrNm : null,
    home_nm: brand ? brand.seed.home : random.pick(['대한민국', '중국', '베트남']),
    salemn_nm: entrNm,
    incom_nm: imported ? entrNm : null,
    stk_mgr_yn,
    stk_qty,
    sfty_stk_qty,
    img_path: random.chance(0.03) ? null : `/goods/${goods_no.slice(-2)}/${goods_no}_main.jpg`,
    goods_reg_dtm,
  };
  const sellable = status === '10' || status === '00' || status === '20';
  return {
    row,
    leaf,
    brand,
    attributeValues,
    sellableFrom: sellable ? regDayIndex : Infinity,
    popularity: 0,
    dashboardStatus: status,
  };
}

/** `count` goods over the catalog, every sale status present, popularity Zipf-like. */
export function buildGoods(
  catalog: Catalog,
  count: number,
  period: { start: string; end: string; days: number },
  random: Random,
): GeneratedGoods[] {
  const weights = STATUS_WEIGHTS.map(([, w]) => w);
  const goods: GeneratedGoods[] = [];
  for (let i = 0; i < count; i++) {
    const status = i < COVERAGE_ORDER.length ? COVERAGE_ORDER[i]! : STATUS_WEIGHTS[random.weighted(weights)]![0];
    goods.push(buildOne(catalog, i, count, status, period, random));
  }
  const ranks = random.shuffle(goods.map((_, i) => i + 1));
  goods.forEach((g, i) => (g.popularity = 1 / Math.pow(ranks[i]!, 0.8)));
  return goods;
}
