import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  generateSourceData,
  insertSourceData,
  type EvtRow,
  type SourceData,
  expectedDaily,
  expectedInflow,
  storedRows,
  expectedInflowRollups,
  expectedPeriod,
  storedInflowRollups,
  storedPeriod,
  waitFor,
  waitForJobs,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { selectRows } from '@bo/db';
import { rebuildAggregate } from '../src/aggregation/rebuild.ts';
import { runScheduled, type ScheduleRunDeps } from '../src/queue/schedule-runs.ts';
import { capturingLogger, createTestQueues, startTestWorkers, type TestQueueEnv } from './helpers/queue-env.ts';
import type { WatermarkRow } from './helpers/build-rows.ts';

const DAYS = ['2026-04-29', '2026-04-30', '2026-05-01'];
const DAILY = ['category', 'payway', 'goods', 'entr'] as const;
/** Every kind the ord_stat_evt high-water mark watches: the lists and the period rollups. */
const EVENT_KINDS = [...DAILY, 'period'] as const;
// 10:00 in Seoul on 2 May: the three days are in the reconciliation window.
const NOW = new Date('2026-05-02T01:00:00Z');

describe('late data and nightly reconciliation', () => {
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;
  let workers: ReturnType<typeof startTestWorkers>;
  const log = capturingLogger();

  const deps = (): ScheduleRunDeps => ({
    knex: db.knex,
    buildQueue: env.queues.build,
    logger: log.logger,
    timeZone: 'Asia/Seoul',
    catchUpDays: 0,
    catchUpHours: 1,
    reconcileDays: 3,
    now: () => NOW,
  });

  before(async () => {
    db = await createTestDatabase('agg_late', boMigrations);
    data = generateSourceData(777, DAYS);
    await insertSourceData(db.knex, data);
    for (const day of DAYS) {
      for (const kind of [...EVENT_KINDS, 'inflow'] as const) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'schedule' });
    }
    env = createTestQueues('late');
    workers = startTestWorkers(env, db.knex);
  });
  after(async () => {
    await workers?.close();
    await env?.close();
    await db?.drop();
  });

  const lateRuns = async () => (await runScheduled('hourly', deps())).queued.filter((q) => q.requestedBy === 'late-data');

  it('when nothing arrived since the days were built, then the hourly run finds no late data', async () => {
    expect(await lateRuns()).to.deep.equal([]);
  });

  it('when an event arrives for an already built day, then the next run rebuilds that day for every daily kind, and only once', async () => {
    const g = data.goods[0]!;
    const o = data.ords[0]!;
    const late: EvtRow = {
      ord_no: o.ord_no,
      ord_goods_seq: 9,
      site_no: o.site_no,
      goods_no: g.goods_no,
      agrt_gb_cd: '02',
      evt_gb_cd: '20',
      evt_dtm: '2026-04-30 23:59:59',
      qty: 2,
      amt: 77000,
      dc_amt_2nd: 500,
      dc_amt_3rd: 0,
    };
    // A day nobody built yet is the schedule's business, not late data.
    const unbuilt: EvtRow = { ...late, evt_dtm: '2026-05-03 10:00:00' };
    await db.knex('ord_stat_evt').insert([late, unbuilt]);
    data.events.push(late, unbuilt);

    const queued = await lateRuns();
    expect(queued.map((q) => q.jobId).sort()).to.deep.equal(EVENT_KINDS.map((k) => `build-${k}-2026-04-30`).sort());
    await waitForJobs(
      env.queues.build,
      queued.map((q) => q.jobId),
    );
    for (const kind of DAILY) expect(await storedRows(db.knex, kind, '2026-04-30')).to.deep.equal(expectedDaily(data, kind, '2026-04-30'));
    expect(await storedPeriod(db.knex, '2026-04-30')).to.deep.equal(expectedPeriod(data, '2026-04-30'));
    const highest = Math.max(...(await db.knex('ord_stat_evt').pluck('evt_no')).map(Number));
    expect(await db.knex('agg_watermark').where({ source_nm: 'ord_stat_evt' }).first(), 'the mark moved past the late event').to.include({
      last_no: highest,
    });
    expect(await lateRuns()).to.deep.equal([]);
  });

  it('when late data arrives for a day whose build is running, then the mark stays until a build has surely seen it', async function () {
    // A loaded machine may take a while to hand the job to the worker; the property has no clock in it.
    this.timeout(120_000);
    const day = '2026-04-29';
    const markBefore = ((await db.knex('agg_watermark').where({ source_nm: 'ord_stat_evt' }).first()) as WatermarkRow).last_no;
    // Hold one row of the day so the build started now stays in the middle of its work.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holder = db.knex.transaction(async (trx) => {
      await trx('agg_ctg_daily').where({ agrt_dt: day }).first().forUpdate();
      await held;
    });
    await env.queues.build.add('category', { kind: 'category', day, requestedBy: 'cli' }, { jobId: `build-category-${day}` });
    await waitFor(
      'the build to wait on the held row',
      async () => {
        const rows = await selectRows<{ n: number }>(
          db.knex,
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE 'DELETE%agg_ctg_daily%'",
          [db.name],
        );
        return Number(rows[0]!.n) > 0;
      },
      60_000,
    ).catch((err: unknown) => {
      release();
      throw err;
    });
    const e = data.events.find((x) => x.evt_dtm.startsWith(day))!;
    const late: EvtRow = { ...e, ord_goods_seq: 10, evt_dtm: `${day} 12:00:00`, amt: 5000, qty: 1 };
    await db.knex('ord_stat_evt').insert(late);
    data.events.push(late);

    const queued = await lateRuns();
    expect(queued.map((q) => q.jobId).sort()).to.deep.equal(EVENT_KINDS.map((k) => `build-${k}-${day}`).sort());
    expect(
      ((await db.knex('agg_watermark').where({ source_nm: 'ord_stat_evt' }).first()) as WatermarkRow).last_no,
      'the mark waits',
    ).to.equal(markBefore);

    release();
    await holder;
    await waitForJobs(
      env.queues.build,
      queued.map((q) => q.jobId),
    );
    for (const kind of DAILY) expect(await storedRows(db.knex, kind, day)).to.deep.equal(expectedDaily(data, kind, day));
    expect(await storedPeriod(db.knex, day)).to.deep.equal(expectedPeriod(data, day));
    // The running build may or may not have seen the late row; the next runs settle it and then stop.
    const again = await lateRuns();
    expect([[], [`build-category-${day}`]]).to.deep.include(again.map((q) => q.jobId));
    await waitForJobs(
      env.queues.build,
      again.map((q) => q.jobId),
    );
    expect(await lateRuns()).to.deep.equal([]);
    expect(await storedRows(db.knex, 'category', day)).to.deep.equal(expectedDaily(data, 'category', day));
  });

  it('when a page view arrives for an already built hour, then that inflow hour is rebuilt', async () => {
    const view = { goods_no: data.goods[1]!.goods_no, site_no: '10', inflow_dtm: '2026-05-01 13:20:00' };
    await db.knex('goods_inflow_log').insert(view);
    data.inflows.push(view);
    const queued = await lateRuns();
    expect(queued.map((q) => q.jobId)).to.deep.equal(['build-inflow-2026-05-01-h13']);
    await waitForJobs(env.queues.build, ['build-inflow-2026-05-01-h13']);
    expect(await storedRows(db.knex, 'inflow', '2026-05-01')).to.deep.equal(expectedInflow(data, '2026-05-01'));
    expect(await storedInflowRollups(db.knex, '2026-05-01')).to.deep.equal(expectedInflowRollups(data, '2026-05-01'));
  });

  // Issue 17.2: numbers are handed out at insert, rows become visible at commit. A row whose
  // transaction took its number before the mark moved past it, and committed after, is never
  // above the mark again; only the re-count of recent hours finds it.
  describe('rows committed out of number order', () => {
    /** The hourly run of 2 May 10:00 looking back 48 hours, over 30 Apr 10:00 – 2 May 09:00. */
    const lateRunsLookingBack = async () =>
      (await runScheduled('hourly', { ...deps(), catchUpHours: 48 })).queued.filter((q) => q.requestedBy === 'late-data');

    it('when a page view numbered before the mark commits after the mark passed it, then its hour is still rebuilt', async () => {
      await waitForJobs(
        env.queues.build,
        (await runScheduled('hourly', { ...deps(), catchUpHours: 48 })).queued.map((q) => q.jobId),
      );
      expect(await lateRunsLookingBack()).to.deep.equal([]);
      const slow = await db.knex.transaction();
      try {
        // The slow transaction takes its number first…
        const early = { goods_no: data.goods[2]!.goods_no, site_no: '10', inflow_dtm: '2026-05-01 15:10:00' };
        await slow('goods_inflow_log').insert(early);
        // …a quick one takes the next number and commits, and a run moves the mark past both.
        const quick = { goods_no: data.goods[3]!.goods_no, site_no: '10', inflow_dtm: '2026-05-01 16:40:00' };
        await db.knex('goods_inflow_log').insert(quick);
        data.inflows.push(quick);
        const first = await lateRunsLookingBack();
        expect(first.map((q) => q.jobId)).to.deep.equal(['build-inflow-2026-05-01-h16']);
        await waitForJobs(
          env.queues.build,
          first.map((q) => q.jobId),
        );
        await slow.commit();
        data.inflows.push(early);
      } catch (err) {
        await slow.rollback();
        throw err;
      }
      const second = await lateRunsLookingBack();
      expect(second.map((q) => q.jobId)).to.deep.equal(['build-inflow-2026-05-01-h15']);
      await waitForJobs(
        env.queues.build,
        second.map((q) => q.jobId),
      );
      expect(await storedRows(db.knex, 'inflow', '2026-05-01')).to.deep.equal(expectedInflow(data, '2026-05-01'));
      expect(await storedInflowRollups(db.knex, '2026-05-01')).to.deep.equal(expectedInflowRollups(data, '2026-05-01'));
      expect(await lateRunsLookingBack()).to.deep.equal([]);
    });

    it('when an event numbered before the mark commits after the mark passed it, then its day is rebuilt for every event kind', async () => {
      const day = '2026-05-01';
      const e = data.events.find((x) => x.evt_dtm.startsWith(day))!;
      const slow = await db.knex.transaction();
      let early: EvtRow;
      try {
        early = { ...e, ord_goods_seq: 21, evt_dtm: `${day} 18:00:00`, amt: 7000, qty: 2 };
        await slow('ord_stat_evt').insert(early);
        const quick: EvtRow = { ...e, ord_goods_seq: 22, evt_dtm: '2026-04-29 08:00:00', amt: 3000, qty: 1 };
        await db.knex('ord_stat_evt').insert(quick);
        data.events.push(quick);
        const first = await lateRunsLookingBack();
        expect(first.map((q) => q.jobId).sort()).to.deep.equal(EVENT_KINDS.map((k) => `build-${k}-2026-04-29`).sort());
        await waitForJobs(
          env.queues.build,
          first.map((q) => q.jobId),
        );
        await slow.commit();
        data.events.push(early);
      } catch (err) {
        await slow.rollback();
        throw err;
      }
      const second = await lateRunsLookingBack();
      expect(second.map((q) => q.jobId).sort()).to.deep.equal(EVENT_KINDS.map((k) => `build-${k}-${day}`).sort());
      await waitForJobs(
        env.queues.build,
        second.map((q) => q.jobId),
      );
      for (const kind of DAILY) expect(await storedRows(db.knex, kind, day)).to.deep.equal(expectedDaily(data, kind, day));
      expect(await storedPeriod(db.knex, day)).to.deep.equal(expectedPeriod(data, day));
      expect(await lateRunsLookingBack()).to.deep.equal([]);
    });
  });

  it('when every built day matches its events, then the reconciliation queues nothing and warns of nothing', async () => {
    const before = log.records.length;
    expect((await runScheduled('reconcile', deps())).queued).to.deep.equal([]);
    expect(log.records.slice(before).filter((r) => r.level === 'warn')).to.deep.equal([]);
  });

  it('when an aggregate no longer equals its events, then the reconciliation warns, rebuilds that day and the totals agree again', async () => {
    await db
      .knex('agg_goods_daily')
      .where({ agrt_dt: '2026-04-29' })
      .limit(1)
      .update({ ord_amt: db.knex.raw('ord_amt + 1000') });
    const before = log.records.length;
    const queued = (await runScheduled('reconcile', deps())).queued;
    expect(queued).to.deep.equal([{ target: 'goods 2026-04-29', jobId: 'build-goods-2026-04-29', requestedBy: 'reconcile' }]);
    const warnings = log.records.slice(before).filter((r) => r.level === 'warn');
    // The month's roll-up summed the changed daily row too: it is rolled up again from the daily rows.
    expect(warnings.map((w) => [w.message, w.kind, w.day ?? w.month])).to.deep.equal([
      ['aggregate differs from its source events; rebuilding the day', 'goods', '2026-04-29'],
      ['monthly roll-up differed from its daily rows; rebuilt the month from them', 'goods', '2026-04-01'],
    ]);
    await waitForJobs(env.queues.build, ['build-goods-2026-04-29']);
    expect(await storedRows(db.knex, 'goods', '2026-04-29')).to.deep.equal(expectedDaily(data, 'goods', '2026-04-29'));
    expect((await runScheduled('reconcile', deps())).queued).to.deep.equal([]);
  });
});

describe('nightly reconciliation row by row (issue 17.2)', () => {
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;
  let workers: ReturnType<typeof startTestWorkers>;
  const log = capturingLogger();
  const deps = (): ScheduleRunDeps => ({
    knex: db.knex,
    buildQueue: env.queues.build,
    logger: log.logger,
    timeZone: 'Asia/Seoul',
    catchUpDays: 0,
    catchUpHours: 1,
    reconcileDays: 3,
    now: () => NOW,
  });

  before(async () => {
    db = await createTestDatabase('agg_reconcile_rows', boMigrations);
    data = generateSourceData(778, DAYS);
    await insertSourceData(db.knex, data);
    for (const day of DAYS) {
      for (const kind of [...EVENT_KINDS, 'inflow'] as const) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'schedule' });
    }
    env = createTestQueues('reconcile-rows');
    workers = startTestWorkers(env, db.knex);
  });
  after(async () => {
    await workers?.close();
    await env?.close();
    await db?.drop();
  });

  it('when two goods rows of a day trade amounts (the day total unchanged), then the day is found and rebuilt', async () => {
    const day = '2026-04-30';
    const rows = await db
      .knex<{ agrt_dt: string; goods_no: string; site_no: string; agrt_gb_cd: string; ord_amt: number }>('agg_goods_daily')
      .where({ agrt_dt: day, agrt_gb_cd: '01' })
      .andWhere('ord_amt', '>', 0)
      .orderBy(['site_no', 'goods_no'])
      .limit(2);
    expect(rows).to.have.length(2);
    const [a, b] = rows as [(typeof rows)[0], (typeof rows)[0]];
    const where = (r: typeof a) => ({ agrt_dt: day, agrt_gb_cd: r.agrt_gb_cd, site_no: r.site_no, goods_no: r.goods_no });
    await db
      .knex('agg_goods_daily')
      .where(where(a))
      .update({ ord_amt: a.ord_amt + 500 });
    await db
      .knex('agg_goods_daily')
      .where(where(b))
      .update({ ord_amt: b.ord_amt - 500 });
    const queued = (await runScheduled('reconcile', deps())).queued.map((q) => q.jobId);
    expect(queued).to.deep.equal([`build-goods-${day}`]);
    await waitForJobs(env.queues.build, queued);
    expect(await storedRows(db.knex, 'goods', day)).to.deep.equal(expectedDaily(data, 'goods', day));
  });

  it('when page views of an hour move between goods in the aggregate (the hour total unchanged), then that inflow hour is rebuilt', async () => {
    const day = '2026-05-01';
    const [a] = (await db
      .knex('agg_inflow_hourly')
      .where({ agrt_dt: day })
      .andWhere('inf_cnt', '>', 1)
      .orderBy(['agrt_hour', 'site_no', 'goods_no'])) as {
      agrt_hour: number;
      site_no: string;
      goods_no: string;
      inf_cnt: number;
    }[];
    const sameHour = (await db
      .knex('agg_inflow_hourly')
      .where({ agrt_dt: day, agrt_hour: a!.agrt_hour })
      .whereNot({ goods_no: a!.goods_no })
      .first()) as typeof a | undefined;
    expect(sameHour, 'a second goods in that hour').to.not.equal(undefined);
    const key = (r: NonNullable<typeof a>) => ({ agrt_dt: day, agrt_hour: r.agrt_hour, site_no: r.site_no, goods_no: r.goods_no });
    await db
      .knex('agg_inflow_hourly')
      .where(key(a!))
      .update({ inf_cnt: a!.inf_cnt - 1 });
    await db
      .knex('agg_inflow_hourly')
      .where(key(sameHour!))
      .update({ inf_cnt: sameHour!.inf_cnt + 1 });
    const jobId = `build-inflow-${day}-h${String(a!.agrt_hour).padStart(2, '0')}`;
    const queued = (await runScheduled('reconcile', deps())).queued.map((q) => q.jobId);
    expect(queued).to.deep.equal([jobId]);
    await waitForJobs(env.queues.build, queued);
    expect(await storedRows(db.knex, 'inflow', day)).to.deep.equal(expectedInflow(data, day));
    expect((await runScheduled('reconcile', deps())).queued).to.deep.equal([]);
  });

  it('when a page view is inserted for a built hour long after the hourly look-back, then the reconciliation rebuilds that hour', async () => {
    const view = { goods_no: data.goods[4]!.goods_no, site_no: '10', inflow_dtm: '2026-04-29 07:05:00' };
    // Written under a number below the late-data mark (as a slow transaction would have), so only the reconciliation can see it.
    await db.knex('goods_inflow_log').insert(view);
    data.inflows.push(view);
    const queued = (await runScheduled('reconcile', deps())).queued.map((q) => q.jobId);
    expect(queued).to.deep.equal(['build-inflow-2026-04-29-h07']);
    await waitForJobs(env.queues.build, queued);
    expect(await storedRows(db.knex, 'inflow', '2026-04-29')).to.deep.equal(expectedInflow(data, '2026-04-29'));
  });
});
