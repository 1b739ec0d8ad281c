import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { DAILY_KINDS } from '@bo/contracts';
import { createRedis } from '@bo/service-kit';
import { createKnex } from '@bo/db';
import { TEST_JWT_SECRET, testLogger, type TestDatabase } from '@bo/testing';
import { createBackofficeApp, loadBackofficeConfig } from '../../src/index.ts';
import { arrange, buildDailyAggregates, insertArranged, type Arranged } from './helpers/arranged-data.ts';
import { categoryRows, days, goodsRows } from './helpers/expected.ts';
import { ADMIN_AUTH, BO, statisticsDatabase } from './helpers/statistics-app.ts';
import { KEPT_PIECE_BYTES, redisAnswerCache, type AnswerCache, type KeptAnswer } from '../../src/statistics/answer-cache.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const CATEGORY = `${BO}/v1/statistics/categoryStatus/getCategoryStatusList`;
const GOODS = `${BO}/v1/statistics/goodsStatus/getGoodsStatusList`;
const CATEGORY_TOP = `${BO}/v2/statistics/category/sales-status`;
const RANGE = { startDate: '2026-01-28', endDate: '2026-02-03', agrtGb: '01' };
const LATE_DAY = '2026-02-03';

describe('statistics: aggregate-list answers cached in Redis (STATISTICS_ANSWER_CACHE_SECONDS)', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let redis: Redis;
  let a: Arranged;
  const prefix = `t_answers_${randomBytes(4).toString('hex')}`;

  const app = (client: Redis, topN = 10, gzipMinBytes = 16384): Express =>
    createBackofficeApp({
      config: loadBackofficeConfig({
        NODE_ENV: 'test',
        JWT_SECRET: TEST_JWT_SECRET,
        REDIS_PREFIX: prefix,
        STATISTICS_TOP_N: String(topN),
        STATISTICS_GZIP_MIN_BYTES: String(gzipMinBytes),
      }),
      logger: testLogger(),
      knex: db.knex,
      redis: client,
    });
  const get = (on: Express, path: string) => request(on).get(path).query(RANGE).set('Authorization', ADMIN_AUTH);
  const cachedKeys = () => redis.keys(`${prefix}:stat-answer:*`);
  /** Days of the direct cache tests' keys (their answers come from `compute`, not the database). */
  const keptRange = { fromDay: RANGE.startDate, toDay: '2026-02-04' };
  /** The answer to `query` once it is kept (the write is not awaited by the computed one). */
  const untilKept = async (c: AnswerCache, operationId: string, query: object, gzip = false): Promise<KeptAnswer> => {
    for (let i = 0; i < 50; i++) {
      const again = await c.answer('goods', operationId, query, keptRange, () => Promise.reject(new Error('computed again')), { gzip });
      if ('kept' in again) return again.kept;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('never kept');
  };
  const piecesOf = async (kept: KeptAnswer) => {
    const pieces: Buffer[] = [];
    for await (const p of kept.pieces()) pieces.push(p);
    return pieces;
  };

  before(async () => {
    db = await statisticsDatabase('stats_answers');
    a = arrange({ seed: 5150, orderDays: days('2026-01-26', '2026-02-05'), orders: 220, inflowDays: ['2026-01-30'], inflows: 10 });
    await insertArranged(db.knex, a);
    // The last day of the range is left unbuilt: building it later must change the answer.
    await buildDailyAggregates(db.knex, '2026-01-28', '2026-02-02');
    redis = createRedis(REDIS_URL, testLogger(), { failFast: true });
    if (redis.status !== 'ready') await once(redis, 'ready');
  });
  after(async () => {
    const keys = await cachedKeys();
    if (keys.length) await redis.del(...keys);
    await redis?.quit();
    await db?.drop();
  });

  it('when a list is asked twice, and again after the worker builds one of its days, then each answer equals the recomputation of the days built then', async () => {
    const shared = app(redis);
    const builtBefore = days('2026-01-28', '2026-02-02');
    const before = categoryRows(a, { agrtGb: '01', from: RANGE.startDate, to: RANGE.endDate, built: builtBefore });
    const first = await get(shared, CATEGORY);
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body).to.deep.equal({ totalCount: before.length, payloads: before });
    // The write is not awaited by the answer: wait until it lands.
    for (let i = 0; i < 50 && !(await cachedKeys()).length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await cachedKeys(), 'the answer is kept').to.have.lengthOf(1);

    // Another copy of the service (another app on the same Redis) is answered from the kept entry.
    const second = await get(app(redis), CATEGORY);
    expect(second.body).to.deep.equal(first.body);

    for (const kind of DAILY_KINDS) await rebuildAggregate(db.knex, { kind, day: LATE_DAY, requestedBy: 'cli' });
    const after = categoryRows(a, { agrtGb: '01', from: RANGE.startDate, to: RANGE.endDate, built: [...builtBefore, LATE_DAY] });
    expect(after, 'the late day changes the numbers').to.not.deep.equal(before);
    const third = await get(shared, CATEGORY);
    expect(third.body).to.deep.equal({ totalCount: after.length, payloads: after });
  });

  it('when a rebuild of a day commits after a later one (its build instant is not the latest), then the next answer is computed again', async () => {
    const shared = app(redis);
    const cached = await get(shared, CATEGORY);
    expect(cached.status, JSON.stringify(cached.body)).to.equal(200);
    for (let i = 0; i < 50 && !(await cachedKeys()).length; i++) await new Promise((r) => setTimeout(r, 20));
    // What such a rebuild leaves: changed numbers of one day, its built_dtm earlier than the
    // range's latest, the same source marks (out-of-order rows, issue 17.2, add no higher number).
    const day = '2026-01-30';
    const [latest] = await db
      .knex('agg_built_day')
      .where({ kind: 'category', agrt_hour: -1 })
      .andWhere('agrt_dt', '>=', RANGE.startDate)
      .andWhere('agrt_dt', '<=', RANGE.endDate)
      .max<{ at: Date }[]>({ at: 'built_dtm' });
    await db.knex.transaction(async (trx) => {
      // The day's rows and, as a rebuild keeps them, its month's rows by the same amount.
      for (const [daily, monthly, keys] of [
        ['agg_ctg_daily', 'agg_ctg_monthly', ['site_no', 'std_ctg_no', 'md_id']],
        ['agg_ctg_daily_all', 'agg_ctg_monthly_all', ['std_ctg_no', 'md_id']],
      ] as const) {
        const changed = await trx(daily).where({ agrt_dt: day, agrt_gb_cd: '01' }).increment('ord_qty', 1000);
        expect(changed, daily).to.be.above(0);
        await trx.raw(
          `UPDATE ${monthly} m JOIN ${daily} d ON d.agrt_gb_cd = m.agrt_gb_cd AND ${keys.map((k) => `d.${k} = m.${k}`).join(' AND ')}
             SET m.ord_qty = m.ord_qty + 1000 WHERE d.agrt_dt = ? AND d.agrt_gb_cd = '01' AND m.agrt_mon = ?`,
          [day, `${day.slice(0, 7)}-01`],
        );
      }
      // And, as a build does, the list's running sums marked stale from its month (they are not moved).
      await trx('agg_cum_stale')
        .insert({ kind: 'category', from_mon: `${day.slice(0, 7)}-01` })
        .onConflict('kind')
        .merge();
      await trx('agg_built_day')
        .where({ kind: 'category', agrt_dt: day, agrt_hour: -1 })
        .update({ built_dtm: trx.raw('? - INTERVAL 1 SECOND', [latest!.at]) });
    });
    const uncached = createBackofficeApp({
      config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, STATISTICS_ANSWER_CACHE_SECONDS: '0' }),
      logger: testLogger(),
      knex: db.knex,
    });
    const computed = await get(uncached, CATEGORY);
    expect(computed.body, 'the tampered day changes the list').to.not.deep.equal(cached.body);
    const after = await get(shared, CATEGORY);
    expect(after.body).to.deep.equal(computed.body);
    // The day's true rows again, for the tests that follow.
    await rebuildAggregate(db.knex, { kind: 'category', day, requestedBy: 'cli' });
  });

  it('when two copies with a different N ask the TOP-N, then each gets its own N rows', async () => {
    const expected = categoryRows(a, { agrtGb: '01', from: RANGE.startDate, to: RANGE.endDate, built: days('2026-01-28', LATE_DAY) });
    expect(expected.length).to.be.greaterThan(4);
    for (const n of [4, 2, 4]) {
      const res = await get(app(redis, n), CATEGORY_TOP);
      expect(res.body, `N = ${n}`).to.deep.equal(expected.slice(0, n));
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  it('when identical requests miss together (as right after a build), then they share one computation and each answer is the recomputation', async () => {
    // The app's pool has one connection, held while the burst arrives: every request is in
    // before any computation can read, so sharing is certain rather than a race.
    const held = createKnex(db.url, { poolMax: 1 });
    const statements: string[] = [];
    held.on('query', (q: { sql: string }) => statements.push(q.sql));
    const burstPrefix = `${prefix}_burst`;
    try {
      const on = createBackofficeApp({
        config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, REDIS_PREFIX: burstPrefix }),
        logger: testLogger(),
        knex: held,
        redis,
      });
      // Whatever the earlier tests built: the recomputation covers the days built now.
      const builtRows = (await db.knex('agg_built_day').distinct('agrt_dt').where({ kind: 'category' })) as { agrt_dt: string }[];
      const built = builtRows.map((r) => r.agrt_dt);
      const expected = categoryRows(a, { agrtGb: '01', from: RANGE.startDate, to: RANGE.endDate, built });
      // One request alone (a different range, so nothing is kept for the burst): its statements.
      await request(on)
        .get(CATEGORY)
        .query({ ...RANGE, endDate: '2026-02-02' })
        .set('Authorization', ADMIN_AUTH);
      const perRequest = statements.length;
      statements.length = 0;
      const pool = held.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
      const connection = await pool.acquireConnection();
      const burst = Array.from({ length: 8 }, () => get(on, CATEGORY).then((r) => r));
      await new Promise((r) => setTimeout(r, 400));
      await pool.releaseConnection(connection);
      for (const res of await Promise.all(burst)) {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body).to.deep.equal({ totalCount: expected.length, payloads: expected });
      }
      // Each request reads the build version (one statement, one at a time on the one connection),
      // then misses: the first miss starts a computation, the misses that reach it while it runs
      // share the next, and one whose Redis reply comes after that one started waits for a third.
      // Usually 2, at most 3 seen in 30 runs; without sharing 8.
      const computations = (statements.length - 8) / (perRequest - 1);
      expect(computations, `${statements.length} statements, ${perRequest} for one request`).to.be.at.most(4);
    } finally {
      await held.destroy();
      const keys = await redis.keys(`${burstPrefix}:stat-answer:*`);
      if (keys.length) await redis.del(...keys);
    }
  });

  describe('kept answers read piece by piece', () => {
    const piecesPrefix = `${prefix}_pieces`;
    const cache = (pieceBytes: number) =>
      redisAnswerCache({
        knex: db.knex,
        redis,
        prefix: piecesPrefix,
        ttlSeconds: 60,
        logger: testLogger(),
        gzipMinBytes: 16384,
        pieceBytes,
      });
    // Korean text: a piece boundary falls inside a character's bytes.
    const value = { payloads: Array.from({ length: 40 }, (_, i) => ({ goodsNm: `상품 ${i} 😀`, ordAmt: i * 1000 })) };
    const kept = async (c: ReturnType<typeof cache>, query: object) => {
      const first = await c.answer('goods', 'pieces', query, keptRange, () => Promise.resolve(value));
      expect(first, 'the first answer is computed').to.have.property('json');
      return { json: (first as { json: string }).json, kept: await untilKept(c, 'pieces', query) };
    };
    afterEach(async () => {
      const keys = await redis.keys(`${piecesPrefix}:*`);
      if (keys.length) await redis.del(...keys);
    });

    it('when a kept answer is longer than a piece, then its pieces are the computed JSON byte for byte', async () => {
      const { json, kept: answer } = await kept(cache(7), { n: 1 });
      const pieces = await piecesOf(answer);
      expect(answer.bytes).to.equal(Buffer.byteLength(json));
      expect(pieces.length).to.equal(Math.ceil(answer.bytes / 7));
      expect(Buffer.concat(pieces).toString('utf8')).to.equal(json);
    });

    it('when a kept answer vanishes while it is read, then the reading fails instead of ending short', async () => {
      const { kept: answer } = await kept(cache(7), { n: 2 });
      const read = (async () => {
        let n = 0;
        for await (const _ of answer.pieces()) if (++n === 2) await redis.del(...(await redis.keys(`${piecesPrefix}:*`)));
      })();
      await read.then(
        () => expect.fail('read to the end'),
        (err: Error) => expect(err.message).to.match(/ended at byte 14 of \d+/),
      );
    });

    it('when a kept answer has less than 5 s to live, then it is computed again', async () => {
      const c = cache(KEPT_PIECE_BYTES);
      const { json } = await kept(c, { n: 3 });
      const [key] = await redis.keys(`${piecesPrefix}:*`);
      await redis.pexpire(key!, 3000);
      let computed = 0;
      const answer = await c.answer('goods', 'pieces', { n: 3 }, keptRange, () => Promise.resolve((computed++, value)));
      expect(computed).to.equal(1);
      expect(answer).to.deep.equal({ json });
    });

    it('when the list is asked over HTTP and kept, then the body arrives whole with its length', async () => {
      const on = app(redis);
      const first = await get(on, GOODS);
      await new Promise((r) => setTimeout(r, 200));
      const second = await get(on, GOODS);
      expect(second.status).to.equal(200);
      expect(second.headers['content-length']).to.equal(String(Buffer.byteLength(second.text)));
      expect(second.headers['content-type']).to.match(/^application\/json/);
      expect(second.text).to.equal(first.text);
    });
  });

  describe('gzipped answers for callers that accept gzip', () => {
    const gzipPrefix = `${prefix}_gzip`;
    const GZIP_MIN_BYTES = 16384;
    const cache = () =>
      redisAnswerCache({
        knex: db.knex,
        redis,
        prefix: gzipPrefix,
        ttlSeconds: 60,
        logger: testLogger(),
        gzipMinBytes: GZIP_MIN_BYTES,
        pieceBytes: 4096,
      });
    const rowsOf = (n: number) => ({ payloads: Array.from({ length: n }, (_, i) => ({ goodsNm: `상품 ${i} 블루 😀`, ordAmt: i * 1000 })) });
    const bodyOf = async (kept: KeptAnswer) => Buffer.concat(await piecesOf(kept));
    afterEach(async () => {
      const keys = await redis.keys(`${gzipPrefix}:*`);
      if (keys.length) await redis.del(...keys);
    });

    it('when a long answer is asked with and without gzip, then the gzip form unpacks to the very JSON and the plain form is that JSON', async () => {
      const c = cache();
      const value = rowsOf(600);
      const json = JSON.stringify(value);
      expect(Buffer.byteLength(json)).to.be.at.least(GZIP_MIN_BYTES);
      const first = await c.answer('goods', 'gzip', { n: 1 }, keptRange, () => Promise.resolve(value), { gzip: true });
      if (!('json' in first) || !first.gzipped) return expect.fail(`computed without its gzip: ${JSON.stringify(Object.keys(first))}`);
      expect(first.json).to.equal(json);
      expect(gunzipSync(first.gzipped).toString('utf8')).to.equal(json);
      expect(first.gzipped.length, 'gzip is shorter').to.be.below(Buffer.byteLength(json) / 3);

      const zipped = await untilKept(c, 'gzip', { n: 1 }, true);
      expect(zipped.gzipped).to.equal(true);
      const zippedBody = await bodyOf(zipped);
      expect(zipped.bytes).to.equal(zippedBody.length);
      expect(gunzipSync(zippedBody).toString('utf8')).to.equal(json);

      const plain = await untilKept(c, 'gzip', { n: 1 });
      expect(plain.gzipped).to.equal(false);
      expect((await bodyOf(plain)).toString('utf8')).to.equal(json);
    });

    it('when a short answer is asked with gzip, then it is computed and kept as plain JSON only', async () => {
      const c = cache();
      const value = rowsOf(3);
      const first = await c.answer('goods', 'gzip', { n: 2 }, keptRange, () => Promise.resolve(value), { gzip: true });
      expect(first).to.deep.equal({ json: JSON.stringify(value) });
      const kept = await untilKept(c, 'gzip', { n: 2 }, true);
      expect(kept.gzipped).to.equal(false);
      expect((await bodyOf(kept)).toString('utf8')).to.equal(JSON.stringify(value));
      expect(await redis.keys(`${gzipPrefix}:*:gzip`)).to.have.lengthOf(0);
    });

    it('when the goods list is asked over HTTP with and without Accept-Encoding, then gzip goes only to callers that accept it and every body is the recomputation', async () => {
      // The arranged data's goods list is a few kilobytes (36 goods): this copy gzips from 2 KB.
      const server: Server = app(redis, 10, 2048).listen(0);
      await once(server, 'listening');
      const raw = (acceptEncoding?: string) =>
        new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
          const query = new URLSearchParams({ ...RANGE, startDate: '2026-01-26', endDate: '2026-02-05' });
          const req = httpRequest(
            {
              port: (server.address() as AddressInfo).port,
              path: `${GOODS}?${query.toString()}`,
              headers: { authorization: ADMIN_AUTH, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on('data', (c: Buffer) => chunks.push(c));
              res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            },
          );
          req.on('error', reject).end();
        });
      try {
        const builtRows = (await db.knex('agg_built_day').distinct('agrt_dt').where({ kind: 'goods' })) as { agrt_dt: string }[];
        const expected = goodsRows(a, { agrtGb: '01', from: '2026-01-26', to: '2026-02-05', built: builtRows.map((r) => r.agrt_dt) });
        const expectedJson = JSON.stringify({ totalCount: expected.length, payloads: expected });
        expect(Buffer.byteLength(expectedJson), 'the list is long enough to be gzipped').to.be.at.least(2048);

        const computed = await raw('gzip, deflate, br');
        await new Promise((r) => setTimeout(r, 200));
        const kept = await raw('gzip, deflate, br');
        for (const [label, res] of [
          ['computed', computed],
          ['kept', kept],
        ] as const) {
          expect(res.headers['content-encoding'], label).to.equal('gzip');
          expect(res.headers.vary, label).to.match(/Accept-Encoding/i);
          expect(res.headers['content-length'], label).to.equal(String(res.body.length));
          expect(JSON.parse(gunzipSync(res.body).toString('utf8')), label).to.deep.equal(JSON.parse(expectedJson));
        }
        for (const acceptEncoding of [undefined, 'gzip;q=0', 'br', 'identity']) {
          const plain = await raw(acceptEncoding);
          expect(plain.headers['content-encoding'], String(acceptEncoding)).to.equal(undefined);
          expect(plain.headers.vary, String(acceptEncoding)).to.match(/Accept-Encoding/i);
          expect(JSON.parse(plain.body.toString('utf8')), String(acceptEncoding)).to.deep.equal(JSON.parse(expectedJson));
        }
      } finally {
        server.close();
      }
    });
  });

  it('when Redis cannot be reached, then the list is computed and equals the recomputation', async () => {
    const down = createRedis('redis://127.0.0.1:1/0', testLogger(), { failFast: true });
    try {
      const res = await get(app(down), GOODS);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const expected = goodsRows(a, { agrtGb: '01', from: RANGE.startDate, to: RANGE.endDate, built: days('2026-01-28', LATE_DAY) });
      expect(res.body).to.deep.equal({ totalCount: expected.length, payloads: expected });
    } finally {
      down.disconnect();
    }
  });
});
