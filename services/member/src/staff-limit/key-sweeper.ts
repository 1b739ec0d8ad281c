import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import { platformMoment } from './platform-clock.ts';
import { deleteExpiredIdempotencyKeys } from './data-access/idempotency-keys.ts';

export interface KeySweeperOptions {
  knex: Knex;
  logger: Logger;
  timeZone: string;
  intervalMs?: number;
  /** Rows per DELETE: one sweep never holds many locks, the next batch takes the rest. */
  batch?: number;
}

export interface KeySweeper {
  /** No sweep starts after this; resolves once the running one (if any) has ended. */
  stop: () => Promise<void>;
}

/**
 * Expired Idempotency-Key records are deleted by a background timer, not by the requests: a
 * sweep inside a request made that request wait for a DELETE of up to a batch of rows and its
 * locks. The first sweep runs at once (a restarted process cleans up without waiting); a full
 * batch means more are waiting, so the next one follows at once, otherwise after the interval.
 * The timer does not keep the process alive. A key that expired but was not swept yet is still
 * treated as expired by `claimKey`.
 */
export function startKeySweeper({ knex, logger, timeZone, intervalMs = 60_000, batch = 1000 }: KeySweeperOptions): KeySweeper {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const sweep = async () => {
    let delay = intervalMs;
    try {
      const deleted = await deleteExpiredIdempotencyKeys(knex, platformMoment(timeZone).seconds, batch);
      if (deleted >= batch) delay = 0;
    } catch (err) {
      logger.warn('sweeping expired idempotency keys failed', { message: (err as Error).message });
    }
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep();
    }, delay);
    timer.unref();
  };
  running = sweep();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
