import type { Request, RequestHandler } from 'express';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../app-error.ts';
import type { Logger } from '../logger.ts';

export interface RateLimitOptions {
  /** A fail-fast client (`createRedis(…, { failFast: true })`): a down Redis must not hold requests. */
  redis: Redis;
  /** Redis key prefix of the counters; every copy of the service with the same prefix shares them. */
  keyPrefix: string;
  /** Requests allowed per key and window. */
  points: number;
  windowSeconds: number;
  /** Whose budget a request spends; undefined: the request is not counted. */
  keyOf: (req: Request) => string | undefined;
  logger: Logger;
}

/** A store failure is logged at most this often, not once per request. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/**
 * A fixed-window limit per key, counted in Redis (rate-limiter-flexible: one atomic INCR with
 * expiry per request) so that all copies of a service share one budget. Over it: 900 with
 * RATE_LIMITED (1429, httpStatus 429) and `Retry-After` until the window ends. When Redis fails
 * or is not connected the request passes (fail open, logged): the limit protects capacity and
 * must not take the operations down with it.
 */
export function redisRateLimit(options: RateLimitOptions): RequestHandler {
  const limiter = new RateLimiterRedis({
    storeClient: options.redis,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.windowSeconds,
    rejectIfRedisNotReady: true,
  });
  let lastFailureLogged = 0;
  let failuresSinceLog = 0;
  return async (req, _res, next) => {
    const key = options.keyOf(req);
    if (key === undefined) return next();
    try {
      await limiter.consume(key);
      next();
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        next(new AppError('RATE_LIMITED', { retryAfterSeconds: Math.max(1, Math.ceil(err.msBeforeNext / 1000)) }));
        return;
      }
      failuresSinceLog += 1;
      if (Date.now() - lastFailureLogged >= FAILURE_LOG_INTERVAL_MS) {
        options.logger.warn('rate limit store unavailable: requests pass unlimited', {
          keyPrefix: options.keyPrefix,
          message: (err as Error)?.message ?? String(err),
          failures: failuresSinceLog,
        });
        lastFailureLogged = Date.now();
        failuresSinceLog = 0;
      }
      next();
    }
  };
}
