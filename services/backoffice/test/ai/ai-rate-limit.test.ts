import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { type TestDatabase, bearer, TEST_JWT_SECRET, testLogger } from '@bo/testing';
import { createRedis, type Logger } from '@bo/service-kit';
import { createBackofficeApp, loadBackofficeConfig } from '../../src/index.ts';
import { aiDatabase, BO, insertAiMasters } from './helpers/ai-fixtures.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const LIMIT = 3;

const md = (sub: string) => bearer({ sub, workGrpCd: 'BO_MD' });

/** Each AI operation once, as the UI calls it; every one spends from the same budget. */
const AI_CALLS: Record<string, (app: Express, auth: string) => request.Test> = {
  autoFill: (app, auth) =>
    request(app).post(`${BO}/v2/goods/ai/getAiGoodsAutoFill`).set('Authorization', auth).send({ productName: '나이키 반팔 티셔츠' }),
  descV2: (app, auth) =>
    request(app).post(`${BO}/v2/goods/ai/getAiGoodsDesc`).set('Authorization', auth).send({ goodsNo: 'NO-SUCH', option: '10' }),
  descV1: (app, auth) =>
    request(app).get(`${BO}/v1/goods/ai/getAiGoodsDesc`).query({ goodsNo: 'NO-SUCH', option: '10' }).set('Authorization', auth),
  listV2: (app, auth) => request(app).get(`${BO}/v2/goods/ai/getAiGoodsList`).set('Authorization', auth),
  listV1: (app, auth) => request(app).get(`${BO}/v1/goods/ai/getAiGoodsList`).set('Authorization', auth),
};

const isRateLimited = (res: request.Response) => res.status === 900 && (res.body as { code?: string } | undefined)?.code === '1429';

/** A loopback port nothing listens on: Redis "down". */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('AI rate limit per user (AI_RATE_LIMIT_PER_MINUTE, shared through Redis)', function () {
  this.timeout(30_000);
  let db: TestDatabase;
  let redis: Redis;
  /** Every key prefix a test used, removed at the end. */
  const prefixes: string[] = [];

  const uniquePrefix = () => {
    const prefix = `t_airate_${randomBytes(4).toString('hex')}`;
    prefixes.push(prefix);
    return prefix;
  };
  const app = (env: Record<string, string>, options: { redis?: Redis; logger?: Logger } = {}): Express =>
    createBackofficeApp({
      config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, AI_RATE_LIMIT_PER_MINUTE: String(LIMIT), ...env }),
      logger: options.logger ?? testLogger(),
      knex: db.knex,
      redis: options.redis ?? redis,
    });

  before(async () => {
    db = await aiDatabase('ai_rate');
    await insertAiMasters(db.knex);
    redis = createRedis(REDIS_URL, testLogger(), { failFast: true });
    // A fail-fast client refuses commands until it is connected.
    if (redis.status !== 'ready') await once(redis, 'ready');
  });
  after(async () => {
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
    }
    await redis?.quit();
    await db?.drop();
  });

  it('when a user calls the AI operations more often in a minute than the limit, then the extra calls answer 900/1429 with Retry-After, in the envelope where the operation has one', async () => {
    const service = app({ REDIS_PREFIX: uniquePrefix() });
    const auth = md('md-busy');
    // Three different operations spend the one budget.
    for (const call of [AI_CALLS.autoFill!, AI_CALLS.listV2!, AI_CALLS.descV2!])
      expect(isRateLimited(await call(service, auth))).to.equal(false);

    const envelope = await AI_CALLS.autoFill!(service, auth);
    expect(envelope.status).to.equal(900);
    const { timestamp, ...rest } = envelope.body as { timestamp: string };
    expect(Number.isNaN(Date.parse(timestamp))).to.equal(false);
    expect(rest).to.deep.equal({
      code: '1429',
      message: 'Too many requests; try again after the time in Retry-After',
      httpStatus: 429,
      isProcess: false,
      payload: null,
      error: true,
      errors: [],
    });
    const retryAfter = Number(envelope.headers['retry-after']);
    expect(retryAfter).to.be.within(1, 60);

    const plain = await AI_CALLS.descV2!(service, auth);
    expect(plain.status).to.equal(900);
    expect(plain.body).to.deep.equal({
      code: '1429',
      message: 'Too many requests; try again after the time in Retry-After',
      httpStatus: 429,
      isProcess: false,
    });
    expect(Number(plain.headers['retry-after'])).to.be.within(1, 60);
    for (const name of ['descV1', 'listV1', 'listV2'] as const)
      expect(isRateLimited(await AI_CALLS[name]!(service, auth)), name).to.equal(true);
  });

  it('when the user is over the limit, then other users keep their own budget and the statistics and dashboard operations are not limited', async () => {
    const service = app({ REDIS_PREFIX: uniquePrefix() });
    const busy = md('md-over');
    for (let i = 0; i < LIMIT; i++) await AI_CALLS.listV2!(service, busy);
    expect(isRateLimited(await AI_CALLS.listV2!(service, busy))).to.equal(true);

    expect(isRateLimited(await AI_CALLS.listV2!(service, md('md-other')))).to.equal(false);
    for (let i = 0; i < LIMIT + 2; i++) {
      const dashboard = await request(service).get(`${BO}/v2/dashboard/goods/sale-stock-status`).set('Authorization', busy);
      expect(dashboard.status).to.equal(200);
    }
  });

  it('when two copies of the service share Redis, then a user has one budget across both', async () => {
    const prefix = uniquePrefix();
    const [one, two] = [app({ REDIS_PREFIX: prefix }), app({ REDIS_PREFIX: prefix })];
    const auth = md('md-two-copies');
    const answers = [];
    for (const copy of [one, two, one, two, one]) answers.push(isRateLimited(await AI_CALLS.autoFill!(copy, auth)));
    expect(answers).to.deep.equal([false, false, false, true, true]);
  });

  it('when the bearer token is missing, then the answer is 401 and nothing is counted', async () => {
    const prefix = uniquePrefix();
    const service = app({ REDIS_PREFIX: prefix });
    for (let i = 0; i < LIMIT + 1; i++) expect((await request(service).get(`${BO}/v2/goods/ai/getAiGoodsList`)).status).to.equal(401);
    expect(await redis.keys(`${prefix}:*`)).to.deep.equal([]);
  });

  it('when AI_RATE_LIMIT_PER_MINUTE is 0, then the AI operations are not limited', async () => {
    const service = app({ REDIS_PREFIX: uniquePrefix(), AI_RATE_LIMIT_PER_MINUTE: '0' });
    for (let i = 0; i < LIMIT + 3; i++) expect(isRateLimited(await AI_CALLS.listV2!(service, md('md-unlimited')))).to.equal(false);
  });

  it('when Redis is down, then AI requests pass unlimited at once (fail open) and the failure is logged as a warning', async () => {
    const down = createRedis(`redis://127.0.0.1:${await closedPort()}/0`, testLogger(), { failFast: true });
    const logger = testLogger();
    const warnings: { message: string; meta: Record<string, unknown> }[] = [];
    const warn = logger.warn.bind(logger);
    logger.warn = ((message: string, meta: Record<string, unknown>) => {
      warnings.push({ message, meta });
      return warn(message, meta);
    }) as typeof logger.warn;
    try {
      const service = app({ REDIS_PREFIX: uniquePrefix() }, { redis: down, logger });
      for (let i = 0; i < LIMIT + 2; i++) {
        const res = await AI_CALLS.listV2!(service, md('md-no-redis')).timeout(5_000);
        expect(res.status).to.equal(200);
      }
      const failures = warnings.filter((w) => w.message === 'rate limit store unavailable: requests pass unlimited');
      expect(failures).to.have.length(1);
    } finally {
      down.disconnect();
    }
  });
});
