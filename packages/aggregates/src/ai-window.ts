import { Type } from '@sinclair/typebox';
import { addDays, selectRows, type Db } from '@bo/db';
import { BUILD_VERSION_SQL } from './build-version.ts';
import { AI_WINDOW_TABLES, BUILD_TABLES } from './tables.ts';

/** The AI list's demand window: the `days` whole days before `toDay` (today, platform zone). */
export interface AiWindow {
  toDay: string;
  days: number;
}

/**
 * AI_LIST_WINDOW_DAYS, read by the back-office (the list's window) and the worker (the window
 * whose sums it keeps): one schema, so both default to and mean the same window.
 */
export const AI_LIST_WINDOW_DAYS_DEFAULT = 30;
export const AI_LIST_WINDOW_DAYS_SCHEMA = Type.Integer({
  minimum: 1,
  maximum: 365,
  default: AI_LIST_WINDOW_DAYS_DEFAULT,
  description: 'window of inflow, orders and reviews in the AI list: the last N whole days before today (demand read from the aggregates)',
});

/** The aggregate kinds the AI list's demand is summed from. */
export const AI_WINDOW_KINDS = ['inflow', 'goods'] as const;

/**
 * What the worker last built for the days of the window, per kind (inflow, goods), as one
 * string (`BUILD_VERSION_SQL` per kind). The worker stores it with the sums it read in the same
 * snapshot; the back-office reads those sums only while the string it computes now is the same.
 */
export async function aiWindowBuildVersion(db: Db, w: AiWindow): Promise<string> {
  const rows = await selectRows<{ kind: string; ver: string }>(
    db,
    `SELECT kind, ${BUILD_VERSION_SQL} AS ver
     FROM ${BUILD_TABLES.builtDay} WHERE kind IN (?, ?) AND agrt_dt >= ? AND agrt_dt < ? GROUP BY kind`,
    [...AI_WINDOW_KINDS, addDays(w.toDay, -w.days), w.toDay],
  );
  return AI_WINDOW_KINDS.map((kind) => `${kind}:${rows.find((r) => r.kind === kind)?.ver ?? '0'}`).join('|');
}

/** The build version the worker stored with the window's sums; undefined when it has none. */
export async function storedAiWindowVersion(db: Db, w: AiWindow): Promise<string | undefined> {
  const row = await db(AI_WINDOW_TABLES.version)
    .where({ to_dt: w.toDay, days: w.days })
    .first<{ build_ver: string } | undefined>('build_ver');
  return row?.build_ver;
}

/**
 * Whether the worker's stored sums of the window were read from exactly the builds the window
 * has now (their stored version equals the one computed from `agg_built_day`).
 */
export async function aiWindowSumsCurrent(db: Db, w: AiWindow): Promise<boolean> {
  const stored = await storedAiWindowVersion(db, w);
  return stored !== undefined && stored === (await aiWindowBuildVersion(db, w));
}
