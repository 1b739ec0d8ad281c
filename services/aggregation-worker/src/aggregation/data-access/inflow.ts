import { execute, selectRows, type Db } from '@bo/db';
import { INFLOW_AGGREGATES } from '@bo/aggregates';
import type { TimeRange } from '../model.ts';
import type { LogNoSpan } from './source-marks.ts';

/** The SQL of the goods-level inflow aggregate: page views per (day, hour, site, goods) from `goods_inflow_log`. */

export async function deleteInflowRows(db: Db, day: string, hour?: number): Promise<void> {
  const q = db(INFLOW_AGGREGATES.goodsHourly).where({ agrt_dt: day });
  if (hour !== undefined) q.andWhere({ agrt_hour: hour });
  await q.delete();
}

/**
 * Logs are numbered as they arrive, so one day's logs are a near-contiguous run of numbers: read
 * by the primary key over that run (the time condition still decides), a day is one sequential
 * read instead of ~90 k time-index entries each fetching its row (0.21 → 0.08 s a day at full
 * scale). Only while the run is at most twice the day's logs: a day whose logs were loaded late,
 * between other days' logs, keeps the time index.
 */
const MAX_SPAN_PER_LOG = 2;

const readsByNumber = (span: LogNoSpan): boolean => span.count > 0 && span.max - span.min + 1 <= MAX_SPAN_PER_LOG * span.count;

/**
 * Page views per (hour, site, goods) over `[from, to)`, which lies inside `day`; `span` is the
 * range's log numbers (`inflowLogMarks`), read in the same transaction. Written in goods order:
 * the table's goods index (`idx_agg_inflow_goods`, goods first) spreads a day's ~60 k rows over
 * ~20 k of its pages, which rows in that order visit once each, in order, instead of at random
 * (full scale, one day, medians of 9 replays in four sittings: 0.65–0.81 → 0.46–0.65 s). Not in
 * the grouping's order, MariaDB's default, which sorted for nothing. (The day's DELETE in goods
 * order: no clear gain, so not taken.)
 */
export async function insertInflowRows(db: Db, day: string, [from, to]: TimeRange, span: LogNoSpan): Promise<number> {
  const byNumber = readsByNumber(span);
  const result = await execute(
    db,
    `INSERT INTO ${INFLOW_AGGREGATES.goodsHourly} (agrt_dt, agrt_hour, site_no, goods_no, inf_cnt)
     SELECT ?, HOUR(l.inflow_dtm), l.site_no, l.goods_no, COUNT(*)
     FROM goods_inflow_log l${byNumber ? ' FORCE INDEX (PRIMARY)' : ''}
     WHERE ${byNumber ? 'l.log_no BETWEEN ? AND ? AND ' : ''}l.inflow_dtm >= ? AND l.inflow_dtm < ?
     GROUP BY HOUR(l.inflow_dtm), l.site_no, l.goods_no ORDER BY l.goods_no`,
    [day, ...(byNumber ? [span.min, span.max] : []), from, to],
  );
  return result.affectedRows;
}

/** Aggregate rows per hour of one day, for the per-hour build records. */
export async function inflowRowsPerHour(db: Db, day: string): Promise<Map<number, number>> {
  const rows: { h: number; n: number }[] = await db(INFLOW_AGGREGATES.goodsHourly)
    .select({ h: 'agrt_hour' })
    .count({ n: '*' })
    .where({ agrt_dt: day })
    .groupBy('agrt_hour');
  return new Map(rows.map((r) => [Number(r.h), Number(r.n)]));
}

/** Page views the aggregate holds per (day, hour) of `days`. */
export async function aggregatedInflowPerHour(db: Db, days: string[]): Promise<Map<string, number>> {
  if (!days.length) return new Map();
  const rows: { d: string; h: number; n: number }[] = await db(INFLOW_AGGREGATES.goodsHourly)
    .select({ d: 'agrt_dt', h: 'agrt_hour' })
    .sum({ n: 'inf_cnt' })
    .whereIn('agrt_dt', days)
    .groupBy('agrt_dt', 'agrt_hour');
  return new Map(rows.map((r) => [`${r.d}|${Number(r.h)}`, Number(r.n)]));
}

/**
 * Hours of a built day whose aggregate rows differ from a recomputation from the log, key by
 * key (hour, site, goods, count): the rows that appear on one side only.
 */
export async function inflowHoursDiffering(db: Db, day: string, [from, to]: TimeRange): Promise<number[]> {
  const rows = await selectRows<{ h: number }>(
    db,
    `SELECT DISTINCT u.agrt_hour AS h FROM (
       SELECT agrt_hour, site_no, goods_no, inf_cnt FROM ${INFLOW_AGGREGATES.goodsHourly} WHERE agrt_dt = ?
       UNION ALL
       SELECT HOUR(l.inflow_dtm), l.site_no, l.goods_no, COUNT(*) FROM goods_inflow_log l
        WHERE l.inflow_dtm >= ? AND l.inflow_dtm < ? GROUP BY HOUR(l.inflow_dtm), l.site_no, l.goods_no
     ) u GROUP BY u.agrt_hour, u.site_no, u.goods_no, u.inf_cnt HAVING COUNT(*) = 1 ORDER BY h`,
    [day, from, to],
  );
  return rows.map((r) => Number(r.h));
}
