import type { AggregateKind } from '@bo/contracts';
import type { MeasureColumn } from '@bo/aggregates';

/** The aggregation component's shapes: what is built, what was built, what the checks compare. */

/** `[from, to)` of local DATETIME text (`yyyy-MM-dd HH:mm:ss`). */
export type TimeRange = [from: string, to: string];

/** Consecutive days of one month, `first` to `last` included, that one build replaces (one day: `first === last`). */
export interface DaySpan {
  first: string;
  last: string;
}

/**
 * One unit of work: a (kind, day) of an aggregate, one (day, hour) of the inflow aggregate, or
 * the days `day`..`toDay` of one month of a kind, replaced in one job (a rerun of a range).
 */
export interface BuildTarget {
  kind: AggregateKind;
  day: string;
  toDay?: string;
  hour?: number;
}

export const describeTarget = (t: BuildTarget): string =>
  `${t.kind} ${t.day}${t.toDay !== undefined ? `..${t.toDay}` : ''}${t.hour !== undefined ? ` ${String(t.hour).padStart(2, '0')}h` : ''}`;

/** What a (kind, day[, hour]) was last built from: the highest source row number it had seen. */
export interface BuiltDay {
  kind: AggregateKind;
  day: string;
  /** -1 for the daily kinds. */
  hour: number;
  builtMaxNo: number;
}

export interface BuiltDayRecord extends BuiltDay {
  rows: number;
  builtAt: string;
}

export interface RunLogStart {
  kind: AggregateKind;
  day: string;
  toDay?: string;
  hour?: number;
  requestedBy: string;
  jobId?: string;
  startedAt: string;
}

/** The sources late-data detection follows by row number. */
export type Source = 'ord_stat_evt' | 'goods_inflow_log';

/** Days (and, for inflow, hours) of source rows in a number range, with their highest number. */
export interface TouchedBucket {
  day: string;
  hour: number;
  maxNo: number;
}

/** The six sums of one agrtGb, as the reconciliation compares them. */
export type Totals = { agrt_gb_cd: string } & Record<MeasureColumn, number>;

/** Totals of one agrtGb and one part of the `period` rollups: `hourly` (per site and hour) or a goods dimension. */
export type PartTotals = Totals & { part: string };
