import type { AgrtGb } from '@bo/contracts';
import type { Measures } from '@bo/aggregates';

/** The statistics component's shapes: ranges, filters, the sums the database returns, the report queries. */

export type { Measures };

/** `[fromDay, toDay)` in `yyyy-MM-dd`. */
export interface DayRange {
  fromDay: string;
  toDay: string;
}

export type Grain = 'day' | 'month' | 'hour';

/** The buckets of a period, oldest first, and the day range they cover. */
export interface Period {
  grain: 'day' | 'month';
  /** `yyyyMMdd` (day) or `yyyyMM` (month): the bucket keys and the row labels. */
  labels: string[];
  range: DayRange;
}

export interface PeriodConditions {
  calendarType: 'date' | 'month';
  startDate?: string | undefined;
  endDate?: string | undefined;
  startMonth?: string | undefined;
  endMonth?: string | undefined;
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

/** The six sums of one bucket (`yyyyMMdd`, `yyyyMM` or `yyyyMMddHH`). */
export type BucketMeasures = Measures & { bucket: string };
export type BucketViews = { bucket: string; infCnt: number };

/** One bucket of the period and hourly reports: the event sums and the inflow count of the same bucket. */
export interface EventBucket {
  key: string;
  measures: Measures;
  infCnt: number;
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

/** One agrtGb over a day range of a list aggregate, optionally one site. */
export interface DailyScope {
  agrtGb: AgrtGb;
  range: DayRange;
  siteNo?: string | undefined;
}

/**
 * A grouped read: awaited, the whole list; `.stream()`ed, one row at a time with the socket paused
 * while the consumer is busy, so an Excel download of any length never holds the list in memory.
 */
export type RowQuery<T> = PromiseLike<T[]> & { stream(): AsyncIterable<T> };

export type CategoryTotals = Measures & { stdCtgNo: string; mdId: string; stdCtgNm: string | null; mdNm: string | null };
export type PayWayTotals = Measures & { payWayCd: string; payWayNm: string | null };
export type GoodsTotals = Measures & {
  goodsNo: string;
  entrNo: string;
  goodsNm: string | null;
  imgPath: string | null;
  entrNm: string | null;
};
export type EnterpriseTotals = Measures & { entrNo: string; entrNm: string | null };

/** The report queries, as the routes hand them over (the supplier scope already applied). */
export type PeriodReportQuery = PeriodConditions & SiteGoodsFilter & { agrtGb: AgrtGb };
export type HourlyReportQuery = SiteGoodsFilter & { targetDate: string; agrtGb: AgrtGb };

interface ListReportQuery {
  startDate: string;
  endDate: string;
  agrtGb: AgrtGb;
  siteNo?: string | undefined;
}
export type CategoryReportQuery = ListReportQuery & { stdCtgNo?: string | undefined; mdId?: string | undefined };
export type PayWayReportQuery = ListReportQuery & { payWayCd?: string | undefined };
export type GoodsReportQuery = ListReportQuery & { goodsNo?: string | undefined; entrNo?: string | undefined };
export type EnterpriseReportQuery = ListReportQuery & { entrNo?: string | undefined };
