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

/**
 * A kept answer, read from Redis piece by piece while it is sent: its first bytes leave before
 * the rest is read (a goods list without a filter is ~5 MB; read whole, every byte waited for
 * the last). `pieces` fails if the entry vanishes midway; it is only offered with
 * KEPT_MIN_TTL_MS of its life left, so that needs a Redis flush or eviction.
 */
export interface KeptAnswer {
  bytes: number;
  pieces(): AsyncIterable<Buffer>;
}

/** Sent as is: a kept answer is not parsed and written again (a goods list is megabytes). */
export type Answer<T> = { json: string } | { value: T } | { kept: KeptAnswer };

/** Bytes read from Redis per piece of a kept answer (small answers are one piece). */
export const KEPT_PIECE_BYTES = 256 * 1024;
/** An entry closer than this to its expiry is computed again rather than read piece by piece. */
const KEPT_MIN_TTL_MS = 5_000;

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

/** The kept entry `key` as pieces of `pieceBytes`, when it exists with enough life left. */
async function keptAnswer(redis: Redis, key: string, pieceBytes: number): Promise<KeptAnswer | undefined> {
  const replies = (await redis.multi().strlen(key).pttl(key).exec()) ?? [];
  const [bytes, ttlMs] = replies.map(([err, value]) => (err ? 0 : Number(value)));
  if (!bytes || (ttlMs ?? 0) < KEPT_MIN_TTL_MS) return undefined;
  return {
    bytes,
    async *pieces() {
      for (let from = 0; from < bytes; from += pieceBytes) {
        const to = Math.min(from + pieceBytes, bytes);
        const piece = await redis.getrangeBuffer(key, from, to - 1);
        if (piece.length !== to - from) throw new Error(`kept answer ${key} ended at byte ${from + piece.length} of ${bytes}`);
        yield piece;
      }
    },
  };
}

export function redisAnswerCache(opts: {
  knex: Knex;
  redis: Redis;
  prefix: string;
  ttlSeconds: number;
  logger: Logger;
  pieceBytes?: number;
}): AnswerCache {
  const { knex, redis, prefix, ttlSeconds, logger, pieceBytes = KEPT_PIECE_BYTES } = opts;
  const misses = new SharedReads<string>();
  return {
    async answer(kind, operationId, query, range, compute) {
      const version = await listBuildVersion(knex, kind, range);
      const key = `${prefix}:stat-answer:${operationId}:${requestKey(operationId, query)}:${version}`;
      const kept = await keptAnswer(redis, key, pieceBytes).catch((err: Error) => {
        logger.debug('answer cache read failed', { message: err.message });
        return undefined;
      });
      if (kept) return { kept };
      const json = await misses.run(key, async () => JSON.stringify(await compute()));
      // Not awaited: the answer does not wait for Redis.
      redis.set(key, json, 'EX', ttlSeconds).catch((err: Error) => {
        logger.debug('answer cache write failed', { message: err.message });
      });
      return { json };
    },
  };
}
