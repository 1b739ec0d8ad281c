import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { findOperation } from '@bo/contracts';
import { createKnex, streamRows, type Knex } from '@bo/db';
import { createTestDatabase, TEST_SERVER_URL, type TestDatabase, captureLogs } from '@bo/testing';
import { mountOperation } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/** A promise with its resolve handle, to let a test decide when a held connection is given back. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const OVERLOADED = { code: '1503', message: 'The database is overloaded; try again shortly', httpStatus: 503, isProcess: false };

/**
 * A read of `n` numbered rows from MariaDB's sequence engine, as a query builder (what repositories
 * stream); the padding makes the result far larger than the socket buffers, so a resting reader
 * really holds the statement open.
 */
const numbers = (knex: Knex, n: number) =>
  knex.select('seq', knex.raw("REPEAT('x', 100) AS pad")).from(`seq_1_to_${n}`).where('seq', '>', 0);

describe('overload: database time limits answer 503, never 500 or a hang', function () {
  this.timeout(30_000);
  let db: TestDatabase;
  const pools: Knex[] = [];
  /** A pool of the test database with the service settings under test. */
  const pool = (options: Parameters<typeof createKnex>[1]) => {
    const knex = createKnex(db.url, options);
    pools.push(knex);
    return knex;
  };

  before(async () => {
    db = await createTestDatabase('overload', []);
  });
  after(async () => {
    for (const knex of pools) await knex.destroy();
    await db?.drop();
  });

  describe('statement time limit (DB_STATEMENT_TIMEOUT_MS)', () => {
    it('when a pool has a statement limit, then each of its connections carries it and a longer statement is stopped by the server (1969)', async () => {
      const limited = pool({ poolMax: 2, statementTimeoutMs: 300 });
      const [[row]] = (await limited.raw('SELECT @@SESSION.max_statement_time AS t')) as [[{ t: number }]];
      expect(row.t).to.equal(0.3);
      const err = (await limited.raw('SELECT SLEEP(5)').then(
        () => undefined,
        (e: unknown) => e,
      )) as { errno?: number } | undefined;
      expect(err?.errno).to.equal(1969);
    });

    it('when a pool has no statement limit (the aggregation worker, migrations), then its statements run as long as they take', async () => {
      const unlimited = pool({ poolMax: 1 });
      const [[row]] = (await unlimited.raw('SELECT @@SESSION.max_statement_time AS t, SLEEP(0.5) AS slept')) as [
        [{ t: number; slept: number }],
      ];
      expect(row).to.deep.equal({ t: 0, slept: 0 });
    });

    it('when a request runs a statement over the limit, then 900 with UNAVAILABLE (1503, httpStatus 503), Retry-After and a warn line naming the cause', async () => {
      const knex = pool({ poolMax: 2, statementTimeoutMs: 300 });
      const logs = captureLogs('kit-overload');
      const app = kitApp({
        logger: logs.logger,
        docs: 'backoffice',
        hardening: { requestTimeoutMs: 20_000 },
        routes: (r) => {
          r.get('/slow-report', async (_req, res) => {
            const [rows] = (await knex.raw('SELECT SLEEP(5) AS slept')) as [unknown[]];
            res.json(rows);
          });
          mountOperation(r, findOperation('getAiGoodsListV2'), async () => knex.raw('SELECT SLEEP(5)'));
        },
      });
      const res = await request(app).get(`${PREFIX}/slow-report`).set('X-Request-Id', 'slow-1').timeout(10_000);
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal(OVERLOADED);
      expect(res.headers['retry-after']).to.equal('5');
      const line = logs.of('slow-1').find((l) => l.code === '1503');
      expect(line).to.include({ level: 'warn', code: '1503', reason: 'the database stopped the statement at its time limit' });

      const envelope = await request(app).get(`${PREFIX}/v2/goods/ai/getAiGoodsList`).timeout(10_000);
      expect(envelope.status).to.equal(900);
      expect(envelope.body).to.include({ ...OVERLOADED, error: true, payload: null });
      expect(envelope.headers['retry-after']).to.equal('5');
    });

    it('when the server reports MySQL 8 max_execution_time (3024), then the answer is the same 503', async () => {
      const app = kitApp({
        routes: (r) =>
          r.get('/mysql-timeout', () => {
            // What mysql2 raises on MySQL 8 (no MySQL server here): errno 3024, ER_QUERY_TIMEOUT.
            throw Object.assign(new Error('Query execution was interrupted, maximum statement execution time exceeded'), {
              errno: 3024,
              code: 'ER_QUERY_TIMEOUT',
            });
          }),
      });
      const res = await request(app).get(`${PREFIX}/mysql-timeout`);
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal(OVERLOADED);
      expect(res.headers['retry-after']).to.equal('5');
    });
  });

  describe('pool acquire timeout (DB_ACQUIRE_TIMEOUT_MS)', () => {
    it('when the only pool connection is held, then the next request answers 503 with Retry-After once the acquire limit passes, and the first still completes', async () => {
      const knex = pool({ poolMax: 1, acquireTimeoutMs: 300 });
      const logs = captureLogs('kit-pool');
      const held = deferred();
      const release = deferred();
      const app = kitApp({
        logger: logs.logger,
        hardening: { requestTimeoutMs: 20_000 },
        routes: (r) => {
          r.get('/hold', async (_req, res) => {
            await knex.transaction(async (trx) => {
              await trx.raw('SELECT 1');
              held.resolve();
              await release.promise;
            });
            res.json({ held: true });
          });
          r.get('/read', async (_req, res) => {
            const [rows] = (await knex.raw('SELECT 1 AS one')) as [unknown[]];
            res.json(rows);
          });
        },
      });
      const firstDone = request(app)
        .get(`${PREFIX}/hold`)
        .timeout(10_000)
        .then((r) => r);
      await held.promise;
      try {
        const second = await request(app).get(`${PREFIX}/read`).set('X-Request-Id', 'pool-1').timeout(10_000);
        expect(second.status).to.equal(900);
        expect(second.body).to.deep.equal(OVERLOADED);
        expect(second.headers['retry-after']).to.equal('5');
        expect(logs.of('pool-1').find((l) => l.code === '1503')).to.include({
          level: 'warn',
          reason: 'no database connection came free in time',
        });
      } finally {
        release.resolve();
      }
      expect((await firstDone).body).to.deep.equal({ held: true });
      expect((await request(app).get(`${PREFIX}/read`)).body).to.deep.equal([{ one: 1 }]);
    });
  });

  describe('streamed reads (DB_STREAM_STATEMENT_TIMEOUT_MS)', () => {
    /** Reads every row, resting once after `restAfter` rows the way a download waits on a slow client. */
    async function readWithRest(rows: AsyncIterable<{ seq: number }>, restAfter: number, restMs: number) {
      let count = 0;
      let sum = 0;
      for await (const row of rows) {
        count += 1;
        sum += row.seq;
        if (count === restAfter) await new Promise((resolve) => setTimeout(resolve, restMs));
      }
      return { count, sum };
    }

    it('when a streamed read outlasts the statement limit because its reader is slow, then it completes under the stream limit', async () => {
      const knex = pool({ poolMax: 1, statementTimeoutMs: 300, streamStatementTimeoutMs: 20_000 });
      const n = 100_000;
      expect(await readWithRest(streamRows(knex, numbers(knex, n)), 10, 1_000)).to.deep.equal({ count: n, sum: (n * (n + 1)) / 2 });
      // The exemption is for that statement only: the connection keeps its limit.
      const err = (await knex.raw('SELECT SLEEP(5)').then(
        () => undefined,
        (e: unknown) => e,
      )) as { errno?: number } | undefined;
      expect(err?.errno).to.equal(1969);
    });

    it('when the database was unreachable at the first streamed read, then a later one works once it is back', async () => {
      // A port nothing listens on at first; later a plain TCP relay to the real server.
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      const target = new URL(TEST_SERVER_URL);
      const url = new URL(db.url);
      url.port = String(port);
      url.hostname = '127.0.0.1';
      const viaRelay = createKnex(url.toString(), {
        poolMax: 1,
        acquireTimeoutMs: 2_000,
        statementTimeoutMs: 300,
        streamStatementTimeoutMs: 20_000,
      });
      pools.push(viaRelay);
      const down = await readWithRest(streamRows(viaRelay, numbers(viaRelay, 10)), 0, 0).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(down?.message).to.match(/ECONNREFUSED/);

      const relay: Server = createServer((client) => {
        const upstream = connect(Number(target.port || 3306), target.hostname);
        client.pipe(upstream).pipe(client);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
      try {
        expect(await readWithRest(streamRows(viaRelay, numbers(viaRelay, 10)), 0, 0)).to.deep.equal({ count: 10, sum: 55 });
      } finally {
        await viaRelay.destroy();
        pools.splice(pools.indexOf(viaRelay), 1);
        relay.close();
      }
    });

    it('when a streamed read outlasts the stream limit, then the server stops it (1969) and the reader sees the error', async () => {
      const knex = pool({ poolMax: 1, statementTimeoutMs: 20_000, streamStatementTimeoutMs: 300 });
      const err = await readWithRest(streamRows(knex, numbers(knex, 100_000)), 10, 1_000).then(
        () => undefined,
        (e: unknown) => e as { errno?: number },
      );
      expect(err?.errno).to.equal(1969);
    });
  });
});
