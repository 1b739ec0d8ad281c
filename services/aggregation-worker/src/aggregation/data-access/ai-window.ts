import { addDays, selectRows, type Db } from '@bo/db';
import { AI_WINDOW_TABLES, INFLOW_AGGREGATES, LIST_AGGREGATES, type AiWindow } from '@bo/aggregates';

/** The SQL of the AI list's window sums: demand per goods over the window, and the window's build version. */

export interface WindowSum {
  goods_no: string;
  inf_cnt: number;
  net_qty: number;
}

/** Rows per INSERT when the sums are written (a window holds a row per goods with demand). */
const CHUNK = 1000;

/**
 * Page views (`agg_inflow_hourly`) and net ordered quantity (`ord_qty − cncl_qty` of report `01`,
 * `agg_goods_daily`) per goods over [toDay − days, toDay). A plain SELECT: under REPEATABLE READ
 * it reads the transaction's snapshot (an INSERT … SELECT would lock and read the latest rows).
 */
export async function windowSums(db: Db, w: AiWindow): Promise<WindowSum[]> {
  const from = addDays(w.toDay, -w.days);
  const rows = await selectRows<WindowSum>(
    db,
    `SELECT goods_no, SUM(inf) AS inf_cnt, SUM(net) AS net_qty FROM (
       SELECT goods_no, SUM(inf_cnt) AS inf, 0 AS net FROM ${INFLOW_AGGREGATES.goodsHourly}
        WHERE agrt_dt >= ? AND agrt_dt < ? GROUP BY goods_no
       UNION ALL
       SELECT goods_no, 0, SUM(ord_qty - cncl_qty) FROM ${LIST_AGGREGATES.goods.daily}
        WHERE agrt_gb_cd = '01' AND agrt_dt >= ? AND agrt_dt < ? GROUP BY goods_no
     ) x GROUP BY goods_no`,
    [from, w.toDay, from, w.toDay],
  );
  return rows.map((r) => ({ goods_no: r.goods_no, inf_cnt: Number(r.inf_cnt), net_qty: Number(r.net_qty) }));
}

/** Replace the window's sums and version, and drop every window that ended before it. */
export async function replaceWindowSums(db: Db, w: AiWindow, version: string, sums: WindowSum[], builtAt: string): Promise<void> {
  for (const table of [AI_WINDOW_TABLES.sums, AI_WINDOW_TABLES.version]) {
    await db(table).where({ to_dt: w.toDay, days: w.days }).delete();
    await db(table).where('to_dt', '<', w.toDay).delete();
  }
  for (let i = 0; i < sums.length; i += CHUNK) {
    await db(AI_WINDOW_TABLES.sums).insert(sums.slice(i, i + CHUNK).map((s) => ({ to_dt: w.toDay, days: w.days, ...s })));
  }
  await db(AI_WINDOW_TABLES.version).insert({ to_dt: w.toDay, days: w.days, build_ver: version, built_dtm: builtAt });
}
