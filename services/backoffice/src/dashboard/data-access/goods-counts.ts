import type { Knex } from '@bo/db';
import { REVIEW_DISPLAYED } from '@bo/contracts';
import { whereInCategories, withCategoryDescendants } from '../../shared/category-tree.ts';
import type { GoodsScope, QuestionRow, RestockGoodsRow, ReviewCounts, SaleStatusCountRow } from '../model.ts';

/** The dashboard's reads: goods counted by sale status, restock requests, questions and reviews, within a user's scope. */

/** `md_ctg` = the user's mapped categories and their descendants. */
const MD_CATEGORIES = 'md_ctg';

/**
 * A query that can see the `md_ctg` CTE when the scope needs it. Seeded from `md_std_ctg`
 * itself so goods filed directly under a mapped number count even without a `std_ctg` row.
 */
function scopedQuery(knex: Knex, scope: GoodsScope): Knex.QueryBuilder {
  const qb = knex.queryBuilder();
  const { mdUserId } = scope;
  if (mdUserId)
    withCategoryDescendants(qb, MD_CATEGORIES, (tree) => tree.select('m.std_ctg_no').from('md_std_ctg as m').where('m.user_id', mdUserId));
  return qb;
}

/** A `COUNT(*) AS cnt`: mysql2 answers a number (or text for a BIGINT beyond 2^53). */
type CountRow = { cnt: number | string };

function whereGoodsInScope(qb: Knex.QueryBuilder, scope: GoodsScope, entrColumn: string): void {
  if (scope.entrNo) qb.where(entrColumn, scope.entrNo);
  if (scope.mdUserId) whereInCategories(qb, 'g.std_ctg_no', MD_CATEGORIES);
}

export async function userWorkGroup(knex: Knex, userId: string): Promise<string | undefined> {
  const row = await knex('bo_user').first<{ work_grp_cd: string } | undefined>('work_grp_cd').where('user_id', userId);
  return row?.work_grp_cd;
}

export async function mappedCategoryCount(knex: Knex, userId: string): Promise<number> {
  const row = await knex('md_std_ctg').where('user_id', userId).count({ cnt: '*' }).first();
  return Number(row?.cnt ?? 0);
}

/** `cd → cd_nm` of one common-code group. */
export async function codeNames(knex: Knex, grpCd: string): Promise<Map<string, string>> {
  const rows = await knex('cm_cd').select<{ cd: string; cd_nm: string }[]>('cd', 'cd_nm').where('grp_cd', grpCd);
  return new Map(rows.map((r) => [r.cd, r.cd_nm]));
}

/** Goods per sale status with, per status, how many stock-managed goods are at or below safety stock. */
export async function countGoodsBySaleStatus(knex: Knex, scope: GoodsScope): Promise<SaleStatusCountRow[]> {
  const qb = scopedQuery(knex, scope)
    .from('goods as g')
    .select({ saleStatCd: 'g.sale_stat_cd' })
    .count({ cnt: '*' })
    .select(knex.raw(`SUM(CASE WHEN g.stk_mgr_yn = 'Y' AND g.stk_qty <= g.sfty_stk_qty THEN 1 ELSE 0 END) AS lowStockCnt`))
    .groupBy('g.sale_stat_cd');
  whereGoodsInScope(qb, scope, 'g.entr_no');
  const rows = (await qb) as { saleStatCd: string; cnt: number | string; lowStockCnt: number | string }[];
  return rows.map((r) => ({ saleStatCd: r.saleStatCd, cnt: Number(r.cnt), lowStockCnt: Number(r.lowStockCnt) }));
}

function waitingRestockRequests(knex: Knex, scope: GoodsScope, siteNo: string | undefined): Knex.QueryBuilder {
  const qb = scopedQuery(knex, scope).from('restock_noti_req as r').join('goods as g', 'g.goods_no', 'r.goods_no').where('r.noti_yn', 'N');
  if (siteNo) qb.where('r.site_no', siteNo);
  whereGoodsInScope(qb, scope, 'g.entr_no');
  return qb;
}

export async function countWaitingRestockRequests(knex: Knex, scope: GoodsScope, siteNo: string | undefined): Promise<number> {
  const row = await waitingRestockRequests(knex, scope, siteNo).count({ cnt: '*' }).first<CountRow | undefined>();
  return Number(row?.cnt ?? 0);
}

/** Goods with the most waiting requests first; ties by goods number so the top N is stable. */
export async function topWaitingRestockGoods(
  knex: Knex,
  scope: GoodsScope,
  siteNo: string | undefined,
  limit: number,
): Promise<RestockGoodsRow[]> {
  const rows = (await waitingRestockRequests(knex, scope, siteNo)
    .select({ goodsNo: 'g.goods_no', goodsNm: 'g.goods_nm' })
    .count({ cnt: '*' })
    .groupBy('g.goods_no', 'g.goods_nm')
    .orderBy([
      { column: 'cnt', order: 'desc' },
      { column: 'g.goods_no', order: 'asc' },
    ])
    .limit(limit)) as { goodsNo: string; goodsNm: string; cnt: number | string }[];
  return rows.map((r) => ({ ...r, cnt: Number(r.cnt) }));
}

/** Questions carry their supplier, so the supplier filter reads `q.entr_no` (indexed with the status). */
function questions(knex: Knex, scope: GoodsScope, procStatCd: string | undefined): Knex.QueryBuilder {
  const qb = scopedQuery(knex, scope).from('goods_qna as q');
  if (scope.mdUserId) qb.join('goods as g', 'g.goods_no', 'q.goods_no');
  if (procStatCd) qb.where('q.proc_stat_cd', procStatCd);
  whereGoodsInScope(qb, scope, 'q.entr_no');
  return qb;
}

export async function countQuestions(knex: Knex, scope: GoodsScope, procStatCd: string | undefined): Promise<number> {
  const row = await questions(knex, scope, procStatCd).count({ cnt: '*' }).first<CountRow | undefined>();
  return Number(row?.cnt ?? 0);
}

/** The newest questions with their type and status names from the common codes. */
export async function newestQuestions(
  knex: Knex,
  scope: GoodsScope,
  procStatCd: string | undefined,
  codeGroups: { type: string; status: string },
  limit: number,
): Promise<QuestionRow[]> {
  const rows = (await questions(knex, scope, procStatCd)
    .leftJoin('cm_cd as t', (on) => on.on('t.cd', 'q.quest_typ_cd').andOnVal('t.grp_cd', codeGroups.type))
    .leftJoin('cm_cd as s', (on) => on.on('s.cd', 'q.proc_stat_cd').andOnVal('s.grp_cd', codeGroups.status))
    .select({
      questNo: 'q.quest_no',
      siteNo: 'q.site_no',
      mbrNo: 'q.mbr_no',
      goodsNo: 'q.goods_no',
      entrNo: 'q.entr_no',
      questTypCd: 'q.quest_typ_cd',
      questTitle: 'q.quest_title',
      questCont: 'q.quest_cont',
      questDtm: 'q.quest_dtm',
      procStatCd: 'q.proc_stat_cd',
      procStatDtm: 'q.proc_stat_dtm',
      questTypCdNm: 't.cd_nm',
      procStatCdNm: 's.cd_nm',
    })
    .orderBy([
      { column: 'q.quest_dtm', order: 'desc' },
      { column: 'q.quest_no', order: 'desc' },
    ])
    .limit(limit)) as QuestionRow[];
  return rows.map((r) => ({ ...r, questNo: Number(r.questNo) }));
}

/**
 * Displayed, undeleted reviews with `from <= reg_dtm <= to` (platform local text), and how
 * many of them are rated high (>= highMin) and low (<= lowMax).
 */
export async function countReviews(
  knex: Knex,
  scope: GoodsScope,
  siteNo: string | undefined,
  window: { from: string; to: string },
  ratings: { highMin: number; lowMax: number },
): Promise<ReviewCounts> {
  const qb = scopedQuery(knex, scope)
    .from('goods_review as r')
    .join('goods as g', 'g.goods_no', 'r.goods_no')
    .whereBetween('r.reg_dtm', [window.from, window.to])
    .whereNot('r.del_yn', 'Y')
    .where('r.rev_disp_stat_cd', REVIEW_DISPLAYED)
    .select(
      knex.raw('COUNT(*) AS total'),
      knex.raw('COALESCE(SUM(CASE WHEN r.star_score >= ? THEN 1 ELSE 0 END), 0) AS high', [ratings.highMin]),
      knex.raw('COALESCE(SUM(CASE WHEN r.star_score <= ? THEN 1 ELSE 0 END), 0) AS low', [ratings.lowMax]),
    );
  if (siteNo) qb.where('r.site_no', siteNo);
  whereGoodsInScope(qb, scope, 'g.entr_no');
  const [row] = (await qb) as { total: number | string; high: number | string; low: number | string }[];
  return { total: Number(row?.total ?? 0), high: Number(row?.high ?? 0), low: Number(row?.low ?? 0) };
}
