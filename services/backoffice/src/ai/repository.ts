import type { Knex } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';

/** Data access of the AI component: masters for the in-memory indexes, goods and their pages. */

export interface BrandRow {
  brandNo: string;
  brandNm: string;
  brandEngNm: string | null;
}
export interface BrandAliasRow {
  brandNo: string;
  aliasNm: string;
}
export interface CategoryRow {
  stdCtgNo: string;
  uprStdCtgNo: string | null;
  stdCtgNm: string;
  depth: number;
  leafYn: string;
  mdId: string | null;
  goodsNotiLisartCd: string | null;
  safeCertiNeedYn: string;
  safeCertiTgtYn: string;
  szGdeUseYn: string;
  szGdeRegMethCd: string | null;
  szGdeCd: string | null;
}
export interface CategoryAttRow {
  stdCtgNo: string;
  attCd: string;
  attNm: string;
  attValTypCd: string;
  dispSeq: number;
}
export interface NoticeItemRow {
  goodsNotiLisartCd: string;
  goodsNotiItemCd: string;
  notiItemNm: string;
  dispSeq: number;
}
export interface UserRow {
  userId: string;
  userNm: string;
}
export interface CodeRow {
  grpCd: string;
  cd: string;
  cdNm: string;
}

/** An existing goods item as an example of its leaf category. */
export interface GoodsSampleRow {
  goodsNo: string;
  stdCtgNo: string;
  goodsNm: string;
  brandNo: string | null;
}

export interface MasterRows {
  brands: BrandRow[];
  aliases: BrandAliasRow[];
  categories: CategoryRow[];
  attributes: CategoryAttRow[];
  noticeItems: NoticeItemRow[];
  mds: UserRow[];
  codes: CodeRow[];
  goodsSamples: GoodsSampleRow[];
}

/** Leaves per statement of the goods sample: one bounded index read per leaf, UNION ALL-ed. */
const SAMPLE_LEAVES_PER_QUERY = 100;

/**
 * The names of at most `perLeaf` goods of each leaf, the highest goods numbers first (numbers
 * are issued in order, so the most recently registered): each leaf is one short backward read
 * of `idx_goods_ctg (std_ctg_no)`, so the cost is bounded by leaves × perLeaf, not by the size
 * of the goods table.
 */
export async function loadGoodsSamples(knex: Knex, leafNos: readonly string[], perLeaf: number): Promise<GoodsSampleRow[]> {
  if (perLeaf <= 0) return [];
  const out: GoodsSampleRow[] = [];
  for (let i = 0; i < leafNos.length; i += SAMPLE_LEAVES_PER_QUERY) {
    const chunk = leafNos.slice(i, i + SAMPLE_LEAVES_PER_QUERY);
    const one = '(SELECT goods_no AS goodsNo, std_ctg_no AS stdCtgNo, goods_nm AS goodsNm, brand_no AS brandNo FROM goods WHERE std_ctg_no = ? ORDER BY goods_no DESC LIMIT ?)';
    const [rows] = (await knex.raw(chunk.map(() => one).join(' UNION ALL '), chunk.flatMap((no) => [no, perLeaf]))) as unknown as [GoodsSampleRow[]];
    out.push(...rows);
  }
  return out;
}

/**
 * Everything the auto-fill indexes need, in one round of small reads: masters (a few thousand
 * rows) and a capped sample of existing goods names per leaf.
 */
export async function loadMasterRows(knex: Knex, options: { goodsPerLeaf: number }): Promise<MasterRows> {
  // One real promise: a knex builder runs its query again on every `then`.
  const categoriesRead: Promise<CategoryRow[]> = knex('std_ctg')
    .select({
    stdCtgNo: 'std_ctg_no',
    uprStdCtgNo: 'upr_std_ctg_no',
    stdCtgNm: 'std_ctg_nm',
    depth: 'depth',
    leafYn: 'leaf_yn',
    mdId: 'md_id',
    goodsNotiLisartCd: 'goods_noti_lisart_cd',
    safeCertiNeedYn: 'safe_certi_need_yn',
    safeCertiTgtYn: 'safe_certi_tgt_yn',
    szGdeUseYn: 'sz_gde_use_yn',
    szGdeRegMethCd: 'sz_gde_reg_meth_cd',
    szGdeCd: 'sz_gde_cd',
    })
    .then((rows) => rows as CategoryRow[]);
  const samplesRead = categoriesRead.then((cs) =>
    loadGoodsSamples(
      knex,
      cs.filter((c) => c.leafYn === 'Y').map((c) => c.stdCtgNo),
      options.goodsPerLeaf,
    ),
  );
  const [brands, aliases, categories, attributes, noticeItems, mds, codes, goodsSamples] = await Promise.all([
    knex('brand').where('use_yn', 'Y').select({ brandNo: 'brand_no', brandNm: 'brand_nm', brandEngNm: 'brand_eng_nm' }),
    knex('brand_alias as a')
      .join('brand as b', 'b.brand_no', 'a.brand_no')
      .where('b.use_yn', 'Y')
      .select({ brandNo: 'a.brand_no', aliasNm: 'a.alias_nm' }),
    categoriesRead,
    knex('std_ctg_att')
      .select({ stdCtgNo: 'std_ctg_no', attCd: 'att_cd', attNm: 'att_nm', attValTypCd: 'att_val_typ_cd', dispSeq: 'disp_seq' })
      .orderBy([{ column: 'std_ctg_no' }, { column: 'disp_seq' }, { column: 'att_cd' }]),
    knex('goods_noti_item')
      .select({ goodsNotiLisartCd: 'goods_noti_lisart_cd', goodsNotiItemCd: 'goods_noti_item_cd', notiItemNm: 'noti_item_nm', dispSeq: 'disp_seq' })
      .orderBy([{ column: 'goods_noti_lisart_cd' }, { column: 'disp_seq' }, { column: 'goods_noti_item_cd' }]),
    knex('bo_user')
      .whereIn('user_id', knex('std_ctg').whereNotNull('md_id').distinct('md_id'))
      .select({ userId: 'user_id', userNm: 'user_nm' }),
    knex('cm_cd')
      .whereIn('grp_cd', [CODE_GROUPS.AI_DESC_OPTION, CODE_GROUPS.ATTRIBUTE_VALUE_TYPE])
      .where('use_yn', 'Y')
      .orderBy([{ column: 'grp_cd' }, { column: 'sort_seq' }, { column: 'cd' }])
      .select({ grpCd: 'grp_cd', cd: 'cd', cdNm: 'cd_nm' }),
    samplesRead,
  ]);
  return { brands, aliases, categories, attributes, noticeItems, mds, codes, goodsSamples } as MasterRows;
}

export interface GoodsFacts {
  goodsNo: string;
  goodsNm: string;
  entrNo: string;
  brandNm: string | null;
  stdCtgNo: string;
  modlNm: string | null;
  mfcoNm: string | null;
  homeNm: string | null;
}

/** One goods item with the facts a description may state; scoped to a supplier when given. */
export async function findGoodsFacts(knex: Knex, goodsNo: string, entrNo?: string): Promise<GoodsFacts | undefined> {
  const q = knex('goods as g')
    .leftJoin('brand as b', 'b.brand_no', 'g.brand_no')
    .where('g.goods_no', goodsNo)
    .first({
      goodsNo: 'g.goods_no',
      goodsNm: 'g.goods_nm',
      entrNo: 'g.entr_no',
      brandNm: 'b.brand_nm',
      stdCtgNo: 'g.std_ctg_no',
      modlNm: 'g.modl_nm',
      mfcoNm: 'g.mfco_nm',
      homeNm: 'g.home_nm',
    });
  if (entrNo) q.where('g.entr_no', entrNo);
  return (await q) as GoodsFacts | undefined;
}

export interface DocPageRow {
  fileNm: string;
  pageNo: number;
  pageText: string;
}

export async function findDocPages(knex: Knex, goodsNo: string): Promise<DocPageRow[]> {
  return knex('goods_doc_page')
    .where('goods_no', goodsNo)
    .orderBy([{ column: 'file_nm' }, { column: 'page_no' }])
    .select({ fileNm: 'file_nm', pageNo: 'page_no', pageText: 'page_text' });
}

/** A PR050 description option in use, read fresh: options are switched on and off by operators. */
export async function findDescOption(knex: Knex, option: string): Promise<CodeRow | undefined> {
  return knex('cm_cd')
    .where({ grp_cd: CODE_GROUPS.AI_DESC_OPTION, cd: option, use_yn: 'Y' })
    .first({ grpCd: 'grp_cd', cd: 'cd', cdNm: 'cd_nm' });
}
