import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ListKind } from '@bo/aggregates';
import type { Knex } from '@bo/db';
import { SharedReads, type Logger } from '@bo/service-kit';
import { listBuildVersion } from './data-access/build-version.ts';
import type { DayRange } from './model.ts';

/**
 * Answers of the aggregate lists kept in Redis, shared by every copy of the service. A list is
 * computed from the worker's aggregates only, so its answer changes only when the worker builds
 * one of its days: the key holds the request and the build version of the days it covers
 * (`listBuildVersion`), and a build makes the next request miss. Names shown next to the keys
 * (category, MD, goods, supplier) are not part of the version: an entry lives `ttlSeconds` at
 * most, so a renamed master shows within that time. Redis down or slow: the answer is computed.
 * Identical requests that miss together (every request right after a build) share one
 * computation (`SharedReads`: each from a read started after it arrived), not one each.
 */
export interface AnswerCache {
  /** The answer as JSON text (kept, or computed and kept), or as computed when there is no cache. */
  answer<T>(kind: ListKind, operationId: string, query: object, range: DayRange, compute: () => Promise<T>): Promise<Answer<T>>;
}

/** Sent as is: a kept answer is not parsed and written again (a goods list is megabytes). */
export type Answer<T> = { json: string } | { value: T };

/** The request as a stable string: defined fields in name order. */
const requestKey = (operationId: string, query: object): string => {
  const fields = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha1')
    .update(JSON.stringify([operationId, fields]))
    .digest('base64url');
};

/** No cache: every answer computed. */
export const NO_ANSWER_CACHE: AnswerCache = { answer: async (_kind, _op, _query, _range, compute) => ({ value: await compute() }) };

export function redisAnswerCache(opts: { knex: Knex; redis: Redis; prefix: string; ttlSeconds: number; logger: Logger }): AnswerCache {
  const { knex, redis, prefix, ttlSeconds, logger } = opts;
  const misses = new SharedReads<string>();
  return {
    async answer(kind, operationId, query, range, compute) {
      const version = await listBuildVersion(knex, kind, range);
      const key = `${prefix}:stat-answer:${operationId}:${requestKey(operationId, query)}:${version}`;
      const hit = await redis.get(key).catch((err: Error) => {
        logger.debug('answer cache read failed', { message: err.message });
        return null;
      });
      if (hit !== null) return { json: hit };
      const json = await misses.run(key, async () => JSON.stringify(await compute()));
      // Not awaited: the answer does not wait for Redis.
      redis.set(key, json, 'EX', ttlSeconds).catch((err: Error) => {
        logger.debug('answer cache write failed', { message: err.message });
      });
      return { json };
    },
  };
}
