import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import request from 'supertest';
import { findOperation } from '@bo/contracts';
import { createKnex, type Knex } from '@bo/db';
import { createTestDatabase, TEST_SERVER_URL, type TestDatabase, freePort, captureLogs, type CapturedLogs } from '@bo/testing';
import { mountOperation } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';
import { tcpRelay, type TcpRelay } from './support/tcp-relay.ts';

const UNAVAILABLE = { code: '1503', message: 'The database is unavailable; try again shortly', httpStatus: 503, isProcess: false };

/** The URL of the test database reached through another loopback port. */
function viaPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

/** An app whose one route runs `SELECT SLEEP(…)` tagged with the request id, on the given pool. */
function sleepingApp(knex: () => Knex, logs: CapturedLogs) {
  return kitApp({
    logger: logs.logger,
    hardening: { requestTimeoutMs: 20_000 },
    routes: (r) => {
      r.get('/report', async (req, res) => {
        const [rows] = (await knex().raw(`SELECT SLEEP(?) AS slept /* ${String(req.get('x-request-id'))} */`, [
          Number(req.query.seconds ?? 0),
        ])) as [unknown[]];
        res.json(rows);
      });
      mountOperation(r, findOperation('getAiGoodsListV2'), async () => knex().raw('SELECT 1'));
    },
  });
}

/** The refused answer and its log: 900/1503, Retry-After, a warn line with the reason, no error line. */
function expectUnavailable(res: request.Response, logs: CapturedLogs, requestId: string, reason: RegExp) {
  expect(res.status, JSON.stringify(res.body)).to.equal(900);
  expect(res.body).to.deep.equal(UNAVAILABLE);
  expect(res.headers['retry-after']).to.equal('5');
  const lines = logs.of(requestId);
  expect(
    lines.filter((l) => l.level === 'error'),
    'logged as an unexpected error',
  ).to.deep.equal([]);
  const warn = lines.find((l) => l.code === '1503');
  expect(warn).to.include({ level: 'warn' });
  expect(String(warn?.reason)).to.match(reason);
}

describe('database unreachable: connection failures answer 503 with Retry-After, logged as warnings', function () {
  this.timeout(30_000);
  let db: TestDatabase;
  let admin: Knex;
  let relay: TcpRelay;
  const pools: Knex[] = [];
  const pool = (url: string) => {
    const knex = createKnex(url, { poolMax: 2, acquireTimeoutMs: 5_000 });
    pools.push(knex);
    return knex;
  };

  /** Resolves once the statement tagged `marker` runs on the server; its connection id. */
  async function running(marker: string): Promise<number> {
    for (let i = 0; i < 200; i++) {
      const [rows] = (await admin.raw(
        "SELECT ID AS id FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'",
        [`%${marker}%`],
      )) as [{ id: number }[]];
      if (rows[0]) return rows[0].id;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`the statement ${marker} never ran`);
  }

  before(async () => {
    db = await createTestDatabase('db_unavailable', []);
    admin = db.knex;
    const server = new URL(TEST_SERVER_URL);
    relay = await tcpRelay(server.hostname, Number(server.port || 3306));
  });
  after(async () => {
    for (const knex of pools) await knex.destroy();
    await relay?.close();
    await db?.drop();
  });

  it('when nothing listens on the database port (ECONNREFUSED), then 900 with UNAVAILABLE (1503, httpStatus 503), Retry-After, and a warn line naming the cause', async () => {
    const knex = pool(viaPort(db.url, await freePort()));
    const logs = captureLogs('kit-refused');
    const app = sleepingApp(() => knex, logs);
    expectUnavailable(await request(app).get(`${PREFIX}/report`).set('X-Request-Id', 'refused-1'), logs, 'refused-1', /ECONNREFUSED/);

    const envelope = await request(app).get(`${PREFIX}/v2/goods/ai/getAiGoodsList`);
    expect(envelope.status).to.equal(900);
    expect(envelope.body).to.include({ ...UNAVAILABLE, error: true, payload: null });
    expect(envelope.headers['retry-after']).to.equal('5');
  });

  for (const [how, reason] of [
    ['end', /PROTOCOL_CONNECTION_LOST/],
    ['reset', /ECONNRESET/],
  ] as const) {
    it(`when the connection is cut (${how}) while a statement runs, then 1503 with Retry-After, and the pool serves again with new connections`, async () => {
      const knex = pool(viaPort(db.url, relay.port));
      const logs = captureLogs(`kit-cut-${how}`);
      const app = sleepingApp(() => knex, logs);
      const id = `cut-${how}-${randomUUID()}`;
      const answer = request(app)
        .get(`${PREFIX}/report?seconds=10`)
        .set('X-Request-Id', id)
        .then((r) => r);
      await running(id);
      relay.cut(how);
      expectUnavailable(await answer, logs, id, reason);
      expect((await request(app).get(`${PREFIX}/report?seconds=0`)).body).to.deep.equal([{ slept: 0 }]);
    });
  }

  it('when the server kills the connection of a running statement (KILL CONNECTION), then 1503 with Retry-After', async () => {
    const knex = pool(db.url);
    const logs = captureLogs('kit-killed');
    const app = sleepingApp(() => knex, logs);
    const id = `killed-${randomUUID()}`;
    const answer = request(app)
      .get(`${PREFIX}/report?seconds=10`)
      .set('X-Request-Id', id)
      .then((r) => r);
    await admin.raw(`KILL CONNECTION ${await running(id)}`);
    expectUnavailable(await answer, logs, id, /PROTOCOL_CONNECTION_LOST|1927/);
  });

  describe('server errors that a shared test server cannot be made to send', () => {
    /** As mysql2 raises a server's error packet: code, errno, sqlState, sqlMessage, not fatal. */
    const serverError = (errno: number, code: string, message: string) =>
      Object.assign(new Error(message), { errno, code, sqlState: '08S01', sqlMessage: message });
    const cases: { name: string; err: Error; body: object }[] = [
      { name: 'shutting down (1053)', err: serverError(1053, 'ER_SERVER_SHUTDOWN', 'Server shutdown in progress'), body: UNAVAILABLE },
      {
        name: 'connection killed (MariaDB 1927)',
        err: serverError(1927, 'ER_CONNECTION_KILLED', 'Connection was killed'),
        body: UNAVAILABLE,
      },
      {
        name: 'gone away (2006) from a proxy',
        err: serverError(2006, 'CR_SERVER_GONE_ERROR', 'MySQL server has gone away'),
        body: UNAVAILABLE,
      },
      {
        name: 'lost connection (2013) from a proxy',
        err: serverError(2013, 'CR_SERVER_LOST', 'Lost connection to MySQL server during query'),
        body: UNAVAILABLE,
      },
      {
        name: 'too many connections (1040)',
        err: Object.assign(serverError(1040, 'ER_CON_COUNT_ERROR', 'Too many connections'), { fatal: true }),
        body: { ...UNAVAILABLE, message: 'The database is overloaded; try again shortly' },
      },
      {
        name: 'a refused connection wrapped as the cause of another error',
        err: new Error('could not read the report', {
          cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED', errno: -111, fatal: true }),
        }),
        body: UNAVAILABLE,
      },
    ];
    for (const c of cases) {
      it(`when the driver reports ${c.name}, then 900/1503 with Retry-After`, async () => {
        const app = kitApp({ routes: (r) => r.get('/fails', () => Promise.reject(c.err)) });
        const res = await request(app).get(`${PREFIX}/fails`);
        expect(res.status).to.equal(900);
        expect(res.body).to.deep.equal(c.body);
        expect(res.headers['retry-after']).to.equal('5');
      });
    }

    it('when a lock-wait timeout (1205) or a non-fatal EPIPE (a client that hung up) reaches the handler, then it stays an unexpected 500: not an outage', async () => {
      for (const err of [
        serverError(1205, 'ER_LOCK_WAIT_TIMEOUT', 'Lock wait timeout exceeded; try restarting transaction'),
        Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32 }),
      ]) {
        const logs = captureLogs('kit-not-outage');
        const app = kitApp({ logger: logs.logger, routes: (r) => r.get('/fails', () => Promise.reject(err)) });
        const res = await request(app).get(`${PREFIX}/fails`).set('X-Request-Id', 'not-outage');
        expect(res.status, err.message).to.equal(500);
        expect(res.body).to.include({ code: '1500', httpStatus: 500 });
        expect(res.headers['retry-after']).to.equal(undefined);
        expect(logs.of('not-outage').find((l) => l.level === 'error')?.message).to.match(/^unexpected error/);
      }
    });
  });
});
