import type { Db } from '@bo/db';
import type { Source, TimeRange, TouchedBucket } from '../model.ts';

/**
 * Row numbers of the sources (`ord_stat_evt.evt_no`, `goods_inflow_log.log_no`): what a build
 * has seen at least, and which days or hours rows numbered past a mark fall on. Also the
 * re-count of recent hours, which catches rows whose number was taken before the mark passed
 * it but whose transaction committed after (numbers are handed out at insert, not at commit).
 * Every read here is a range on the time index (`idx_inflow_dtm`, `idx_evt_dtm`) or on the
 * number, so it stays indexed whether the primary key is the number alone or (number, time).
 */

const NUMBER_COLUMN: Record<Source, string> = { ord_stat_evt: 'evt_no', goods_inflow_log: 'log_no' };

/** Highest event number inside a range: what a build of that range has seen at least. */
export async function maxEventNoIn(db: Db, [from, to]: TimeRange): Promise<number> {
  const row = await db('ord_stat_evt').where('evt_dtm', '>=', from).andWhere('evt_dtm', '<', to).max({ n: 'evt_no' }).first();
  return Number(row?.n ?? 0);
}

/** The log numbers of one range: the highest per hour (hours without logs are absent), and their span. */
export interface InflowLogMarks {
  maxPerHour: Map<number, number>;
  span: LogNoSpan;
}

/** Lowest and highest log number of a range, and how many logs it holds. */
export interface LogNoSpan {
  min: number;
  max: number;
  count: number;
}

/** One pass over the range's time index for both (the span lets the build read the logs by number). */
export async function inflowLogMarks(db: Db, [from, to]: TimeRange): Promise<InflowLogMarks> {
  const rows: { h: number; lo: number; hi: number; n: number }[] = await db('goods_inflow_log')
    .select(db.raw('HOUR(inflow_dtm) AS h'))
    .min({ lo: 'log_no' })
    .max({ hi: 'log_no' })
    .count({ n: '*' })
    .where('inflow_dtm', '>=', from)
    .andWhere('inflow_dtm', '<', to)
    .groupByRaw('HOUR(inflow_dtm)');
  const span: LogNoSpan = { min: Number.POSITIVE_INFINITY, max: 0, count: 0 };
  for (const r of rows) {
    span.min = Math.min(span.min, Number(r.lo));
    span.max = Math.max(span.max, Number(r.hi));
    span.count += Number(r.n);
  }
  if (!span.count) span.min = 0;
  return { maxPerHour: new Map(rows.map((r) => [Number(r.h), Number(r.hi)])), span };
}

export async function maxSourceNo(db: Db, source: Source): Promise<number> {
  const row = await db(source).max({ n: NUMBER_COLUMN[source] }).first();
  return Number(row?.n ?? 0);
}

/** Days of the events numbered in `(fromNo, toNo]`. */
export async function eventDaysBetween(db: Db, fromNo: number, toNo: number): Promise<TouchedBucket[]> {
  const rows: { d: string; n: number }[] = await db('ord_stat_evt')
    .select(db.raw("DATE_FORMAT(evt_dtm, '%Y-%m-%d') AS d"))
    .max({ n: 'evt_no' })
    .where('evt_no', '>', fromNo)
    .andWhere('evt_no', '<=', toNo)
    .groupBy('d');
  return rows.map((r) => ({ day: r.d, hour: -1, maxNo: Number(r.n) }));
}

/** Hours of the inflow logs numbered in `(fromNo, toNo]`. */
export async function inflowHoursBetween(db: Db, fromNo: number, toNo: number): Promise<TouchedBucket[]> {
  const rows: { d: string; h: number; n: number }[] = await db('goods_inflow_log')
    .select(db.raw("DATE_FORMAT(inflow_dtm, '%Y-%m-%d') AS d"), db.raw('HOUR(inflow_dtm) AS h'))
    .max({ n: 'log_no' })
    .where('log_no', '>', fromNo)
    .andWhere('log_no', '<=', toNo)
    .groupBy('d', 'h');
  return rows.map((r) => ({ day: r.d, hour: Number(r.h), maxNo: Number(r.n) }));
}

/** Page views per (day, hour) of `[from, to)` straight from the log. */
export async function inflowCountsPerHour(db: Db, [from, to]: TimeRange): Promise<Map<string, number>> {
  const rows: { d: string; h: number; n: number }[] = await db('goods_inflow_log')
    .select(db.raw("DATE_FORMAT(inflow_dtm, '%Y-%m-%d') AS d"), db.raw('HOUR(inflow_dtm) AS h'))
    .count({ n: '*' })
    .where('inflow_dtm', '>=', from)
    .andWhere('inflow_dtm', '<', to)
    .groupBy('d', 'h');
  return new Map(rows.map((r) => [`${r.d}|${Number(r.h)}`, Number(r.n)]));
}
