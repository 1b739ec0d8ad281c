import { Redis, type RedisOptions as IoRedisOptions } from 'ioredis';
import type { Logger } from './logger.ts';

/** How long a fail-fast command may wait for its answer. */
const FAIL_FAST_COMMAND_TIMEOUT_MS = 1_000;

export interface RedisOptions {
  lazyConnect?: boolean;
  failFast?: boolean;
  /** Sentinels (`sentinelsOf`): Redis is the master they name, followed across a failover. */
  sentinels?: { host: string; port: number }[];
  sentinelName?: string;
}

/** The Sentinel options of `createRedis` from REDIS_SENTINELS / REDIS_SENTINEL_NAME (none when unset). */
export function sentinelsOf(c: { REDIS_SENTINELS: string; REDIS_SENTINEL_NAME: string }): Pick<RedisOptions, 'sentinels' | 'sentinelName'> {
  if (!c.REDIS_SENTINELS) return {};
  const sentinels = c.REDIS_SENTINELS.split(',').map((hostPort) => {
    const at = hostPort.lastIndexOf(':');
    return { host: hostPort.slice(0, at), port: Number(hostPort.slice(at + 1)) };
  });
  return { sentinels, sentinelName: c.REDIS_SENTINEL_NAME };
}

/** With Sentinels, the URL gives only what the master itself needs: database number and credentials. */
function sentinelTarget(url: string, options: RedisOptions) {
  const u = new URL(url);
  return {
    sentinels: options.sentinels,
    name: options.sentinelName,
    db: Number(u.pathname.replace(/^\//, '') || 0),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    // Subscribes to the Sentinels' +switch-master, so a failover is followed at once.
    failoverDetector: true,
  };
}

/**
 * ioredis for BullMQ and idempotency keys. `maxRetriesPerRequest: null` keeps commands queued
 * while Redis restarts instead of failing them, which BullMQ workers require. `failFast` is the
 * opposite, for callers that would rather go on without Redis than wait for it (the rate
 * limit): commands fail at once while disconnected and after a second without an answer.
 */
export function createRedis(url: string, logger: Logger, options: RedisOptions = {}): Redis {
  const common: IoRedisOptions = {
    ...(options.failFast
      ? { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: FAIL_FAST_COMMAND_TIMEOUT_MS }
      : { maxRetriesPerRequest: null }),
    enableReadyCheck: true,
    lazyConnect: options.lazyConnect ?? false,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  };
  const redis = options.sentinels?.length ? new Redis({ ...sentinelTarget(url, options), ...common }) : new Redis(url, common);
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
