import { execute, type Db } from '@bo/db';
import { INFLOW_AGGREGATES } from '@bo/aggregates';
import type { TimeRange } from '../model.ts';

/** The SQL of the goods-level inflow aggregate: page views per (day, hour, site, goods) from `goods_inflow_log`. */

export async function deleteInflowRows(db: Db, day: string, hour?: number): Promise<void> {
  const q = db(INFLOW_AGGREGATES.goodsHourly).where({ agrt_dt: day });
  if (hour !== undefined) q.andWhere({ agrt_hour: hour });
  await q.delete();
}

/** Page views per (hour, site, goods) over `[from, to)`, which lies inside `day`. */
export async function insertInflowRows(db: Db, day: string, [from, to]: TimeRange): Promise<number> {
  const result = await execute(
    db,
    `INSERT INTO ${INFLOW_AGGREGATES.goodsHourly} (agrt_dt, agrt_hour, site_no, goods_no, inf_cnt)
     SELECT ?, HOUR(l.inflow_dtm), l.site_no, l.goods_no, COUNT(*)
     FROM goods_inflow_log l
     WHERE l.inflow_dtm >= ? AND l.inflow_dtm < ?
     GROUP BY HOUR(l.inflow_dtm), l.site_no, l.goods_no`,
    [day, from, to],
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
