import { Redis } from 'ioredis';
import type { Logger } from './logger.ts';

/**
 * ioredis for BullMQ and idempotency keys. `maxRetriesPerRequest: null` keeps commands queued
 * while Redis restarts instead of failing them, which BullMQ workers require.
 */
export function createRedis(url: string, logger: Logger, options: { lazyConnect?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    maxRetriesPerRequest: null,
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
