import type { AggregateKind } from '@bo/contracts';

/**
 * The aggregate tables the worker writes and the back-office reads (created by ./migrations;
 * test/schema.test.ts holds this description against the migrated schema). SQL on either side
 * names tables, key columns and goods dimensions through these constants.
 */

/** The four list aggregates: one row per (agrtGb, day, site, keys), and per month in the roll-up. */
export type ListKind = Exclude<AggregateKind, 'inflow' | 'period'>;

export interface ListAggregate {
  daily: string;
  /** Sums of the daily rows of each month with the same (agrtGb, site, keys), and their `day_cnt`. */
  monthly: string;
  /** Key columns after (agrt_gb_cd, agrt_dt | agrt_mon, site_no). */
  keys: readonly string[];
  /**
   * Attributes of the key recorded as they were on the day; the monthly roll-up keys on them too
   * (a goods that changed supplier mid-month has a row per supplier).
   */
  attributes: readonly string[];
  /**
   * The same daily and monthly rows with every site together (no `site_no`; keyed on the keys
   * and the attributes): what a list without a site condition reads. The day build writes them
   * from its per-site rows in the same transaction. The goods list has none: a goods mostly
   * sells on one site a day, so they saved little (1.07–1.35× alone) and cost 44 % of its build.
   */
  allSites?: { daily: string; monthly: string };
  /**
   * Every site together, per (agrtGb, ten days, keys, attributes): the sums and `day_cnt` (daily
   * rows) of the days 1–10, 11–20 or 21 to the month's end, keyed by the first of them
   * (`agrt_tdy`). They sum the every-site daily rows where the list has them, else the per-site
   * rows. The day build keeps them equal to the daily rows in the same transaction, as the
   * monthly rows. A 31-day list read the part of the month before from daily rows (21 days on
   * the 10th); with these, at most nine days and two ten-day rows per key. The category and goods
   * lists have them (the payment-method and supplier lists read a few hundred rows a day).
   */
  tenDays?: string;
  /**
   * Running sums of the monthly rows of every site: per (agrtGb, month, keys, attributes) the sums
   * and `day_cnt` (daily rows) of every month up to and including it, for every key seen by then,
   * month after month from the first month with rows to the last, none skipped. A range of whole
   * months is then two rows per key (through its last month minus through the month before it)
   * instead of one per month. They sum the every-site rows where the list has them, else the
   * per-site rows. A day build marks its month in `RUNNING_SUMS_STALE` and the worker writes them
   * again from that month on once its queue is idle; the lists read the monthly rows meanwhile.
   * The category and goods lists have them: their 12-month reads grouped ~9,000 and ~230,000 rows
   * (the payment-method and supplier lists read a few hundred).
   */
  cumulative?: string;
  /**
   * The same running sums by day: per (agrtGb, day, keys, attributes) the sums and `day_cnt` of
   * every every-site daily row up to and including the day, every day from the first with rows to
   * the last, every key seen by then present. Any range without a site condition is then two rows
   * per key (through its last day minus through the day before its first) instead of a month's,
   * ten days' and single days' rows grouped: the 31-day category list 20.7 -> 6.7 ms alone at full
   * scale. Refreshed with the monthly ones, from the first day of the month marked stale. The
   * category list has them (~820 keys, 0.6 M rows a year); the goods list's would be 15 M.
   */
  runningDays?: string;
}

const allSites = (table: string) => ({ daily: `agg_${table}_daily_all`, monthly: `agg_${table}_monthly_all` });

export const LIST_AGGREGATES: Record<ListKind, ListAggregate> = {
  category: {
    daily: 'agg_ctg_daily',
    monthly: 'agg_ctg_monthly',
    keys: ['std_ctg_no', 'md_id'],
    attributes: [],
    allSites: allSites('ctg'),
    tenDays: 'agg_ctg_tenday_all',
    cumulative: 'agg_ctg_cum_all',
    runningDays: 'agg_ctg_cum_day_all',
  },
  payway: { daily: 'agg_payway_daily', monthly: 'agg_payway_monthly', keys: ['pay_way_cd'], attributes: [], allSites: allSites('payway') },
  goods: {
    daily: 'agg_goods_daily',
    monthly: 'agg_goods_monthly',
    keys: ['goods_no'],
    attributes: ['entr_no'],
    tenDays: 'agg_goods_tenday_all',
    cumulative: 'agg_goods_cum_all',
  },
  entr: { daily: 'agg_entr_daily', monthly: 'agg_entr_monthly', keys: ['entr_no'], attributes: [], allSites: allSites('entr') },
};

/**
 * Per list (`kind`), the first month (`from_mon`) whose running sums may lag its monthly rows: no
 * row, all are current. Written in each day build's transaction, cleared by the refresh that
 * writes them again, read by the lists in the same statement as the sums.
 */
export const RUNNING_SUMS_STALE = 'agg_cum_stale';

export const LIST_KINDS = Object.keys(LIST_AGGREGATES) as ListKind[];

/**
 * The daily and monthly rows a sum over every site reads: the every-site ones where the list has
 * them, else the per-site ones (summed over sites). The worker's every-site roll-ups and the
 * lists without a site condition both choose through this.
 */
export function everySiteTables(kind: ListKind): { daily: string; monthly: string } {
  // The two names only: callers spread the result (the running sums' table description).
  const { allSites, daily, monthly } = LIST_AGGREGATES[kind];
  return allSites ?? { daily, monthly };
}

/**
 * Kind `period`: the event rollups of the period and hourly reports, per (agrtGb, day, hour,
 * site), per (agrtGb, goods dimension, value, day | month, site), and per (agrtGb, hourly goods
 * dimension, value, day, hour, site); the dimension rollups again summed over every site
 * (`…All`, no site column), which the reports without a site condition read.
 */
export const PERIOD_ROLLUPS = {
  siteHourly: 'agg_site_hourly',
  dimDaily: 'agg_dim_daily',
  dimMonthly: 'agg_dim_monthly',
  dimHourly: 'agg_dim_hourly',
  dimDailyAll: 'agg_dim_daily_all',
  dimMonthlyAll: 'agg_dim_monthly_all',
  dimHourlyAll: 'agg_dim_hourly_all',
} as const;

/**
 * Kind `inflow`: page views per (day, hour, site, goods), and the rollups every inflow build
 * keeps equal to it (per hour and site; per goods dimension and day | month; per hourly goods
 * dimension, day and hour; the dimension ones again over every site, `…All`).
 */
export const INFLOW_AGGREGATES = {
  goodsHourly: 'agg_inflow_hourly',
  siteHourly: 'agg_inflow_site_hourly',
  dimDaily: 'agg_inflow_dim_daily',
  dimMonthly: 'agg_inflow_dim_monthly',
  dimHourly: 'agg_inflow_dim_hourly',
  dimDailyAll: 'agg_inflow_dim_daily_all',
  dimMonthlyAll: 'agg_inflow_dim_monthly_all',
  dimHourlyAll: 'agg_inflow_dim_hourly_all',
} as const;

/**
 * Every table the builds write aggregate rows into: the lists' daily, monthly, every-site,
 * ten-day and running-sum tables, the period rollups and the inflow aggregates (not the worker's
 * book-keeping, the goods snapshot or the AI window).
 */
export const AGGREGATE_TABLES: readonly string[] = [
  ...Object.values(LIST_AGGREGATES).flatMap((a) => [
    a.daily,
    a.monthly,
    ...(a.allSites ? [a.allSites.daily, a.allSites.monthly] : []),
    ...(a.tenDays ? [a.tenDays] : []),
    ...(a.cumulative ? [a.cumulative] : []),
    ...(a.runningDays ? [a.runningDays] : []),
  ]),
  ...Object.values(PERIOD_ROLLUPS),
  ...Object.values(INFLOW_AGGREGATES),
];

/** The attributes each goods is filed under in the dimension rollups, as first seen (never updated). */
export const GOODS_DIM_SNAPSHOT = 'agg_goods_dim';

/**
 * The goods attributes the dimension rollups are filed by: `dimCd`, the report filter it serves,
 * and the `goods` column. `ALL_GOODS_DIM` (dim_val '') holds every goods.
 */
export const ALL_GOODS_DIM = 'all';
export const GOODS_DIMENSIONS = [
  { dimCd: 'ctg', filter: 'stdCtgNo', column: 'std_ctg_no' },
  { dimCd: 'entr', filter: 'entrNo', column: 'entr_no' },
  { dimCd: 'brand', filter: 'brandNo', column: 'brand_no' },
  { dimCd: 'md', filter: 'mdId', column: 'md_id' },
] as const;
export type GoodsDimension = (typeof GOODS_DIMENSIONS)[number];

/**
 * The dimensions also filed per hour (`dimHourly` tables), for the hourly report: the category
 * and the MD, each of which matches thousands of goods (a root category or an MD ~10 % of the
 * full-scale catalogue) and has few values. A supplier or brand matches a few hundred goods at
 * most, read goods by goods quickly enough, and has many values: filed per hour, each would add
 * about as many rows a day as there are events.
 */
export const HOURLY_GOODS_DIMENSIONS: readonly GoodsDimension[] = GOODS_DIMENSIONS.filter((d) => d.dimCd === 'ctg' || d.dimCd === 'md');

/** The worker's own book-keeping. */
export const BUILD_TABLES = {
  /** One row per built (kind, day[, hour]): the source high-water mark it was built from. */
  builtDay: 'agg_built_day',
  /** One row per build run: who asked, when, rows, outcome. */
  runLog: 'agg_run_log',
  /** How far late-data detection has read each source. */
  watermark: 'agg_watermark',
  /** Row locks that builds sharing a month (or day) of a rollup take in turn. */
  lock: 'agg_build_lock',
} as const;

/**
 * The AI recommended list's window demand: per (window end `to_dt`, `days`, goods) the page
 * views (`inf_cnt`, from `agg_inflow_hourly`) and net ordered quantity (`net_qty`, report `01`
 * of `agg_goods_daily`) of the days [to_dt − days, to_dt), and per window the build version
 * (`build_ver`, see `aiWindowBuildVersion`) of the days those sums were read from.
 */
export const AI_WINDOW_TABLES = { sums: 'agg_ai_window_sum', version: 'agg_ai_window_ver' } as const;
