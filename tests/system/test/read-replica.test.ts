import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { createKnex, createReadPool, ensureDatabase, migrateLatest, withDatabase, type Knex, type ReadPool } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { readReplicaOptions, loadBackofficeConfig, createBackofficeApp } from '@bo/backoffice';
import { ADMIN, bearer, generateSourceData, insertSourceData, startReplicatedMariaDb, testLogger, TEST_JWT_SECRET } from '@bo/testing';
import type { ReplicatedMariaDb } from '@bo/testing';

const DAYS = ['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-02'];
const RANGE = { startDate: '2026-03-30', endDate: '2026-04-02' };
const AUTH = bearer(ADMIN);
/** Statistics from the aggregates, from the raw events, and a dashboard read. */
const READS: [string, Record<string, string>][] = [
  ['/api/bo/v1/statistics/categoryStatus/getCategoryStatusList', { ...RANGE, agrtGb: '01' }],
  ['/api/bo/v1/statistics/goodsStatus/getGoodsStatusList', { ...RANGE, agrtGb: '02' }],
  ['/api/bo/v1/statistics/periodBasedStatus/getPeriodBasedStatusList', { calendarType: 'date', ...RANGE, agrtGb: '01' }],
  ['/api/bo/v2/dashboard/goods/sale-stock-status', {}],
];

async function selectCount(knex: Knex): Promise<number> {
  const [rows] = (await knex.raw("SHOW GLOBAL STATUS LIKE 'Com_select'")) as [{ Value: string }[]];
  return Number(rows[0]!.Value);
}

describe('read replicas (BO_DATABASE_READ_URL): a private primary and a GTID replica on loopback', function () {
  this.timeout(120_000);
  let pair: ReplicatedMariaDb;
  let primaryUrl: string;
  let replicaUrl: string;
  let primary: Knex;
  let replicaAdmin: Knex;
  const pools: ReadPool[] = [];

  /** The real back-office app reading through a read pool made from its own config. */
  const appOn = (whenNoReplica: 'primary' | 'unavailable'): Express => {
    const config = loadBackofficeConfig({
      NODE_ENV: 'test',
      JWT_SECRET: TEST_JWT_SECRET,
      BO_DATABASE_URL: primaryUrl,
      BO_DATABASE_READ_URL: replicaUrl,
      BO_READ_MAX_LAG_SECONDS: '5',
      BO_READ_CHECK_MS: '200',
      BO_READ_WHEN_NO_REPLICA: whenNoReplica,
    });
    const pool = createReadPool(readReplicaOptions(config), { poolMax: 4 });
    pools.push(pool);
    return createBackofficeApp({ config, logger: testLogger(), knex: pool.knex });
  };
  const primaryApp = (): Express =>
    createBackofficeApp({
      config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
      logger: testLogger(),
      knex: primary,
    });
  const answers = async (app: Express) => {
    const out = [];
    for (const [path, query] of READS) {
      const res = await request(app).get(path).query(query).set('Authorization', AUTH);
      out.push({ path, status: res.status, body: res.body as unknown });
    }
    return out;
  };

  before(async () => {
    pair = await startReplicatedMariaDb();
    primaryUrl = withDatabase(pair.primary.serverUrl, 'bo');
    replicaUrl = withDatabase(pair.replica.serverUrl, 'bo');
    // Created on the primary only: the replica gets the database, schema and rows by replication.
    await ensureDatabase(primaryUrl);
    primary = createKnex(primaryUrl, { poolMax: 4 });
    await migrateLatest(primary, boMigrations);
    await insertSourceData(primary, generateSourceData(16001, DAYS, { goods: 20, orders: 150, inflows: 300 }));
    for (const day of DAYS)
      for (const kind of ['category', 'goods', 'payway', 'entr'] as const)
        await rebuildAggregate(primary, { kind, day, requestedBy: 'cli' });
    await pair.caughtUp();
    replicaAdmin = createKnex(replicaUrl, { poolMax: 1 });
  });

  after(async () => {
    for (const pool of pools) await pool.destroy();
    await primary?.destroy();
    await replicaAdmin?.destroy();
    await pair?.destroy();
  });

  it('when reports are read with a current replica, then they come from the replica and equal the primary’s answers', async () => {
    const expected = await answers(primaryApp());
    expect(expected.map((a) => a.status)).to.deep.equal([200, 200, 200, 200]);
    expect(JSON.stringify(expected[0]!.body)).to.include('"payloads":[{');

    const app = appOn('primary');
    const [replicaBefore, primaryBefore] = [await selectCount(replicaAdmin), await selectCount(primary)];
    const got = await answers(app);
    const [replicaAfter, primaryAfter] = [await selectCount(replicaAdmin), await selectCount(primary)];
    expect(got).to.deep.equal(expected);
    // Our own SHOW STATUS is no SELECT; the reports' statements all ran on the replica.
    expect(replicaAfter - replicaBefore, 'SELECTs on the replica').to.be.at.least(READS.length);
    expect(primaryAfter - primaryBefore, 'SELECTs on the primary').to.equal(0);
  });

  it('when the replica stops applying and the primary changes, then reads fall back to the primary and see the change', async () => {
    const app = appOn('primary');
    await answers(app);
    await pair.pauseApplier();
    try {
      await primary('ord_stat_evt')
        .where({ agrt_gb_cd: '01' })
        .update({ qty: primary.raw('qty + 1') });
      for (const day of DAYS) await rebuildAggregate(primary, { kind: 'category', day, requestedBy: 'cli' });
      const expected = await answers(primaryApp());
      // The pool notices within one check; a read pool never waits for it.
      await new Promise((r) => setTimeout(r, 500));
      expect(await answers(app)).to.deep.equal(expected);
    } finally {
      await pair.resumeApplier();
      await pair.caughtUp();
    }
  });

  it('when a day is rebuilt on the primary while the replica is read, then the replica shows the old day or the new day whole, never a mix', async () => {
    const day = DAYS[1]!;
    // Count and total of the day's goods rows: a half-applied rebuild would show a count or sum of neither.
    const snapshot = async (knex: Knex) => {
      const [rows] = (await knex.raw('SELECT COUNT(*) AS n, COALESCE(SUM(ord_qty), 0) AS q FROM agg_goods_daily WHERE agrt_dt = ?', [
        day,
      ])) as [{ n: number; q: number }[]];
      return `${rows[0]!.n}/${rows[0]!.q}`;
    };
    await pair.caughtUp();
    const before = await snapshot(replicaAdmin);
    await primary('ord_stat_evt')
      .whereRaw('DATE(evt_dtm) = ?', [day])
      .update({ qty: primary.raw('qty + 2') });
    const seen = new Set<string>();
    let building = true;
    let reads = 0;
    const reader = (async () => {
      for (; building; reads++) seen.add(await snapshot(replicaAdmin));
    })();
    await rebuildAggregate(primary, { kind: 'goods', day, requestedBy: 'cli' });
    await pair.caughtUp();
    building = false;
    await reader;
    const after = await snapshot(replicaAdmin);
    expect(after).to.not.equal(before);
    expect(after).to.equal(await snapshot(primary));
    expect(reads, 'replica reads during the rebuild').to.be.greaterThan(2);
    expect([...seen].filter((v) => v !== before && v !== after)).to.deep.equal([]);
  });

  describe('when the replica is stopped', () => {
    let fallback: Express;
    let refusing: Express;
    before(async () => {
      fallback = appOn('primary');
      refusing = appOn('unavailable');
      // Both pools hold replica connections when it goes.
      await answers(fallback);
      await answers(refusing);
      await pair.replica.stop();
    });
    after(async () => {
      await pair.replica.start();
      await pair.caughtUp();
    });

    it('then with BO_READ_WHEN_NO_REPLICA=primary every read answers from the primary, no 5xx', async () => {
      const expected = await answers(primaryApp());
      for (let round = 0; round < 3; round++) expect(await answers(fallback)).to.deep.equal(expected);
    });

    it('then with BO_READ_WHEN_NO_REPLICA=unavailable every read answers 900/1505 (httpStatus 503) with Retry-After, never a 500', async () => {
      for (const [path, query] of READS) {
        const res = await request(refusing).get(path).query(query).set('Authorization', AUTH);
        expect(res.status, path).to.equal(900);
        expect(res.body).to.include({ code: '1505', httpStatus: 503 });
        expect(res.headers['retry-after']).to.equal('5');
      }
    });
  });
});
