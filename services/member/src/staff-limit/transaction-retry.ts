import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from '@bo/db';
import { AppError } from '@bo/service-kit';

const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;

const isLockConflict = (err: unknown): boolean => {
  const errno = (err as { errno?: number } | undefined)?.errno;
  return errno === DEADLOCK || errno === LOCK_WAIT_TIMEOUT;
};

/**
 * Run `work` in a transaction; a deadlock or lock-wait timeout rolls the whole transaction
 * back and runs it again, after a random pause that grows with each attempt so the
 * competitors do not collide again in step. When every attempt conflicted, 503.
 */
export async function inRetriedTransaction<T>(knex: Knex, maxAttempts: number, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await knex.transaction(work);
    } catch (err) {
      if (!isLockConflict(err)) throw err;
      if (attempt >= maxAttempts)
        throw new AppError('UNAVAILABLE', { message: 'The staff limit is busy; try again shortly', cause: err, isOperational: true });
      await sleep(Math.random() * 25 * 2 ** attempt);
    }
  }
}
