import { isLockConflict, retryOnLockConflict } from '@bo/db';
import { AppError } from '@bo/service-kit';

/**
 * Run `work` (one transaction) again while it fails with a deadlock or lock-wait timeout; the
 * transaction was rolled back each time. When every attempt conflicted, 503.
 */
export async function retriedOnLockConflict<T>(maxAttempts: number, work: () => Promise<T>): Promise<T> {
  try {
    return await retryOnLockConflict(maxAttempts, work);
  } catch (err) {
    if (!isLockConflict(err)) throw err;
    throw new AppError('UNAVAILABLE', { message: 'The staff limit is busy; try again shortly', cause: err, isOperational: true });
  }
}
