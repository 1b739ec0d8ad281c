import type { CategoryAttRow, CategoryRow, MasterRows, NoticeItemRow } from '../model.ts';
import { BrandMatcher, type BrandMaster, type BrandVocabulary } from './brand-matcher.ts';
import { brandWords } from './brand-spellings.ts';
import { CategoryClassifier, hierarchyText, type GoodsExample } from './category-classifier.ts';
import { categoryText } from './category-text.ts';
import { mapInSlices } from './in-slices.ts';
import { modelCodes } from './name-facts.ts';
import { normaliseText } from '../text/normalise.ts';

/** The masters as in-memory indexes: built once per load, read by every auto-fill. */
export interface MasterIndex {
  brands: BrandMatcher;
  categories: CategoryClassifier;
  categoryByNo: ReadonlyMap<string, CategoryRow>;
  hierarchyOf: (stdCtgNo: string) => string;
  /** A category value, or the nearest ancestor's when the category leaves it empty. */
  inherited: <K extends keyof CategoryRow>(stdCtgNo: string, key: K) => CategoryRow[K] | undefined;
  attributesOf: (stdCtgNo: string) => readonly CategoryAttRow[];
  noticeItemsOf: (goodsNotiLisartCd: string) => readonly NoticeItemRow[];
  mdName: (userId: string) => string | undefined;
  /** Root categories (`std_ctg_no`) of a brand's listed goods; undefined when it has too few goods to tell. */
  brandRoots: (brandNo: string) => ReadonlySet<string> | undefined;
  rootOf: (stdCtgNo: string) => string | undefined;
  loadedAt: number;
}

/** The indexes of one load; the goods names are cleaned and indexed in slices, between requests. */
export async function buildMasterIndex(rows: MasterRows, options: { fuzzyMin: number; now: number }): Promise<MasterIndex> {
  const aliases = new Map<string, string[]>();
  for (const a of rows.aliases) aliases.set(a.brandNo, [...(aliases.get(a.brandNo) ?? []), a.aliasNm]);
  const brands: BrandMaster[] = rows.brands.map((b) => ({ ...b, aliases: aliases.get(b.brandNo) ?? [] }));

  const categoryByNo = new Map(rows.categories.map((c) => [c.stdCtgNo, c]));
  const pathOf = (stdCtgNo: string): CategoryRow[] => {
    const path: CategoryRow[] = [];
    const seen = new Set<string>();
    for (let c = categoryByNo.get(stdCtgNo); c && !seen.has(c.stdCtgNo); c = c.uprStdCtgNo ? categoryByNo.get(c.uprStdCtgNo) : undefined) {
      seen.add(c.stdCtgNo);
      path.unshift(c);
    }
    return path;
  };
  const leaves = rows.categories
    .filter((c) => c.leafYn === 'Y')
    .map((c) => ({ stdCtgNo: c.stdCtgNo, path: pathOf(c.stdCtgNo).map((p) => ({ stdCtgNo: p.stdCtgNo, name: p.stdCtgNm })) }));
  const examples = await goodsExamples(rows, brands);
  const categories = await CategoryClassifier.build(leaves, examples);

  const attributes = new Map<string, CategoryAttRow[]>();
  for (const a of rows.attributes) attributes.set(a.stdCtgNo, [...(attributes.get(a.stdCtgNo) ?? []), a]);
  const noticeItems = new Map<string, NoticeItemRow[]>();
  for (const n of rows.noticeItems) noticeItems.set(n.goodsNotiLisartCd, [...(noticeItems.get(n.goodsNotiLisartCd) ?? []), n]);
  const mdNames = new Map(rows.mds.map((u) => [u.userId, u.userNm]));

  const brandRoots = new Map<string, { goods: number; roots: Set<string> }>();
  for (const g of rows.goodsSamples) {
    const root = g.brandNo ? pathOf(g.stdCtgNo)[0]?.stdCtgNo : undefined;
    if (!g.brandNo || !root) continue;
    const r = brandRoots.get(g.brandNo) ?? { goods: 0, roots: new Set<string>() };
    r.goods++;
    r.roots.add(root);
    brandRoots.set(g.brandNo, r);
  }

  const inherited = <K extends keyof CategoryRow>(stdCtgNo: string, key: K): CategoryRow[K] | undefined => {
    for (const c of pathOf(stdCtgNo).reverse()) {
      const v = c[key];
      if (v !== null && v !== undefined && v !== '') return v;
    }
    return undefined;
  };

  return {
    brands: new BrandMatcher(brands, options.fuzzyMin, brandVocabulary(rows, categoryByNo)),
    categories,
    categoryByNo,
    hierarchyOf: (stdCtgNo) => hierarchyText(pathOf(stdCtgNo).map((p) => p.stdCtgNm)),
    inherited,
    // Attributes may be defined on the leaf or on a group above it; the nearest definition wins.
    attributesOf: (stdCtgNo) => {
      for (const c of pathOf(stdCtgNo).reverse()) {
        const atts = attributes.get(c.stdCtgNo);
        if (atts?.length) return atts;
      }
      return [];
    },
    noticeItemsOf: (cd) => noticeItems.get(cd) ?? [],
    mdName: (userId) => mdNames.get(userId),
    brandRoots: (brandNo) => {
      const roots = brandRoots.get(brandNo);
      return roots && roots.goods >= BRAND_ROOT_MIN_GOODS ? roots.roots : undefined;
    },
    rootOf: (stdCtgNo) => pathOf(stdCtgNo)[0]?.stdCtgNo,
    loadedAt: options.now,
  };
}

/**
 * Existing goods names cleaned like a query (without their own brand's spellings, model codes
 * and variant words), so that the nearest goods are found by what the goods are.
 */
function goodsExamples(rows: MasterRows, brands: readonly BrandMaster[]): Promise<GoodsExample[]> {
  const spellings = new Map(
    brands.map((b) => [
      b.brandNo,
      [...new Set([b.brandNm, b.brandEngNm, ...b.aliases].filter((n): n is string => !!n).map((n) => normaliseText(n).replace(/\s+/g, '')))]
        .filter(Boolean)
        .sort((x, y) => y.length - x.length),
    ]),
  );
  return mapInSlices(rows.goodsSamples, (g) => ({
    stdCtgNo: g.stdCtgNo,
    brandNo: g.brandNo,
    text: categoryText(g.goodsNm, { codes: modelCodes(g.goodsNm), phrases: (g.brandNo && spellings.get(g.brandNo)) || [] }),
  }));
}

/** A brand with fewer listed goods says too little about where it sells. */
const BRAND_ROOT_MIN_GOODS = 3;

/** A word in at least this many goods names of other brands is an ordinary word, not evidence of a brand. */
const COMMON_WORD_GOODS = 3;

/**
 * What the brands' own goods say: the words of each brand's goods names and leaf names (a word
 * glued to the brand that its goods use, `동원참치`, keeps the brand), and how many goods of
 * other brands use a word (`베이직`, `클라우드` as ordinary words).
 */
function brandVocabulary(rows: MasterRows, categoryByNo: ReadonlyMap<string, CategoryRow>): BrandVocabulary {
  const own = new Map<string, Set<string>>();
  const users = new Map<string, Map<string, number>>();
  for (const g of rows.goodsSamples) {
    const ws = new Set(brandWords(g.goodsNm));
    for (const w of ws) {
      const byBrand = users.get(w) ?? new Map<string, number>();
      byBrand.set(g.brandNo ?? '', (byBrand.get(g.brandNo ?? '') ?? 0) + 1);
      users.set(w, byBrand);
    }
    if (!g.brandNo) continue;
    const set = own.get(g.brandNo) ?? new Set<string>();
    for (const w of ws) set.add(w);
    const leaf = categoryByNo.get(g.stdCtgNo)?.stdCtgNm;
    if (leaf) for (const w of [leaf, ...brandWords(leaf)]) set.add(w.replace(/\s+/g, ''));
    own.set(g.brandNo, set);
  }
  return {
    wordsOf: (brandNo) => own.get(brandNo),
    isCommonWord: (key, brandNo) => {
      let n = 0;
      for (const [b, count] of users.get(key) ?? []) if (b !== brandNo) n += count;
      return n >= COMMON_WORD_GOODS;
    },
  };
}
