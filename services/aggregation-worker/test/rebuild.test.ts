import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  generateSourceData,
  insertSourceData,
  type SourceData,
  expectedDaily,
  expectedInflow,
  storedRows,
  type DailyKindName,
  expectedPeriod,
  storedPeriod,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '../src/aggregation/rebuild.ts';
import type { BuiltDayRow, RunLogRow } from './helpers/build-rows.ts';

const DAYS = ['2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02'];
const DAILY: DailyKindName[] = ['category', 'payway', 'goods', 'entr'];

describe('rebuildAggregate', () => {
  let db: TestDatabase;
  let data: SourceData;

  before(async () => {
    db = await createTestDatabase('agg_rebuild', boMigrations);
    data = generateSourceData(20260501, DAYS);
    await insertSourceData(db.knex, data);
  });
  after(async () => db?.drop());

  for (const kind of DAILY) {
    it(`when ${kind} is built for each day across the month end, then every row equals the sums recomputed from the events`, async () => {
      for (const day of DAYS) {
        await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
        const expected = expectedDaily(data, kind, day);
        expect(expected.length, `the generated data has rows for ${day}`).to.be.greaterThan(0);
        expect(await storedRows(db.knex, kind, day), `${kind} ${day}`).to.deep.equal(expected);
      }
    });
  }

  it('when the generated data is inspected, then it holds cancellations on a later day than their order, across the month end', () => {
    const orderDay = new Map(
      data.events
        .filter((e) => e.evt_gb_cd === '10' && e.agrt_gb_cd === '01')
        .map((e) => [`${e.ord_no}/${e.ord_goods_seq}`, e.evt_dtm.slice(0, 10)]),
    );
    const crossing = data.events.filter(
      (e) =>
        e.evt_gb_cd === '20' &&
        orderDay.get(`${e.ord_no}/${e.ord_goods_seq}`)!.slice(0, 7) === '2026-04' &&
        e.evt_dtm.startsWith('2026-05'),
    );
    expect(crossing.length).to.be.greaterThan(0);
  });

  it('when inflow is built for a whole day and for one hour, then the counts equal the logs of those hours', async () => {
    for (const day of DAYS) {
      await rebuildAggregate(db.knex, { kind: 'inflow', day, requestedBy: 'schedule' });
      expect(await storedRows(db.knex, 'inflow', day)).to.deep.equal(expectedInflow(data, day));
    }
    await db.knex('agg_inflow_hourly').where({ agrt_dt: DAYS[1], agrt_hour: 0 }).delete();
    const res = await rebuildAggregate(db.knex, { kind: 'inflow', day: DAYS[1]!, hour: 0, requestedBy: 'schedule' });
    expect(await storedRows(db.knex, 'inflow', DAYS[1]!)).to.deep.equal(expectedInflow(data, DAYS[1]!));
    expect(res.rows).to.equal(expectedInflow(data, DAYS[1]!, 0).length);
  });

  it('when the same day is built twice, then the rows are identical and nothing is doubled', async () => {
    const day = DAYS[2]!;
    for (const kind of DAILY) {
      await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
      const first = await storedRows(db.knex, kind, day);
      await rebuildAggregate(db.knex, { kind, day, requestedBy: 'dashboard' });
      expect(await storedRows(db.knex, kind, day))
        .to.deep.equal(first)
        .and.to.deep.equal(expectedDaily(data, kind, day));
    }
  });

  it('when every kind and day is built at once (as parallel workers do), then none deadlocks and every day is right', async () => {
    await Promise.all(
      DAYS.flatMap((day) =>
        [...DAILY, 'period' as const, 'inflow' as const].flatMap((kind) =>
          [1, 2].map(() => rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' })),
        ),
      ),
    );
    for (const day of DAYS) {
      for (const kind of DAILY)
        expect(await storedRows(db.knex, kind, day), `${kind} ${day}`).to.deep.equal(expectedDaily(data, kind, day));
      expect(await storedPeriod(db.knex, day), `period ${day}`).to.deep.equal(expectedPeriod(data, day));
      expect(await storedRows(db.knex, 'inflow', day)).to.deep.equal(expectedInflow(data, day));
    }
  });

  it('when a day is built, then its status and a done run log record who asked and how many rows', async () => {
    const day = DAYS[0]!;
    const res = await rebuildAggregate(db.knex, { kind: 'payway', day, requestedBy: 'dashboard', jobId: 'agg-payway-2026-04-29' });
    const log = (await db.knex('agg_run_log').where({ job_id: 'agg-payway-2026-04-29' }).first()) as RunLogRow;
    expect(log).to.include({ kind: 'payway', agrt_dt: day, requested_by: 'dashboard', outcome: 'done', row_cnt: res.rows });
    expect(log.finished_dtm).to.be.a('string');
    const maxEvtNo = Math.max(
      ...(await db.knex('ord_stat_evt').select<{ evt_no: number; evt_dtm: string }[]>('evt_no', 'evt_dtm'))
        .filter((e) => String(e.evt_dtm).startsWith(day))
        .map((e) => Number(e.evt_no)),
    );
    const status = (await db.knex('agg_built_day').where({ kind: 'payway', agrt_dt: day }).first()) as BuiltDayRow;
    expect(status).to.include({ agrt_hour: -1, row_cnt: res.rows, built_max_no: maxEvtNo });
  });

  it('when the job names a day that does not exist, then it fails before touching the tables', async () => {
    let error: Error | undefined;
    await rebuildAggregate(db.knex, { kind: 'goods', day: '2026-02-30', requestedBy: 'cli' }).catch((e: Error) => (error = e));
    expect(error?.message).to.match(/real yyyy-MM-dd/);
  });
});
