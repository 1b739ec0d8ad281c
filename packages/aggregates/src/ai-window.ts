import { addDays, selectRows, type Db } from '@bo/db';
import { BUILD_TABLES } from './tables.ts';

/** The AI list's demand window: the `days` whole days before `toDay` (today, platform zone). */
export interface AiWindow {
  toDay: string;
  days: number;
}

/** The aggregate kinds the AI list's demand is summed from. */
export const AI_WINDOW_KINDS = ['inflow', 'goods'] as const;

/**
 * What the worker last built for the days of the window, per kind (inflow, goods), as one
 * string: how many (day[, hour]) builds, the latest build instant, the sum of their source marks
 * and the sum of their build instants (in ms). Every build or rebuild rewrites its
 * `agg_built_day` row in the transaction that writes its aggregate rows, so the string changes
 * whenever the window's sums can change — the last sum even when the rebuilt day's instant is
 * not the window's latest (two builds committing out of order, a clock set back). The worker
 * stores it with the sums it read in the same snapshot; the back-office reads those sums only
 * while the string it computes now is the same. Formatted by the database, so no sum is rounded.
 */
export async function aiWindowBuildVersion(db: Db, w: AiWindow): Promise<string> {
  const rows = await selectRows<{ kind: string; ver: string }>(
    db,
    `SELECT kind, CONCAT(COUNT(*), '.', DATE_FORMAT(MAX(built_dtm), '%Y%m%d%H%i%s%f'), '.', SUM(built_max_no), '.',
       SUM(TO_SECONDS(built_dtm) * 1000 + MICROSECOND(built_dtm) DIV 1000)) AS ver
     FROM ${BUILD_TABLES.builtDay} WHERE kind IN (?, ?) AND agrt_dt >= ? AND agrt_dt < ? GROUP BY kind`,
    [...AI_WINDOW_KINDS, addDays(w.toDay, -w.days), w.toDay],
  );
  return AI_WINDOW_KINDS.map((kind) => `${kind}:${rows.find((r) => r.kind === kind)?.ver ?? '0'}`).join('|');
}
