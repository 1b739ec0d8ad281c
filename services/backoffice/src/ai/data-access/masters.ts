import type { Knex } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';
import type {
  BrandAliasRow,
  BrandRow,
  CategoryAttRow,
  CategoryRow,
  CodeRow,
  GoodsSampleRow,
  MasterRows,
  NoticeItemRow,
  UserRow,
} from '../model.ts';

/** The masters the in-memory auto-fill indexes are built from, and the goods-name sample per leaf. */

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
    const one =
      '(SELECT goods_no AS goodsNo, std_ctg_no AS stdCtgNo, goods_nm AS goodsNm, brand_no AS brandNo FROM goods WHERE std_ctg_no = ? ORDER BY goods_no DESC LIMIT ?)';
    const [rows] = (await knex.raw(
      chunk.map(() => one).join(' UNION ALL '),
      chunk.flatMap((no) => [no, perLeaf]),
    )) as unknown as [GoodsSampleRow[]];
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
  const [brands, aliases, categories, attributes, noticeItems, mds, codes, goodsSamples] = (await Promise.all([
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
      .select({
        goodsNotiLisartCd: 'goods_noti_lisart_cd',
        goodsNotiItemCd: 'goods_noti_item_cd',
        notiItemNm: 'noti_item_nm',
        dispSeq: 'disp_seq',
      })
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
  ])) as [BrandRow[], BrandAliasRow[], CategoryRow[], CategoryAttRow[], NoticeItemRow[], UserRow[], CodeRow[], GoodsSampleRow[]];
  return { brands, aliases, categories, attributes, noticeItems, mds, codes, goodsSamples };
}
