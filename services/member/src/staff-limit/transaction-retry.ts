import { isLockConflict, retryOnLockConflict, type Knex } from '@bo/db';
import { AppError } from '@bo/service-kit';

/**
 * Run `work` in a transaction; a deadlock or lock-wait timeout rolls the whole transaction
 * back and runs it again. When every attempt conflicted, 503.
 */
export async function inRetriedTransaction<T>(knex: Knex, maxAttempts: number, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  try {
    return await retryOnLockConflict(maxAttempts, () => knex.transaction(work));
  } catch (err) {
    if (!isLockConflict(err)) throw err;
    throw new AppError('UNAVAILABLE', { message: 'The staff limit is busy; try again shortly', cause: err, isOperational: true });
  }
}
