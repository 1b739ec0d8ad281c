import { addDays, daysBetween, eachDay, type Knex } from '@bo/db';
import type { AgrtGb } from '@bo/contracts';
import {
  ALL_GOODS_DIM,
  BUILD_TABLES,
  EVENT_MEASURE_SUMS,
  GOODS_DIM_SNAPSHOT,
  INFLOW_AGGREGATES,
  MEASURE_COLUMNS,
  MEASURES,
  measureSums,
  PERIOD_ROLLUPS,
} from '@bo/aggregates';
import { withCategoryDescendants } from '../../shared/category-tree.ts';
import type { DayRange, Grain } from '../model.ts';

/**
 * The SQL of the period and hourly reports: raw events, the worker's period and inflow rollups,
 * and the goods whose attributes moved since the rollups filed them. Bucket keys are `yyyyMMdd`,
 * `yyyyMM` or `yyyyMMddHH` whatever the source, so sums of different sources add up per key.
 * How raw rows are found through goods conditions: docs/design/period-reports.md.
 */

/**
 * Conditions of a raw read: the site, and the goods as a list of numbers or as their attributes
 * (`through`). With `goodsFirst` a read through attributes takes the matching goods first and
 * each one's events from the goods index (see goodsFirstPays); else the range's events first.
 */
export interface RawFilter {
  siteNo?: string | undefined;
  goodsNos?: readonly string[] | undefined;
  through?: GoodsAttributes | undefined;
  goodsFirst?: boolean | undefined;
}

/** At most this many goods go as a literal list (MariaDB and MySQL estimate up to 200 IN values by index dives). */
export const GOODS_LIST_MAX = 200;

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

const DAY_FORMAT = { day: '%Y%m%d', month: '%Y%m' } as const;

const rawBucket = (grain: Grain, column: string): string =>
  grain === 'hour' ? `DATE_FORMAT(${column}, '%Y%m%d%H')` : `DATE_FORMAT(${column}, '${DAY_FORMAT[grain]}')`;

const rollupBucket = (grain: Grain, alias: string): string =>
  grain === 'hour'
    ? `CONCAT(DATE_FORMAT(${alias}.agrt_dt, '%Y%m%d'), LPAD(${alias}.agrt_hour, 2, '0'))`
    : `DATE_FORMAT(${alias}.agrt_dt, '${DAY_FORMAT[grain]}')`;

/**
 * What a read of rollup or aggregate rows `alias` (dated by `dateColumn`) groups by: the date,
 * and the hour for the hour grain, each of which is one bucket. Grouped by the formatted bucket
 * instead, the server formatted every row before grouping; by the columns, each group once (a
 * top category's 62 days alone at full scale: events 7.6 -> 5.3 ms, page views 5.4 -> 3.2 ms).
 */
const bucketColumns = (grain: Grain, alias: string, dateColumn = 'agrt_dt'): string[] =>
  grain === 'hour' ? [`${alias}.${dateColumn}`, `${alias}.agrt_hour`] : [`${alias}.${dateColumn}`];

/** The six sums over raw events `e`, named as reads return them. */
const EVENT_MEASURES = MEASURE_COLUMNS.map((c) => `${EVENT_MEASURE_SUMS[c]} AS ${MEASURES[c]}`).join(', ');

/** The category and every category below it (none when it does not exist). */
export async function categoryAndBelow(knex: Knex, stdCtgNo: string): Promise<string[]> {
  const q = knex.select('std_ctg_no').from('stat_ctg_tree');
  withCategoryDescendants(q, 'stat_ctg_tree', (tree) => tree.select('std_ctg_no').from('std_ctg').where('std_ctg_no', stdCtgNo));
  return ((await q) as { std_ctg_no: string }[]).map((r) => r.std_ctg_no);
}

/** Days of `range` the worker has built the `period` rollups for, `yyyy-MM-dd`. */
export async function builtPeriodDays(knex: Knex, range: DayRange): Promise<Set<string>> {
  const rows = (await knex(BUILD_TABLES.builtDay)
    .select({ d: 'agrt_dt' })
    .where({ kind: 'period', agrt_hour: -1 })
    .andWhere('agrt_dt', '>=', range.fromDay)
    .andWhere('agrt_dt', '<', range.toDay)) as { d: string }[];
  return new Set(rows.map((r) => r.d));
}

/** `column` inside any of `ranges`; `time` compares DATETIME text (`… 00:00:00`), else DATE text. */
function whereInRanges(q: Knex.QueryBuilder, column: string, ranges: readonly DayRange[], time: boolean): void {
  const at = (day: string) => (time ? `${day} 00:00:00` : day);
  q.where((any) => {
    for (const r of ranges) {
      any.orWhere((one) => {
        one.where(column, '>=', at(r.fromDay)).andWhere(column, '<', at(r.toDay));
      });
    }
  });
}

/**
 * Restrict rows `${alias}` by site and goods. `rowsFirst` makes the server read the rows before
 * the goods they join (a short time range: the rows come from a covering time index and each
 * finds its goods by key).
 */
function filterRows(q: Knex.QueryBuilder, alias: string, f: RawFilter, rowsFirst = false): void {
  if (f.siteNo) q.where(`${alias}.site_no`, f.siteNo);
  if (f.goodsNos) q.whereIn(`${alias}.goods_no`, f.goodsNos);
  if (f.through) {
    if (rowsFirst) q.joinRaw(`STRAIGHT_JOIN goods AS g ON g.goods_no = ${alias}.goods_no`);
    else q.join('goods as g', 'g.goods_no', `${alias}.goods_no`);
    whereGoods(q, 'g', f.through);
  }
}

/**
 * Up to this share of the catalogue, reading the matching goods' events goods by goods beats
 * reading every event of the range and joining its goods. Goods first reads each goods' events
 * of the whole month partition from the covering goods index (~0.7 µs each); rows first reads
 * the range's events and finds each one's goods by key (~4 µs each). Measured at full scale, a
 * two-day read breaks even at ~30 % of the goods, a one-day read at ~15 %.
 */
const GOODS_FIRST_SHARE = 1 / 8;

/**
 * Whether a raw read of `range` through goods attributes `f` takes the goods first: only for the
 * hourly report's one or two days, only when they are whole past days (all in `built`, the
 * range's days built for `period`), and only when the goods are at most GOODS_FIRST_SHARE of the
 * catalogue. Each goods is looked up in every month partition the range touches, so a long range,
 * or one with few events (today so far, days before the data), costs more goods first than it
 * saves: at full scale the 12-month period report with a top category went from 208 to 285 ms p95
 * when its unbuilt edges were read goods first.
 */
export async function goodsFirstPays(
  knex: Knex,
  f: GoodsAttributes,
  range: DayRange,
  grain: Grain,
  built: ReadonlySet<string>,
): Promise<boolean> {
  if (grain !== 'hour' || built.size !== daysBetween(range.fromDay, range.toDay)) return false;
  const matching = knex('goods as g').count({ n: '*' });
  whereGoods(matching, 'g', f);
  const count = async (q: Knex.QueryBuilder) => Number(((await q) as { n: number | string }[])[0]!.n);
  const [all, matched] = await Promise.all([count(knex('goods').count({ n: '*' })), count(matching)]);
  return matched <= all * GOODS_FIRST_SHARE;
}

/** The attribute conditions on goods `${alias}`. */
function whereGoods(q: Knex.QueryBuilder, alias: string, f: GoodsAttributes): void {
  if (f.goodsNo) q.where(`${alias}.goods_no`, f.goodsNo);
  if (f.entrNo) q.where(`${alias}.entr_no`, f.entrNo);
  if (f.brandNo) q.where(`${alias}.brand_no`, f.brandNo);
  if (f.mdId) q.where(`${alias}.md_id`, f.mdId);
  if (f.stdCtgNos) q.whereIn(`${alias}.std_ctg_no`, f.stdCtgNos);
}

/** The goods that meet the attribute conditions now; at most `limit + 1`. */
export async function goodsMatching(knex: Knex, f: GoodsAttributes, limit: number): Promise<string[]> {
  const q = knex('goods as g')
    .select('g.goods_no')
    .limit(limit + 1);
  whereGoods(q, 'g', f);
  return ((await q) as { goods_no: string }[]).map((r) => r.goods_no);
}

/** Restrict dimension rollup rows `a` to one dimension and its values, and the site. */
function filterRollup(q: Knex.QueryBuilder, dim: RollupDim, siteNo: string | undefined): void {
  q.where('a.dim_cd', dim.dimCd);
  if ('values' in dim) q.whereIn('a.dim_val', dim.values);
  else q.where('a.dim_val', '');
  if (siteNo) q.where('a.site_no', siteNo);
}

/**
 * Raw order-status events of one agrtGb summed per bucket over the day ranges. Through goods
 * attributes, `goodsFirst` reads the matching goods and then each one's events from the covering
 * `idx_evt_goods_dtm`; otherwise the hourly report (at most two days) reads the range's events
 * first, by the covering `(agrt_gb_cd, evt_dtm, …)` index, each joining its goods by key.
 */
export function sumRawEvents(knex: Knex, agrtGb: AgrtGb, f: RawFilter, ranges: readonly DayRange[], grain: Grain): Knex.QueryBuilder {
  const q = knex
    .select(knex.raw(`${rawBucket(grain, 'e.evt_dtm')} AS bucket`), knex.raw(EVENT_MEASURES))
    .where('e.agrt_gb_cd', agrtGb)
    .groupBy('bucket');
  whereInRanges(q, 'e.evt_dtm', ranges, true);
  if (f.through && f.goodsFirst) {
    q.from('goods as g').joinRaw('STRAIGHT_JOIN ord_stat_evt AS e FORCE INDEX (idx_evt_goods_dtm) ON e.goods_no = g.goods_no');
    whereGoods(q, 'g', f.through);
    if (f.siteNo) q.where('e.site_no', f.siteNo);
    return q;
  }
  q.from('ord_stat_evt as e');
  filterRows(q, 'e', f, grain === 'hour');
  return q;
}

/**
 * The rollup table of each grain, and its date column; a monthly row sums every built day of its
 * month. The hour grain has a table per site (`all`) and one per hourly goods dimension. The
 * dimension tables have every-site copies (`allSites`), read without a site condition: one row
 * per value and day instead of one per site (a category's 31 days of events: ~9,400 -> ~3,100 rows).
 */
type RollupTable = readonly [table: string, dateColumn: 'agrt_dt' | 'agrt_mon'];
interface RollupTables {
  hour: RollupTable;
  hourDim: RollupTable;
  day: RollupTable;
  month: RollupTable;
  allSites: { hourDim: RollupTable; day: RollupTable; month: RollupTable };
}
const EVENT_ROLLUP: RollupTables = {
  hour: [PERIOD_ROLLUPS.siteHourly, 'agrt_dt'],
  hourDim: [PERIOD_ROLLUPS.dimHourly, 'agrt_dt'],
  day: [PERIOD_ROLLUPS.dimDaily, 'agrt_dt'],
  month: [PERIOD_ROLLUPS.dimMonthly, 'agrt_mon'],
  allSites: {
    hourDim: [PERIOD_ROLLUPS.dimHourlyAll, 'agrt_dt'],
    day: [PERIOD_ROLLUPS.dimDailyAll, 'agrt_dt'],
    month: [PERIOD_ROLLUPS.dimMonthlyAll, 'agrt_mon'],
  },
};
const VIEW_ROLLUP: RollupTables = {
  hour: [INFLOW_AGGREGATES.siteHourly, 'agrt_dt'],
  hourDim: [INFLOW_AGGREGATES.dimHourly, 'agrt_dt'],
  day: [INFLOW_AGGREGATES.dimDaily, 'agrt_dt'],
  month: [INFLOW_AGGREGATES.dimMonthly, 'agrt_mon'],
  allSites: {
    hourDim: [INFLOW_AGGREGATES.dimHourlyAll, 'agrt_dt'],
    day: [INFLOW_AGGREGATES.dimDailyAll, 'agrt_dt'],
    month: [INFLOW_AGGREGATES.dimMonthlyAll, 'agrt_mon'],
  },
};

/**
 * The rows of a rollup over `ranges`, grouped per bucket of `grain`, for `dim` and the site.
 * The hourly dimension tables are keyed (day, …, value, hour, site) with no index led by the
 * value: their one or two days go as equalities, so the server reads one key range per (day,
 * value) instead of every row of the days. The hourly site tables have no dimension columns.
 */
function rollupRead(
  knex: Knex,
  tables: RollupTables,
  dim: RollupDim,
  siteNo: string | undefined,
  ranges: readonly DayRange[],
  grain: Grain,
): Knex.QueryBuilder {
  const hourDim = grain === 'hour' && 'values' in dim;
  const shape = hourDim ? 'hourDim' : grain;
  const [table, dateColumn] = !siteNo && shape !== 'hour' ? tables.allSites[shape] : tables[shape];
  const bucket = grain === 'month' ? `DATE_FORMAT(a.${dateColumn}, '%Y%m')` : rollupBucket(grain, 'a');
  const q = knex
    .select(knex.raw(`${bucket} AS bucket`))
    .from(`${table} as a`)
    .groupBy(bucketColumns(grain, 'a', dateColumn));
  if (grain === 'hour' && !hourDim) {
    if (siteNo) q.where('a.site_no', siteNo);
  } else filterRollup(q, dim, siteNo);
  if (hourDim)
    q.whereIn(
      `a.${dateColumn}`,
      ranges.flatMap((r) => eachDay(r.fromDay, addDays(r.toDay, -1))),
    );
  else whereInRanges(q, `a.${dateColumn}`, ranges, false);
  return q;
}

/**
 * The `period` rollups: per hour and site, or per hour and hourly dimension, or per dimension and
 * day over `ranges` of built days; per dimension and month over `ranges` of whole months (which
 * hold exactly the built days of each month).
 */
export function sumEventRollup(
  knex: Knex,
  agrtGb: AgrtGb,
  dim: RollupDim,
  siteNo: string | undefined,
  ranges: readonly DayRange[],
  grain: Grain,
): Knex.QueryBuilder {
  return rollupRead(knex, EVENT_ROLLUP, dim, siteNo, ranges, grain)
    .select(knex.raw(measureSums('a')))
    .where('a.agrt_gb_cd', agrtGb);
}

/** Longest range whose page views through goods attributes are read day by day (see sumRawViews). */
const VIEW_DAYS_MAX = 62;

/**
 * Page views of the goods-level hourly inflow aggregate. Through a goods list, by its goods-led
 * index: one range per goods over the days. Through goods attributes, day by day: the matching
 * goods first, then each goods' rows of each day by the same index, with the day an equality
 * from a derived table of days (joined on the goods alone, the server reads every day of each
 * goods; over the date it reads every goods of the days). The order is fixed: left to choose,
 * the server read the days first by the primary key, every goods of them (full scale, a top
 * category of 2,103 goods over two days: 200-250 ms alone, against ~40 ms goods first).
 */
export function sumRawViews(knex: Knex, f: RawFilter, range: DayRange, grain: Grain): Knex.QueryBuilder {
  const bucket = knex.raw(`${rollupBucket(grain, 'i')} AS bucket`);
  // A month of daily rows is one bucket: grouped by its formatted month.
  const q = knex.select(bucket, knex.raw('SUM(i.inf_cnt) AS infCnt')).groupBy(grain === 'month' ? ['bucket'] : bucketColumns(grain, 'i'));
  const days = eachDay(range.fromDay, addDays(range.toDay, -1));
  if (f.through && days.length <= VIEW_DAYS_MAX) {
    const dayTable = days.map(() => 'SELECT CAST(? AS DATE) AS d').join(' UNION ALL ');
    q.from('goods as g')
      .joinRaw(`STRAIGHT_JOIN (${dayTable}) AS dd`, days)
      .joinRaw(
        `STRAIGHT_JOIN ${INFLOW_AGGREGATES.goodsHourly} AS i FORCE INDEX (idx_agg_inflow_goods) ON i.goods_no = g.goods_no AND i.agrt_dt = dd.d`,
      );
    whereGoods(q, 'g', f.through);
    if (f.siteNo) q.where('i.site_no', f.siteNo);
    return q;
  }
  const views = INFLOW_AGGREGATES.goodsHourly;
  q.from(f.goodsNos ? knex.raw(`${views} AS i FORCE INDEX (idx_agg_inflow_goods)`) : `${views} as i`)
    .where('i.agrt_dt', '>=', range.fromDay)
    .where('i.agrt_dt', '<', range.toDay);
  filterRows(q, 'i', f);
  return q;
}

/** Page views of the inflow rollups over `range` (whole months for `month`): per hour and site or hourly dimension, or per dimension and day or month. */
export function sumViewRollup(knex: Knex, dim: RollupDim, siteNo: string | undefined, range: DayRange, grain: Grain): Knex.QueryBuilder {
  return rollupRead(knex, VIEW_ROLLUP, dim, siteNo, [range], grain).select(knex.raw('SUM(a.inf_cnt) AS infCnt'));
}

/**
 * Goods the rollups file differently from what the condition means now: carrying one of the
 * values now but not filed under one — filed elsewhere, or not in the snapshot at all, so under
 * `all` only — (`in`), and filed under one of the values (the goods snapshot) but no longer carrying
 * one, or no longer in `goods` (`out`). Each side is one read of an attribute index (which holds
 * the goods number); the difference is taken here. Undefined when either side has more than
 * `limit` goods the other lacks.
 */
export async function movedGoods(
  knex: Knex,
  dim: Extract<RollupDim, { values: readonly string[] }>,
  limit: number,
): Promise<{ in: string[]; out: string[] } | undefined> {
  const side = (table: string) => knex(table).pluck('goods_no').whereIn(dim.column, dim.values) as unknown as Promise<string[]>;
  const [now, filed] = await Promise.all([side('goods'), side(GOODS_DIM_SNAPSHOT)]);
  const [nowSet, filedSet] = [new Set(now), new Set(filed)];
  const moved = { in: now.filter((g) => !filedSet.has(g)), out: filed.filter((g) => !nowSet.has(g)) };
  return moved.in.length > limit || moved.out.length > limit ? undefined : moved;
}
