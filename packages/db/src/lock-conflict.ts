import { setTimeout as sleep } from 'node:timers/promises';

const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;

/** A deadlock or lock-wait timeout: the statement (or transaction) was rolled back and may simply run again. */
export const isLockConflict = (err: unknown): boolean => {
  const errno = (err as { errno?: number } | undefined)?.errno;
  return errno === DEADLOCK || errno === LOCK_WAIT_TIMEOUT;
};

/**
 * Run `work` up to `maxAttempts` times while it fails with a lock conflict, after a random pause
 * that grows with each attempt so the competitors do not collide again in step. Any other error,
 * or the conflict of the last attempt, is thrown as it is. `work` must be safe to repeat: one
 * transaction, or one autocommitted statement.
 */
export async function retryOnLockConflict<T>(maxAttempts: number, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!isLockConflict(err) || attempt >= maxAttempts) throw err;
      await sleep(Math.random() * 25 * 2 ** attempt);
    }
  }
}
