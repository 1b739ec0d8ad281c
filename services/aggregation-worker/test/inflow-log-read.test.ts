import { expect } from 'chai';
import { createTestDatabase, type TestDatabase } from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '../src/aggregation/rebuild.ts';

/**
 * The inflow build reads a day's page views by log number when their numbers form one run (at
 * most twice as long as the day's logs), by the time index otherwise. Logs written by hand, in
 * the orders a log table really sees: in time order with neighbours' logs at both ends of the
 * run, and a day loaded late between the next day's logs. Each count is what the rows say.
 */
type Log = [logNo: number, goodsNo: string, siteNo: string, at: string];

const LOGS: Log[] = [
  [1, 'G1', 'S001', '2026-03-09 23:59:59'],
  [2, 'G1', 'S001', '2026-03-10 00:00:00'],
  [3, 'G1', 'S001', '2026-03-10 00:30:00'],
  [4, 'G2', 'S002', '2026-03-10 13:05:00'],
  // The next day's first view, numbered inside 10 March's run.
  [5, 'G1', 'S001', '2026-03-11 00:00:00'],
  [6, 'G2', 'S002', '2026-03-10 23:59:59'],
  // 12 March: two views numbered 25 apart, the 13th's views between them (a late load).
  [7, 'G3', 'S001', '2026-03-12 08:00:00'],
  ...Array.from({ length: 12 }, (_, i): Log => [8 + i, 'G4', 'S003', '2026-03-13 10:00:00']),
  ...Array.from({ length: 11 }, (_, i): Log => [20 + i, 'G5', 'S001', '2026-03-13 11:15:00']),
  [31, 'G3', 'S001', '2026-03-12 08:59:59'],
];

describe('inflow build: reading a day of page views', () => {
  let db: TestDatabase;
  const statements: string[] = [];
  const onQuery = (q: { sql: string }) => statements.push(q.sql);

  before(async () => {
    db = await createTestDatabase('agg_inflow_read', boMigrations);
    await db
      .knex('goods_inflow_log')
      .insert(LOGS.map(([log_no, goods_no, site_no, inflow_dtm]) => ({ log_no, goods_no, site_no, inflow_dtm })));
    db.knex.on('query', onQuery);
  });
  after(async () => {
    db?.knex.off('query', onQuery);
    await db?.drop();
  });

  /** Builds one day (or one hour); returns its rows and whether the logs were read by number. */
  async function build(day: string, hour?: number) {
    statements.length = 0;
    await rebuildAggregate(db.knex, { kind: 'inflow', day, ...(hour !== undefined ? { hour } : {}), requestedBy: 'cli' });
    const read = statements.find((s) => /INSERT INTO agg_inflow_hourly/.test(s));
    const rows = await db
      .knex('agg_inflow_hourly')
      .select('agrt_hour', 'site_no', 'goods_no', 'inf_cnt')
      .where({ agrt_dt: day })
      .orderBy(['agrt_hour', 'site_no', 'goods_no']);
    return { rows, byNumber: /FORCE INDEX \(PRIMARY\)/.test(read ?? '') };
  }

  it("when a day's logs are one run of numbers with the neighbouring days' views at its ends and inside it, then it is read by number and counts only its own views", async () => {
    const { rows, byNumber } = await build('2026-03-10');
    expect(byNumber).to.equal(true);
    expect(rows).to.deep.equal([
      { agrt_hour: 0, site_no: 'S001', goods_no: 'G1', inf_cnt: 2 },
      { agrt_hour: 13, site_no: 'S002', goods_no: 'G2', inf_cnt: 1 },
      { agrt_hour: 23, site_no: 'S002', goods_no: 'G2', inf_cnt: 1 },
    ]);
  });

  it("when a day's two views are numbered 25 apart around another day's views, then it is read by the time index and counts both", async () => {
    const { rows, byNumber } = await build('2026-03-12');
    expect(byNumber).to.equal(false);
    expect(rows).to.deep.equal([{ agrt_hour: 8, site_no: 'S001', goods_no: 'G3', inf_cnt: 2 }]);
  });

  it('when the day whose views sit inside that gap is built, then it is read by number and counts them all', async () => {
    const { rows, byNumber } = await build('2026-03-13');
    expect(byNumber).to.equal(true);
    expect(rows).to.deep.equal([
      { agrt_hour: 10, site_no: 'S003', goods_no: 'G4', inf_cnt: 12 },
      { agrt_hour: 11, site_no: 'S001', goods_no: 'G5', inf_cnt: 11 },
    ]);
  });

  it('when one hour is rebuilt, then only that hour is read and the day keeps its other hours', async () => {
    await db.knex('goods_inflow_log').insert({ log_no: 40, goods_no: 'G2', site_no: 'S002', inflow_dtm: '2026-03-10 13:45:00' });
    const { rows } = await build('2026-03-10', 13);
    expect(rows).to.deep.equal([
      { agrt_hour: 0, site_no: 'S001', goods_no: 'G1', inf_cnt: 2 },
      { agrt_hour: 13, site_no: 'S002', goods_no: 'G2', inf_cnt: 2 },
      { agrt_hour: 23, site_no: 'S002', goods_no: 'G2', inf_cnt: 1 },
    ]);
  });

  it('when a day has no views, then the build writes nothing and fails on nothing', async () => {
    const { rows } = await build('2026-03-20');
    expect(rows).to.deep.equal([]);
  });
});
