import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
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
 * An answer of `gzipMinBytes` or more is also kept gzipped, for callers that accept gzip (every
 * browser): a goods list without a filter is ~6 MB of JSON and ~0.7 MB gzipped, compressed once
 * per build instead of once per request.
 */
export interface AnswerCache {
  /**
   * The answer as JSON text (kept, or computed and kept), or as computed when there is no cache;
   * with `gzip`, the gzipped form where there is one.
   */
  answer<T>(
    kind: ListKind,
    operationId: string,
    query: object,
    range: DayRange,
    compute: () => Promise<T>,
    accepts?: { gzip: boolean },
  ): Promise<Answer<T>>;
}

/**
 * A kept answer, read from Redis piece by piece while it is sent: its first bytes leave before
 * the rest is read (a goods list without a filter is ~5 MB; read whole, every byte waited for
 * the last). `pieces` fails if the entry vanishes midway; it is only offered with
 * KEPT_MIN_TTL_MS of its life left, so that needs a Redis flush or eviction.
 */
export interface KeptAnswer {
  bytes: number;
  /** The pieces are the gzip of the JSON (sent with `Content-Encoding: gzip`). */
  gzipped: boolean;
  pieces(): AsyncIterable<Buffer>;
}

/**
 * Sent as is: a kept answer is not parsed and written again (a goods list is megabytes). A
 * computed one carries its gzip when the caller accepts gzip and the JSON is large enough.
 */
export type Answer<T> = ComputedAnswer | { value: T } | { kept: KeptAnswer };
type ComputedAnswer = { json: string; gzipped?: Buffer };

/** Bytes read from Redis per piece of a kept answer (small answers are one piece). */
export const KEPT_PIECE_BYTES = 256 * 1024;
/** An entry closer than this to its expiry is computed again rather than read piece by piece. */
const KEPT_MIN_TTL_MS = 5_000;
const gzipAsync = promisify(gzip);

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

/** Where the gzipped form of the answer kept at `key` is kept. */
const gzipKey = (key: string) => `${key}:gzip`;

/**
 * The kept entry `key` as pieces of `pieceBytes`, when it exists with enough life left; with
 * `gzip`, its gzipped form when that is kept (an answer too short to be gzipped has none).
 */
async function keptAnswer(redis: Redis, key: string, pieceBytes: number, gzip: boolean): Promise<KeptAnswer | undefined> {
  const candidates = gzip ? [gzipKey(key), key] : [key];
  const read = redis.multi();
  for (const k of candidates) read.strlen(k).pttl(k);
  const replies = ((await read.exec()) ?? []).map(([err, value]) => (err ? 0 : Number(value)));
  const found = candidates.findIndex((_, i) => replies[2 * i]! > 0 && replies[2 * i + 1]! >= KEPT_MIN_TTL_MS);
  if (found < 0) return undefined;
  const entry = candidates[found]!;
  const bytes = replies[2 * found]!;
  return {
    bytes,
    gzipped: entry !== key,
    async *pieces() {
      for (let from = 0; from < bytes; from += pieceBytes) {
        const to = Math.min(from + pieceBytes, bytes);
        const piece = await redis.getrangeBuffer(entry, from, to - 1);
        if (piece.length !== to - from) throw new Error(`kept answer ${entry} ended at byte ${from + piece.length} of ${bytes}`);
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
  /** JSON shorter than this is kept and sent as it is (STATISTICS_GZIP_MIN_BYTES). */
  gzipMinBytes: number;
  pieceBytes?: number;
}): AnswerCache {
  const { knex, redis, prefix, ttlSeconds, logger, gzipMinBytes, pieceBytes = KEPT_PIECE_BYTES } = opts;
  const misses = new SharedReads<ComputedAnswer>();
  return {
    async answer(kind, operationId, query, range, compute, accepts = { gzip: false }) {
      const version = await listBuildVersion(knex, kind, range);
      const key = `${prefix}:stat-answer:${operationId}:${requestKey(operationId, query)}:${version}`;
      const kept = await keptAnswer(redis, key, pieceBytes, accepts.gzip).catch((err: Error) => {
        logger.debug('answer cache read failed', { message: err.message });
        return undefined;
      });
      if (kept) return { kept };
      // Computed and, when long, gzipped once for every request that shares the miss.
      const computed = await misses.run(key, async () => {
        const json = JSON.stringify(await compute());
        return Buffer.byteLength(json) >= gzipMinBytes ? { json, gzipped: await gzipAsync(json) } : { json };
      });
      // Both forms in one round trip. Not awaited: the answer does not wait for Redis.
      const write = redis.multi().set(key, computed.json, 'EX', ttlSeconds);
      if (computed.gzipped) write.set(gzipKey(key), computed.gzipped, 'EX', ttlSeconds);
      write.exec().catch((err: Error) => {
        logger.debug('answer cache write failed', { message: err.message });
      });
      return accepts.gzip ? computed : { json: computed.json };
    },
  };
}
