import { streamRows, type Knex } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';
import { whereInCategories, withCategoryDescendants } from '../shared/category-tree.ts';
import { splitWholeMonths } from './report-range.ts';

/**
 * The SQL of the statistics component. The database groups and sums; callers get one plain row
 * per bucket or key. Time ranges are half-open (`col >= from AND col < to`) so the
 * `evt_dtm` / `agrt_dt` indexes serve every read.
 */

/** The six sums every statistics row is derived from (discounts already net). */
export interface Measures {
  ordAmt: number;
  ordQty: number;
  cnclAmt: number;
  cnclQty: number;
  dcAmt2nd: number;
  dcAmt3rd: number;
}

/** Filters that reach the events (or inflow rows) through `goods`. */
export interface GoodsFilter {
  goodsNo?: string | undefined;
  entrNo?: string | undefined;
  brandNo?: string | undefined;
  mdId?: string | undefined;
  stdCtgNo?: string | undefined;
}

export interface SiteGoodsFilter extends GoodsFilter {
  siteNo?: string | undefined;
}

/** `[fromDay, toDay)` in `yyyy-MM-dd`. */
export interface DayRange {
  fromDay: string;
  toDay: string;
}

export type Grain = 'day' | 'month' | 'hour';

/** The six sums over rows `a` of an aggregate table (measure columns ord_amt … dc_amt_3rd). */
export const DAILY_MEASURES = `SUM(a.ord_amt) AS ordAmt, SUM(a.ord_qty) AS ordQty, SUM(a.cncl_amt) AS cnclAmt,
  SUM(a.cncl_qty) AS cnclQty, SUM(a.dc_amt_2nd) AS dcAmt2nd, SUM(a.dc_amt_3rd) AS dcAmt3rd`;

/** The measures of a grouped derived table `s`. */
const S_MEASURES = ['s.ordAmt', 's.ordQty', 's.cnclAmt', 's.cnclQty', 's.dcAmt2nd', 's.dcAmt3rd'];

/** Net amount of a grouped row, the sort key of every aggregate list. */
const NET_DESC = 's.ordAmt - s.cnclAmt DESC';

/** `stat_ctg_tree` = the requested category and every category below it. */
const CATEGORY_TREE = 'stat_ctg_tree';

function withCategoryTree(q: Knex.QueryBuilder, stdCtgNo: string | undefined): void {
  if (stdCtgNo) withCategoryDescendants(q, CATEGORY_TREE, (tree) => tree.select('std_ctg_no').from('std_ctg').where('std_ctg_no', stdCtgNo));
}

const inCategoryTree = (q: Knex.QueryBuilder, column: string) => whereInCategories(q, column, CATEGORY_TREE);

export type BucketMeasures = Measures & { bucket: string };

/** One agrtGb over a day range of a list aggregate (`a`), optionally one site. */
export interface DailyScope {
  agrtGb: string;
  range: DayRange;
  siteNo?: string | undefined;
}

/** The daily aggregate of each list and its monthly roll-up (the worker's migrations 0101 and 0103). */
const LIST_TABLES = {
  category: { daily: 'agg_ctg_daily', monthly: 'agg_ctg_monthly' },
  payway: { daily: 'agg_payway_daily', monthly: 'agg_payway_monthly' },
  goods: { daily: 'agg_goods_daily', monthly: 'agg_goods_monthly' },
  entr: { daily: 'agg_entr_daily', monthly: 'agg_entr_monthly' },
} as const;

const SUMMED_MEASURES = `SUM(p.ordAmt) AS ordAmt, SUM(p.ordQty) AS ordQty, SUM(p.cnclAmt) AS cnclAmt,
  SUM(p.cnclQty) AS cnclQty, SUM(p.dcAmt2nd) AS dcAmt2nd, SUM(p.dcAmt3rd) AS dcAmt3rd`;

/**
 * The sums per `keys` of one list aggregate over `scope`: the whole months of the range from the
 * monthly roll-up, the days before and after them from the daily table (a 12-month list reads
 * 12 rows per key instead of 365). Each part is grouped on its own through its primary key
 * (agrtGb, date, site …) or a filter-led covering index, then the parts are summed again.
 * `narrow` adds the list's filters to every part, on alias `a`; `carried` columns are taken
 * as their MAX per key. The roll-up rows equal the daily rows of their months (the worker
 * writes both in one transaction), so the numbers are those of the daily rows alone.
 */
function listSums(
  knex: Knex,
  list: keyof typeof LIST_TABLES,
  scope: DailyScope,
  keys: string[],
  narrow: (q: Knex.QueryBuilder) => void,
  carried: string[] = [],
): Knex.QueryBuilder {
  const { months, days } = splitWholeMonths(scope.range);
  const parts = [
    ...(months ? [{ table: LIST_TABLES[list].monthly, column: 'agrt_mon', range: months }] : []),
    ...days.map((range) => ({ table: LIST_TABLES[list].daily, column: 'agrt_dt', range })),
  ].map(({ table, column, range }) => {
    const q = knex
      .from(`${table} as a`)
      .select(...keys.map((k) => `a.${k}`), ...carried.map((c) => knex.raw(`MAX(a.${c}) AS ${c}`)), knex.raw(DAILY_MEASURES))
      .where('a.agrt_gb_cd', scope.agrtGb)
      .where(`a.${column}`, '>=', range.fromDay)
      .where(`a.${column}`, '<', range.toDay)
      .groupBy(keys.map((k) => `a.${k}`));
    if (scope.siteNo) q.where('a.site_no', scope.siteNo);
    narrow(q);
    return q;
  });
  if (parts.length === 1) return parts[0]!;
  return knex
    .from(knex.queryBuilder().unionAll(parts, true).as('p'))
    .select(...keys.map((k) => `p.${k}`), ...carried.map((c) => knex.raw(`MAX(p.${c}) AS ${c}`)), knex.raw(SUMMED_MEASURES))
    .groupBy(keys.map((k) => `p.${k}`));
}

/**
 * A grouped read: awaited, the whole list; `.stream()`ed, one row at a time with the socket paused
 * while the consumer is busy, so an Excel download of any length never holds the list in memory.
 * The stream runs under the pool's stream limit (`streamRows`): its statement lasts as long as the
 * download's client takes to read.
 */
export type RowQuery<T> = PromiseLike<T[]> & { stream(): AsyncIterable<T> };
const rowQuery = <T>(knex: Knex, q: Knex.QueryBuilder): RowQuery<T> => ({
  then: (onFulfilled, onRejected) => (q as unknown as PromiseLike<T[]>).then(onFulfilled, onRejected),
  stream: () => streamRows<T>(knex, q),
});

export type CategoryTotals = Measures & { stdCtgNo: string; mdId: string; stdCtgNm: string | null; mdNm: string | null };

/** Category aggregate per (std_ctg_no, md_id), net amount descending; `limit` for TOP-N. */
export function categoryTotals(
  knex: Knex,
  scope: DailyScope,
  f: { stdCtgNo?: string | undefined; mdId?: string | undefined },
  limit?: number,
): RowQuery<CategoryTotals> {
  const sums = listSums(knex, 'category', scope, ['std_ctg_no', 'md_id'], (q) => {
    if (f.mdId) q.where('a.md_id', f.mdId);
    if (f.stdCtgNo) inCategoryTree(q, 'a.std_ctg_no');
  });
  const q = knex
    .select(...S_MEASURES, { stdCtgNo: 's.std_ctg_no', mdId: 's.md_id', stdCtgNm: 'c.std_ctg_nm', mdNm: 'u.user_nm' })
    .from(sums.as('s'))
    .leftJoin('std_ctg as c', 'c.std_ctg_no', 's.std_ctg_no')
    .leftJoin('bo_user as u', 'u.user_id', 's.md_id')
    .orderByRaw(`${NET_DESC}, s.std_ctg_no, s.md_id`);
  withCategoryTree(q, f.stdCtgNo);
  if (limit !== undefined) q.limit(limit);
  return rowQuery(knex, q);
}

export type PayWayTotals = Measures & { payWayCd: string; payWayNm: string | null };

/** Payment-method aggregate per pay_way_cd, with its OM013 name. */
export function payWayTotals(knex: Knex, scope: DailyScope, f: { payWayCd?: string | undefined }): RowQuery<PayWayTotals> {
  const sums = listSums(knex, 'payway', scope, ['pay_way_cd'], (q) => {
    if (f.payWayCd) q.where('a.pay_way_cd', f.payWayCd);
  });
  return rowQuery(
    knex,
    knex
      .select(...S_MEASURES, { payWayCd: 's.pay_way_cd', payWayNm: 'c.cd_nm' })
      .from(sums.as('s'))
      .leftJoin('cm_cd as c', (on) => on.on('c.cd', 's.pay_way_cd').andOnVal('c.grp_cd', CODE_GROUPS.PAYMENT_METHOD))
      .orderByRaw(`${NET_DESC}, s.pay_way_cd`),
  );
}

export type GoodsTotals = Measures & {
  goodsNo: string;
  entrNo: string;
  goodsNm: string | null;
  imgPath: string | null;
  entrNm: string | null;
};

/**
 * Goods aggregate per goods_no. The supplier is the one the aggregate recorded (the goods'
 * supplier at aggregation time), so the supplier filter and the shown supplier agree.
 */
export function goodsTotals(
  knex: Knex,
  scope: DailyScope,
  f: { goodsNo?: string | undefined; entrNo?: string | undefined },
): RowQuery<GoodsTotals> {
  const sums = listSums(
    knex,
    'goods',
    scope,
    ['goods_no'],
    (q) => {
      if (f.goodsNo) q.where('a.goods_no', f.goodsNo);
      if (f.entrNo) q.where('a.entr_no', f.entrNo);
    },
    ['entr_no'],
  );
  return rowQuery(
    knex,
    knex
      .select(...S_MEASURES, { goodsNo: 's.goods_no', entrNo: 's.entr_no', goodsNm: 'g.goods_nm', imgPath: 'g.img_path', entrNm: 'n.entr_nm' })
      .from(sums.as('s'))
      .leftJoin('goods as g', 'g.goods_no', 's.goods_no')
      .leftJoin('entr as n', 'n.entr_no', 's.entr_no')
      .orderByRaw(`${NET_DESC}, s.goods_no`),
  );
}

export type EnterpriseTotals = Measures & { entrNo: string; entrNm: string | null };

/** Supplier aggregate per entr_no. */
export function enterpriseTotals(knex: Knex, scope: DailyScope, f: { entrNo?: string | undefined }): RowQuery<EnterpriseTotals> {
  const sums = listSums(knex, 'entr', scope, ['entr_no'], (q) => {
    if (f.entrNo) q.where('a.entr_no', f.entrNo);
  });
  return rowQuery(
    knex,
    knex
      .select(...S_MEASURES, { entrNo: 's.entr_no', entrNm: 'n.entr_nm' })
      .from(sums.as('s'))
      .leftJoin('entr as n', 'n.entr_no', 's.entr_no')
      .orderByRaw(`${NET_DESC}, s.entr_no`),
  );
}

/** Names of the conditions of a period/hourly request, echoed on its rows. */
export interface ConditionNames {
  siteNm?: string | undefined;
  stdCtgNm?: string | undefined;
  mdNm?: string | undefined;
  entrNm?: string | undefined;
  brandNm?: string | undefined;
  goodsNm?: string | undefined;
  imgPath?: string | undefined;
}

const nameOf = async (q: Knex.QueryBuilder, column: string): Promise<string | undefined> => {
  const row = (await q.first(column)) as Record<string, string | null> | undefined;
  return row?.[column] ?? undefined;
};

export async function conditionNames(knex: Knex, f: SiteGoodsFilter): Promise<ConditionNames> {
  const [siteNm, stdCtgNm, mdNm, entrNm, brandNm, goods] = await Promise.all([
    f.siteNo ? nameOf(knex('site').where('site_no', f.siteNo), 'site_nm') : undefined,
    f.stdCtgNo ? nameOf(knex('std_ctg').where('std_ctg_no', f.stdCtgNo), 'std_ctg_nm') : undefined,
    f.mdId ? nameOf(knex('bo_user').where('user_id', f.mdId), 'user_nm') : undefined,
    f.entrNo ? nameOf(knex('entr').where('entr_no', f.entrNo), 'entr_nm') : undefined,
    f.brandNo ? nameOf(knex('brand').where('brand_no', f.brandNo), 'brand_nm') : undefined,
    f.goodsNo
      ? (knex('goods').where('goods_no', f.goodsNo).first('goods_nm', 'img_path') as Promise<
          { goods_nm: string; img_path: string | null } | undefined
        >)
      : undefined,
  ]);
  return { siteNm, stdCtgNm, mdNm, entrNm, brandNm, goodsNm: goods?.goods_nm, imgPath: goods?.img_path ?? undefined };
}

export async function siteName(knex: Knex, siteNo: string | undefined): Promise<string | null> {
  if (!siteNo) return null;
  return (await nameOf(knex('site').where('site_no', siteNo), 'site_nm')) ?? null;
}
