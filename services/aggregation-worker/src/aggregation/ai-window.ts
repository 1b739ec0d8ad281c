import { addDays, platformNowMillis, platformToday, retryOnLockConflict, type Knex } from '@bo/db';
import { AI_WINDOW_KINDS, aiWindowBuildVersion, storedAiWindowVersion, type AiWindow } from '@bo/aggregates';
import type { AggregateKind } from '@bo/contracts';
import { lockBuild } from './data-access/build-log.ts';
import { replaceWindowSums, windowSums } from './data-access/ai-window.ts';

/**
 * The AI recommended list's demand sums, kept by the worker so the back-office (read-only) does
 * not sum a month of aggregates on every request: per goods, page views and net ordered quantity
 * of the window — the last `days` whole days before today, platform zone — stored with the
 * window's build version (see `aiWindowBuildVersion`). The back-office reads them only while that
 * version is still current, so a day rebuilt without a recompute here costs speed, never answers.
 */

export interface AiWindowSettings {
  timeZone: string;
  /** AI_LIST_WINDOW_DAYS: the back-office's window. */
  days: number;
  now: () => Date;
}

/** Attempts of a recompute that lost a deadlock. */
const LOCK_ATTEMPTS = 4;

/** The window of the platform day `now` falls in. */
export const currentAiWindow = (s: AiWindowSettings): AiWindow => ({ toDay: platformToday(s.timeZone, s.now()), days: s.days });

/** Whether days `first`..`last` (both included) meet the window. */
const meetsWindow = (w: AiWindow, first: string, last: string) => last >= addDays(w.toDay, -w.days) && first < w.toDay;

/**
 * Recompute the window's sums in one REPEATABLE READ transaction: the version and the sums come
 * from one snapshot (taken at the first read, after the lock that makes recomputes take turns),
 * so the stored version always names the days the stored sums were read from.
 */
export async function recomputeAiWindow(knex: Knex, s: AiWindowSettings): Promise<{ window: AiWindow; version: string; goods: number }> {
  const window = currentAiWindow(s);
  return retryOnLockConflict(LOCK_ATTEMPTS, () =>
    knex.transaction(
      async (trx) => {
        await lockBuild(trx, 'ai-window', window.toDay);
        const version = await aiWindowBuildVersion(trx, window);
        const sums = await windowSums(trx, window);
        await replaceWindowSums(trx, window, version, sums, platformNowMillis(s.timeZone, s.now()));
        return { window, version, goods: sums.length };
      },
      { isolationLevel: 'repeatable read' },
    ),
  );
}

/**
 * After a build of (kind, day) or of days `day`..`toDay`: recompute when an inflow or goods day
 * of the current window was built, or when the current window has no sums yet (the first build
 * of a new day — normally the 09:00 build of yesterday, which is in the window anyway). Returns
 * whether it recomputed.
 */
export async function refreshAiWindowAfterBuild(
  knex: Knex,
  built: { kind: AggregateKind; day: string; toDay?: string },
  s: AiWindowSettings,
): Promise<boolean> {
  const window = currentAiWindow(s);
  const demandDay = (AI_WINDOW_KINDS as readonly string[]).includes(built.kind) && meetsWindow(window, built.day, built.toDay ?? built.day);
  if (!demandDay && (await storedAiWindowVersion(knex, window)) !== undefined) return false;
  await recomputeAiWindow(knex, s);
  return true;
}
