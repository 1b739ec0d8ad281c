import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import request from 'supertest';
import { eachDay, migrateLatest, partitionsOf, selectRows, type Knex } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { createBackofficeApp, loadBackofficeConfig } from '@bo/backoffice';
import {
  ADMIN,
  bearer,
  createTestDatabase,
  generateSourceData,
  insertSourceData,
  testLogger,
  TEST_JWT_SECRET,
  type TestDatabase,
} from '@bo/testing';

const WORKER_DIR = fileURLToPath(new URL('../../../services/aggregation-worker/', import.meta.url));
const PARTITIONING = '0003-bo-event-partitions';
/** Events in January to March 2026; "now" is the real date, months later. */
const DAYS = [...eachDay('2026-01-20', '2026-02-10'), '2026-03-05', '2026-03-06'];
const AUTH = bearer(ADMIN);
const DAILY = ['category', 'payway', 'goods', 'entr', 'period'] as const;

/** Events and inflow rows per month, counted by the database the way a reader would. */
async function perMonth(knex: Knex): Promise<Record<string, string>> {
  const rows = await selectRows<{ t: string; m: string; n: number; amt: number }>(
    knex,
    `SELECT 'evt' AS t, DATE_FORMAT(evt_dtm, '%Y-%m') AS m, COUNT(*) AS n, SUM(amt) AS amt FROM ord_stat_evt GROUP BY m
     UNION ALL SELECT 'inflow', DATE_FORMAT(inflow_dtm, '%Y-%m'), COUNT(*), 0 FROM goods_inflow_log GROUP BY 2 ORDER BY 1, 2`,
  );
  return Object.fromEntries(rows.map((r) => [`${r.t} ${r.m}`, `${r.n}/${r.amt}`]));
}

/** `pnpm retention` as operations run it. */
function retention(db: TestDatabase, keepMonths: number) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/retention.ts', '--keep-months', String(keepMonths)], {
    cwd: WORKER_DIR,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', BO_DATABASE_URL: db.url },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout) as {
    dropped: { table: string; month: string }[];
    kept: { table: string; month: string; reason: string }[];
    added: { table: string; months: string[] }[];
  };
}

/** Months between the month of `now` and 2026-01: keeping this many keeps February on, drops January. */
function keepFromFebruary(): number {
  const now = new Date();
  return (now.getFullYear() - 2026) * 12 + now.getMonth() - 1;
}

describe('month partitions of ord_stat_evt and goods_inflow_log', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let original: Record<string, string>;

  before(async () => {
    // A database as it was before partitioning, holding events already.
    db = await createTestDatabase(
      'partitions',
      boMigrations.filter((m) => m.name !== PARTITIONING),
    );
    await insertSourceData(db.knex, generateSourceData(16005, DAYS, { goods: 12, orders: 300, inflows: 600 }));
    original = await perMonth(db.knex);
  });
  after(async () => db?.drop());

  it('when the migration runs on the existing rows, then every row is kept and each month is its own partition', async () => {
    expect(await partitionsOf(db.knex, 'ord_stat_evt')).to.deep.equal([]);
    expect(await migrateLatest(db.knex, boMigrations)).to.deep.equal([PARTITIONING]);
    expect(await perMonth(db.knex)).to.deep.equal(original);
    for (const table of ['ord_stat_evt', 'goods_inflow_log'] as const) {
      const parts = await partitionsOf(db.knex, table);
      const months = parts.map((p) => p.month);
      expect(months[0], 'p_before first').to.equal(null);
      expect(months[months.length - 1], 'p_future last').to.equal(null);
      expect(months).to.include.members(['2026-01', '2026-02', '2026-03']);
      for (const m of ['2026-01', '2026-02']) {
        const [row] = await selectRows<{ n: number }>(db.knex, `SELECT COUNT(*) AS n FROM ${table} PARTITION (p${m.replace('-', '')})`);
        const key = `${table === 'ord_stat_evt' ? 'evt' : 'inflow'} ${m}`;
        expect(`${row!.n}`, key).to.equal(original[key]!.split('/')[0]);
      }
    }
  });

  it('when reports over one week of February run and a February day is built, then EXPLAIN PARTITIONS of each of their event queries reads February only', async () => {
    const seen: { sql: string; bindings: unknown[] }[] = [];
    const onQuery = (q: { sql: string; bindings?: unknown[] }) => {
      if (/ord_stat_evt|goods_inflow_log/.test(q.sql)) seen.push({ sql: q.sql, bindings: q.bindings ?? [] });
    };
    db.knex.on('query', onQuery);
    const app = createBackofficeApp({
      config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
      logger: testLogger(),
      knex: db.knex,
    });
    const range = { startDate: '2026-02-03', endDate: '2026-02-09' };
    for (const [path, query] of [
      ['/api/bo/v1/statistics/periodBasedStatus/getPeriodBasedStatusList', { calendarType: 'date', ...range, agrtGb: '01' }],
      ['/api/bo/v1/statistics/hourBasedStatus/getHourBasedStatusList', { targetDate: '2026-02-05', agrtGb: '02' }],
    ] as const) {
      const res = await request(app).get(path).query(query).set('Authorization', AUTH);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    // The worker's reads of one day too: the inflow log is read only by its builds.
    await rebuildAggregate(db.knex, { kind: 'goods', day: '2026-02-05', requestedBy: 'cli' });
    await rebuildAggregate(db.knex, { kind: 'inflow', day: '2026-02-05', requestedBy: 'cli' });
    db.knex.off('query', onQuery);
    // Queries by time range; a look-up by id (the late-data mark) has no month to prune to.
    const ranged = seen.filter((q) => /evt_dtm|inflow_dtm/.test(q.sql));
    expect(ranged.map((q) => q.sql.match(/ord_stat_evt|goods_inflow_log/g)).flat()).to.include.members([
      'ord_stat_evt',
      'goods_inflow_log',
    ]);
    for (const q of ranged) {
      const plan = await selectRows<{ table: string; partitions: string | null }>(
        db.knex,
        `EXPLAIN PARTITIONS ${q.sql}`,
        q.bindings as never,
      );
      const eventRows = plan.filter((r) => r.partitions);
      expect(eventRows.length, q.sql).to.be.greaterThan(0);
      for (const r of eventRows) expect(r.partitions, `${r.table} in ${q.sql}`).to.equal('p202602');
    }
  });

  describe('the retention command', () => {
    it('when January is not built, then it is kept and named; empty older months go', () => {
      const out = retention(db, keepFromFebruary());
      expect(out.kept.map((k) => `${k.table} ${k.month}`).sort()).to.deep.equal(['goods_inflow_log 2026-01', 'ord_stat_evt 2026-01']);
      expect(out.kept[0]!.reason).to.match(/not built yet/);
      expect(out.dropped.map((d) => d.month)).to.not.include('2026-01');
      expect(out.dropped.every((d) => d.month < '2026-01')).to.equal(true);
    });

    it('when every day of January is built, then January goes from both tables, its aggregates and reports stay, February stays', async () => {
      for (const day of eachDay('2026-01-01', '2026-01-31')) {
        for (const kind of DAILY) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
        await rebuildAggregate(db.knex, { kind: 'inflow', day, requestedBy: 'cli' });
      }
      const app = createBackofficeApp({
        config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
        logger: testLogger(),
        knex: db.knex,
      });
      const report = () =>
        request(app)
          .get('/api/bo/v1/statistics/categoryStatus/getCategoryStatusList')
          .query({ startDate: '2026-01-20', endDate: '2026-01-31', agrtGb: '01' })
          .set('Authorization', AUTH);
      const janReport = (await report()).body as { totalCount: number };
      expect(janReport.totalCount).to.be.greaterThan(0);

      const out = retention(db, keepFromFebruary());
      expect(
        out.dropped
          .filter((d) => d.month === '2026-01')
          .map((d) => d.table)
          .sort(),
      ).to.deep.equal(['goods_inflow_log', 'ord_stat_evt']);
      expect(out.kept).to.deep.equal([]);
      for (const table of ['ord_stat_evt', 'goods_inflow_log'] as const)
        expect((await partitionsOf(db.knex, table)).map((p) => p.month)).to.not.include('2026-01');
      const after = await perMonth(db.knex);
      expect(Object.keys(after).filter((k) => k.endsWith('2026-01'))).to.deep.equal([]);
      expect(after['evt 2026-02']).to.equal(original['evt 2026-02']);
      expect((await report()).body).to.deep.equal(janReport);
      const dropped = await selectRows<{ table_nm: string }>(
        db.knex,
        "SELECT table_nm FROM evt_retention WHERE agrt_mon = '2026-01' ORDER BY 1",
      );
      expect(dropped.map((r) => r.table_nm)).to.deep.equal(['goods_inflow_log', 'ord_stat_evt']);
    });
  });
});
