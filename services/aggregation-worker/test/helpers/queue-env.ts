import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Knex } from '@bo/db';
import { createLogger, createRedis, type Logger } from '@bo/service-kit';
import { testLogger } from '@bo/testing';
import { createQueues, type Queues } from '../../src/queue/queues.ts';
import { startWorkers } from '../../src/queue/workers.ts';

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** A Redis key prefix of this test run only; everything the test creates lives under it. */
export const testPrefix = (label: string): string => `t-agg-${label}-${randomBytes(4).toString('hex')}`;

/** Delete this prefix's keys and nothing else (never FLUSHALL: Redis is shared). */
export async function deletePrefixKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const out: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    out.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return out;
}

/** A logger whose records the test can read (the console stays quiet). */
export function capturingLogger(): { logger: Logger; records: Record<string, unknown>[] } {
  const logger = createLogger('test', 'info');
  for (const t of logger.transports) t.silent = true;
  const records: Record<string, unknown>[] = [];
  logger.on('data', (info: Record<string, unknown>) => records.push(info));
  return { logger, records };
}

export interface TestQueueEnv {
  prefix: string;
  redis: Redis;
  queues: Queues;
  close: () => Promise<void>;
}

export function createTestQueues(label: string, options: { attempts?: number; logger?: Logger } = {}): TestQueueEnv {
  const prefix = testPrefix(label);
  const logger = options.logger ?? testLogger('agg-test');
  const redis = createRedis(REDIS_URL, logger);
  const queues = createQueues(redis, { prefix, attempts: options.attempts ?? 1, backoffMs: 100 }, logger);
  return {
    prefix,
    redis,
    queues,
    close: async () => {
      await queues.close();
      await deletePrefixKeys(redis, prefix);
      await redis.quit();
    },
  };
}

/** Workers in this process on the test prefix, with an injectable clock for the scheduled runs. */
export function startTestWorkers(
  env: TestQueueEnv,
  knex: Knex,
  options: { logger?: Logger; now?: () => Date; timeZone?: string; aiWindowDays?: number } = {},
) {
  const timeZone = options.timeZone ?? 'Asia/Seoul';
  return startWorkers(
    env.redis,
    knex,
    options.logger ?? testLogger('agg-test'),
    {
      prefix: env.prefix,
      concurrency: 2,
      lockDurationMs: 5000,
      stalledIntervalMs: 5000,
      timeZone,
      aiWindowDays: options.aiWindowDays ?? 30,
      ...(options.now ? { now: options.now } : {}),
    },
    { buildQueue: env.queues.build, timeZone, catchUpDays: 0, catchUpHours: 1, reconcileDays: 7, now: options.now ?? (() => new Date()) },
  );
}
