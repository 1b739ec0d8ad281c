import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  testLogger,
  generateSourceData,
  insertSourceData,
  type SourceData,
  expectedDaily,
  storedRows,
  waitForJobs,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { registerSchedules, type ScheduleSettings } from '../src/queue/schedules.ts';
import { runScheduled, type ScheduleRunDeps } from '../src/queue/schedule-runs.ts';
import { createQueues } from '../src/queue/queues.ts';
import { createRedis } from '@bo/service-kit';
import { createTestQueues, REDIS_URL, startTestWorkers, type TestQueueEnv } from './helpers/queue-env.ts';

const SEOUL: ScheduleSettings = {
  timeZone: 'Asia/Seoul',
  dailyCron: '0 9 * * *',
  hourlyCron: '5 * * * *',
  reconcile: true,
  reconcileCron: '0 3 * * *',
};

describe('schedules', () => {
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;

  before(async () => {
    db = await createTestDatabase('agg_schedules', boMigrations);
    data = generateSourceData(4242, ['2026-04-29', '2026-04-30', '2026-05-01']);
    await insertSourceData(db.knex, data);
  });
  beforeEach(() => {
    env = createTestQueues('sched');
  });
  afterEach(async () => env.close());
  after(async () => db?.drop());

  const deps = (now: Date, over: Partial<ScheduleRunDeps> = {}): ScheduleRunDeps => ({
    knex: db.knex,
    buildQueue: env.queues.build,
    logger: testLogger(),
    timeZone: 'Asia/Seoul',
    catchUpDays: 0,
    catchUpHours: 1,
    reconcileDays: 7,
    now: () => now,
    ...over,
  });

  it('when two workers register the schedules at the same moment, then each schedule exists once with one pending run', async () => {
    const logger = testLogger();
    const second = createRedis(REDIS_URL, logger);
    const otherWorker = createQueues(second, { prefix: env.prefix, attempts: 1, backoffMs: 100 }, logger);
    try {
      await Promise.all([registerSchedules(env.queues.schedule, SEOUL), registerSchedules(otherWorker.schedule, SEOUL)]);
      const schedulers = await env.queues.schedule.getJobSchedulers();
      expect(schedulers.map((s) => s.key).sort()).to.deep.equal(['agg-daily', 'agg-hourly', 'agg-reconcile']);
      const pending = await env.queues.schedule.getJobs(['delayed', 'waiting']);
      expect(pending.map((j) => j.name).sort()).to.deep.equal(['daily', 'hourly', 'reconcile']);
    } finally {
      await otherWorker.close();
      await second.quit();
    }
  });

  it('when reconciliation is turned off and the schedules registered again, then its scheduler is gone and the others stay', async () => {
    await registerSchedules(env.queues.schedule, SEOUL);
    await registerSchedules(env.queues.schedule, { ...SEOUL, reconcile: false });
    expect((await env.queues.schedule.getJobSchedulers()).map((s) => s.key).sort()).to.deep.equal(['agg-daily', 'agg-hourly']);
  });

  it('when the daily schedule is registered for Asia/Seoul, then its next run is the next 09:00 in Seoul (00:00 UTC)', async () => {
    const before = new Date();
    await registerSchedules(env.queues.schedule, SEOUL);
    const daily = await env.queues.schedule.getJobScheduler('agg-daily');
    // Seoul is UTC+9 all year: 09:00 there is 00:00 UTC, and the next one is the coming UTC midnight.
    const nextUtcMidnight = Date.UTC(before.getUTCFullYear(), before.getUTCMonth(), before.getUTCDate() + 1);
    expect(daily).to.include({ pattern: '0 9 * * *', tz: 'Asia/Seoul', next: nextUtcMidnight });
    const run = (await env.queues.schedule.getJobs(['delayed'])).find((j) => j.name === 'daily')!;
    expect(run.timestamp + run.delay).to.equal(nextUtcMidnight);
  });

  it('when the daily run resolves its day at 08:30 Seoul on 1 May (23:30 UTC on 30 April), then it queues every daily kind for 30 April', async () => {
    const result = await runScheduled('daily', deps(new Date('2026-04-30T23:30:00Z')));
    expect(result.queued.map((q) => q.jobId).sort()).to.deep.equal([
      'build-category-2026-04-30',
      'build-entr-2026-04-30',
      'build-goods-2026-04-30',
      'build-payway-2026-04-30',
      'build-period-2026-04-30',
    ]);
    const job = await env.queues.build.getJob('build-payway-2026-04-30');
    expect(job?.data).to.deep.equal({ kind: 'payway', day: '2026-04-30', requestedBy: 'schedule' });
  });

  it('when the same instant is resolved in UTC, then the previous day is 29 April: the zone decides', async () => {
    const result = await runScheduled('daily', deps(new Date('2026-04-30T23:30:00Z'), { timeZone: 'UTC' }));
    expect(result.queued.map((q) => q.jobId)).to.include('build-category-2026-04-29');
  });

  it('when the 09:00 run is processed by the workers, then the previous local day is built and equals the recomputation', async () => {
    const workers = startTestWorkers(env, db.knex, { now: () => new Date('2026-05-01T00:00:00Z') });
    try {
      await env.queues.schedule.add('daily', {}, { jobId: 'daily-test' });
      await waitForJobs(env.queues.schedule, ['daily-test']);
      const ids = ['category', 'payway', 'goods', 'entr'].map((k) => `build-${k}-2026-04-30`);
      const states = await waitForJobs(env.queues.build, ids);
      expect(Object.values(states)).to.deep.equal(['completed', 'completed', 'completed', 'completed']);
      for (const kind of ['category', 'payway', 'goods', 'entr'] as const) {
        expect(await storedRows(db.knex, kind, '2026-04-30')).to.deep.equal(expectedDaily(data, kind, '2026-04-30'));
      }
      expect(await db.knex('agg_ctg_daily').whereNot({ agrt_dt: '2026-04-30' }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    } finally {
      await workers.close();
    }
  });

  it('when the hourly run finds hours without a build after downtime, then it queues exactly those hours, the last being the hour just ended', async () => {
    // 12:10 in Seoul on 1 May; hour 10 was built before the downtime.
    await db
      .knex('agg_built_day')
      .insert({ kind: 'inflow', agrt_dt: '2026-05-01', agrt_hour: 10, built_max_no: 0, row_cnt: 0, built_dtm: '2026-05-01 11:05:00' });
    const result = await runScheduled('hourly', deps(new Date('2026-05-01T03:10:00Z'), { catchUpHours: 5 }));
    expect(result.queued.filter((q) => q.requestedBy === 'schedule').map((q) => q.jobId)).to.deep.equal([
      'build-inflow-2026-05-01-h07',
      'build-inflow-2026-05-01-h08',
      'build-inflow-2026-05-01-h09',
      'build-inflow-2026-05-01-h11',
    ]);
  });

  it('when the hourly run happens at 00:05, then the hour just ended is 23h of the previous day', async () => {
    const result = await runScheduled('hourly', deps(new Date('2026-04-30T15:05:00Z')));
    expect(result.queued.map((q) => q.jobId)).to.deep.equal(['build-inflow-2026-04-30-h23']);
  });
});
