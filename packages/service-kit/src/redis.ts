import { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

/** How long a fail-fast command may wait for its answer. */
const FAIL_FAST_COMMAND_TIMEOUT_MS = 1_000;

/**
 * ioredis for BullMQ and idempotency keys. `maxRetriesPerRequest: null` keeps commands queued
 * while Redis restarts instead of failing them, which BullMQ workers require. `failFast` is the
 * opposite, for callers that would rather go on without Redis than wait for it (the rate
 * limit): commands fail at once while disconnected and after a second without an answer.
 */
export function createRedis(url: string, logger: Logger, options: { lazyConnect?: boolean; failFast?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    ...(options.failFast
      ? { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: FAIL_FAST_COMMAND_TIMEOUT_MS }
      : { maxRetriesPerRequest: null }),
    enableReadyCheck: true,
    lazyConnect: options.lazyConnect ?? false,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  });
  let lastError = '';
  redis.on('error', (err: Error) => {
    // One line per distinct failure: a down Redis would otherwise log every retry.
    if (err.message !== lastError) logger.warn('redis error', { message: err.message });
    lastError = err.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  return redis;
}
