import type { Knex } from '@bo/db';
import { ALL_GOODS_DIM } from '@bo/contracts';
import { withCategoryDescendants } from '../shared/category-tree.ts';
import { DAILY_MEASURES, type DayRange, type Grain } from './repository.ts';

/**
 * The SQL of the period and hourly status reports: raw events, the worker's period rollups
 * (migration 0102: `agg_site_hourly`, `agg_dim_daily`/`_monthly` from the events,
 * `agg_inflow_site_hourly`, `agg_inflow_dim_daily`/`_monthly` from the page views), and the goods
 * whose attributes moved since the rollups filed them. Bucket keys are `yyyyMMdd`, `yyyyMM` or
 * `yyyyMMddHH` whatever the source, so sums of different sources add up per key. Day ranges are
 * half-open.
 *
 * Goods conditions reach raw rows as a list of goods numbers (`goodsMatching`), and a category
 * as the list of it and everything below it (`categoryAndBelow`): literal values let the server
 * read one index range per value and date range, where a join (or a subquery over the recursive
 * CTE) makes it read every day of each goods or category.
 */

/** Conditions of a raw read: the site, and the goods (already resolved from their attributes). */
export interface RawFilter {
  siteNo?: string | undefined;
  goodsNos?: readonly string[] | undefined;
}

/** The goods attribute conditions of a report, the category resolved to it and everything below it. */
export interface GoodsAttributes {
  goodsNo?: string | undefined;
  entrNo?: string | undefined;
  brandNo?: string | undefined;
  mdId?: string | undefined;
  stdCtgNos?: readonly string[] | undefined;
}

/** One rollup dimension: `all`, or one goods column and the values asked. */
export type RollupDim = { dimCd: typeof ALL_GOODS_DIM } | { dimCd: string; column: string; values: readonly string[] };

export type BucketViews = { bucket: string; infCnt: number };

const DAY_FORMAT = { day: '%Y%m%d', month: '%Y%m' } as const;

const rawBucket = (grain: Grain, column: string): string =>
  grain === 'hour' ? `DATE_FORMAT(${column}, '%Y%m%d%H')` : `DATE_FORMAT(${column}, '${DAY_FORMAT[grain]}')`;

const rollupBucket = (grain: Grain, alias: string): string =>
  grain === 'hour'
    ? `CONCAT(DATE_FORMAT(${alias}.agrt_dt, '%Y%m%d'), LPAD(${alias}.agrt_hour, 2, '0'))`
    : `DATE_FORMAT(${alias}.agrt_dt, '${DAY_FORMAT[grain]}')`;

/** Occurrences (`10`) and cancellations (`20`) of DATA-MODEL.md section 3; discounts net. */
const EVENT_MEASURES = `SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.amt ELSE 0 END) AS ordAmt,
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.qty ELSE 0 END) AS ordQty,
  SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.amt ELSE 0 END) AS cnclAmt,
  SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.qty ELSE 0 END) AS cnclQty,
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_2nd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_2nd ELSE 0 END) AS dcAmt2nd,
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_3rd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_3rd ELSE 0 END) AS dcAmt3rd`;

/** The category and every category below it (none when it does not exist). */
export async function categoryAndBelow(knex: Knex, stdCtgNo: string): Promise<string[]> {
  const q = knex.select('std_ctg_no').from('stat_ctg_tree');
  withCategoryDescendants(q, 'stat_ctg_tree', (tree) => tree.select('std_ctg_no').from('std_ctg').where('std_ctg_no', stdCtgNo));
  return ((await q) as { std_ctg_no: string }[]).map((r) => r.std_ctg_no);
}

/** Days of `range` the worker has built the `period` rollups for, `yyyy-MM-dd`. */
export async function builtPeriodDays(knex: Knex, range: DayRange): Promise<Set<string>> {
  const rows: { d: string }[] = await knex('agg_day_status')
    .select({ d: 'agrt_dt' })
    .where({ kind: 'period', agrt_hour: -1 })
    .andWhere('agrt_dt', '>=', range.fromDay)
    .andWhere('agrt_dt', '<', range.toDay);
  return new Set(rows.map((r) => r.d));
}

/** `column` inside any of `ranges`; `time` compares DATETIME text (`… 00:00:00`), else DATE text. */
function whereInRanges(q: Knex.QueryBuilder, column: string, ranges: readonly DayRange[], time: boolean): void {
  const at = (day: string) => (time ? `${day} 00:00:00` : day);
  q.where((any) => {
    for (const r of ranges) any.orWhere((one) => one.where(column, '>=', at(r.fromDay)).andWhere(column, '<', at(r.toDay)));
  });
}

/**
 * MariaDB turns an IN list of 1,000 values or more into a join, which loses the date range of
 * the index; lists are sent in chunks below that.
 */
const IN_LIST_CHUNK = 900;

/** Restrict rows `${alias}` by site and goods list. */
function filterRows(q: Knex.QueryBuilder, alias: string, f: RawFilter): void {
  if (f.siteNo) q.where(`${alias}.site_no`, f.siteNo);
  const goods = f.goodsNos;
  if (!goods) return;
  if (goods.length <= IN_LIST_CHUNK) {
    q.whereIn(`${alias}.goods_no`, goods);
    return;
  }
  q.where((any) => {
    for (let i = 0; i < goods.length; i += IN_LIST_CHUNK) any.orWhereIn(`${alias}.goods_no`, goods.slice(i, i + IN_LIST_CHUNK));
  });
}

/** The goods that meet the attribute conditions now, in goods-number order. */
export async function goodsMatching(knex: Knex, f: GoodsAttributes): Promise<string[]> {
  const q = knex('goods').select('goods_no').orderBy('goods_no');
  if (f.goodsNo) q.where('goods_no', f.goodsNo);
  if (f.entrNo) q.where('entr_no', f.entrNo);
  if (f.brandNo) q.where('brand_no', f.brandNo);
  if (f.mdId) q.where('md_id', f.mdId);
  if (f.stdCtgNos) q.whereIn('std_ctg_no', f.stdCtgNos);
  return ((await q) as { goods_no: string }[]).map((r) => r.goods_no);
}

/** Restrict rollup rows `a` to one dimension and its values, and the site. */
function filterRollup(q: Knex.QueryBuilder, dim: RollupDim, siteNo: string | undefined): void {
  q.where('a.dim_cd', dim.dimCd);
  if ('values' in dim) q.whereIn('a.dim_val', dim.values);
  else q.where('a.dim_val', '');
  if (siteNo) q.where('a.site_no', siteNo);
}

/** Raw order-status events of one agrtGb summed per bucket over the day ranges. */
export function sumRawEvents(knex: Knex, agrtGb: string, f: RawFilter, ranges: readonly DayRange[], grain: Grain): Knex.QueryBuilder {
  const q = knex
    .select(knex.raw(`${rawBucket(grain, 'e.evt_dtm')} AS bucket`), knex.raw(EVENT_MEASURES))
    .from('ord_stat_evt as e')
    .where('e.agrt_gb_cd', agrtGb)
    .groupBy('bucket');
  whereInRanges(q, 'e.evt_dtm', ranges, true);
  filterRows(q, 'e', f);
  return q;
}

/** The rollup table of each grain, and its date column; a monthly row sums every built day of its month. */
const EVENT_ROLLUP = { hour: ['agg_site_hourly', 'agrt_dt'], day: ['agg_dim_daily', 'agrt_dt'], month: ['agg_dim_monthly', 'agrt_mon'] } as const;
const VIEW_ROLLUP = { hour: ['agg_inflow_site_hourly', 'agrt_dt'], day: ['agg_inflow_dim_daily', 'agrt_dt'], month: ['agg_inflow_dim_monthly', 'agrt_mon'] } as const;

function rollupRead(knex: Knex, [table, dateColumn]: readonly [string, string], dim: RollupDim, siteNo: string | undefined, grain: Grain): Knex.QueryBuilder {
  const bucket = grain === 'month' ? `DATE_FORMAT(a.${dateColumn}, '%Y%m')` : rollupBucket(grain, 'a');
  const q = knex.select(knex.raw(`${bucket} AS bucket`)).from(`${table} as a`).groupBy('bucket');
  if (grain === 'hour') {
    if ('values' in dim) throw new Error('the hourly rollups have no goods dimensions');
    if (siteNo) q.where('a.site_no', siteNo);
  } else filterRollup(q, dim, siteNo);
  return q;
}

/**
 * The `period` rollups: per hour and site (`all` only) or per dimension and day over `ranges` of
 * built days; per dimension and month over `ranges` of whole months (which hold exactly the
 * built days of each month).
 */
export function sumEventRollup(
  knex: Knex,
  agrtGb: string,
  dim: RollupDim,
  siteNo: string | undefined,
  ranges: readonly DayRange[],
  grain: Grain,
): Knex.QueryBuilder {
  const q = rollupRead(knex, EVENT_ROLLUP[grain], dim, siteNo, grain).select(knex.raw(DAILY_MEASURES)).where('a.agrt_gb_cd', agrtGb);
  whereInRanges(q, `a.${EVENT_ROLLUP[grain][1]}`, ranges, false);
  return q;
}

/**
 * Page views of the goods-level hourly inflow aggregate. Through a goods list, by its goods-led
 * index: one range per goods over the days (the optimizer, counting every day of each goods,
 * would rather read all the range's rows of every goods).
 */
export function sumRawViews(knex: Knex, f: RawFilter, range: DayRange, grain: Grain): Knex.QueryBuilder {
  const q = knex
    .select(knex.raw(`${rollupBucket(grain, 'i')} AS bucket`), knex.raw('SUM(i.inf_cnt) AS infCnt'))
    .from(f.goodsNos ? knex.raw('agg_inflow_hourly AS i FORCE INDEX (idx_agg_inflow_goods)') : 'agg_inflow_hourly as i')
    .where('i.agrt_dt', '>=', range.fromDay)
    .where('i.agrt_dt', '<', range.toDay)
    .groupBy('bucket');
  filterRows(q, 'i', f);
  return q;
}

/** Page views of the inflow rollups over `range` (whole months for `month`): per hour and site (`all` only), or per dimension and day or month. */
export function sumViewRollup(knex: Knex, dim: RollupDim, siteNo: string | undefined, range: DayRange, grain: Grain): Knex.QueryBuilder {
  const q = rollupRead(knex, VIEW_ROLLUP[grain], dim, siteNo, grain).select(knex.raw('SUM(a.inf_cnt) AS infCnt'));
  whereInRanges(q, `a.${VIEW_ROLLUP[grain][1]}`, [range], false);
  return q;
}

/**
 * Goods the rollups file differently from what the condition means now: filed under one of the
 * values (`agg_goods_dim`) but no longer carrying one — or no longer in `goods` — (`out`), and
 * carrying one now but filed under another value (`in`). A goods not in the snapshot yet was
 * filed under the attributes it had at build time, taken to be its current ones. At most
 * `limit + 1` of each, so a caller can tell "too many".
 */
export async function movedGoods(
  knex: Knex,
  dim: Extract<RollupDim, { values: readonly string[] }>,
  limit: number,
): Promise<{ in: string[]; out: string[] }> {
  const { column, values } = dim;
  const notOneOf = (w: Knex.QueryBuilder, alias: string) => w.whereNull(`${alias}.${column}`).orWhereNotIn(`${alias}.${column}`, values);
  const out = knex
    .select('s.goods_no')
    .from('agg_goods_dim as s')
    .leftJoin('goods as g', 'g.goods_no', 's.goods_no')
    .whereIn(`s.${column}`, values)
    .where((w) => w.whereNull('g.goods_no').orWhere((o) => notOneOf(o, 'g')))
    .limit(limit + 1);
  const moved = knex
    .select('g.goods_no')
    .from('goods as g')
    .join('agg_goods_dim as s', 's.goods_no', 'g.goods_no')
    .whereIn(`g.${column}`, values)
    .where((w) => notOneOf(w, 's'))
    .limit(limit + 1);
  const [outRows, inRows] = (await Promise.all([out, moved])) as [{ goods_no: string }[], { goods_no: string }[]];
  return { in: inRows.map((r) => r.goods_no), out: outRows.map((r) => r.goods_no) };
}
