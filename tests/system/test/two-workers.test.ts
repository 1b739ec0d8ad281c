import { expect } from 'chai';
import { selectRows } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { createQueues, enqueueBuilds, type Queues } from '@bo/aggregation-worker';
import { createRedis } from '@bo/service-kit';
import {
  createTestDatabase,
  expectedDaily,
  generateSourceData,
  insertSourceData,
  startPrivateRedis,
  startService,
  storedRows,
  testLogger,
  waitFor,
  type PrivateRedis,
  type ServiceProcess,
  type SourceData,
  type TestDatabase,
} from '@bo/testing';

const KINDS = ['category', 'payway', 'goods', 'entr', 'period', 'inflow'] as const;
/** 60 days, far enough back that the workers' own catch-up at start never touches them. */
const DAYS = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2026, 2, 1 + i)).toISOString().slice(0, 10));
const PREFIX = 'bo2w';

/** The build jobs a worker process logged as done, from its JSON log lines. */
function builtBy(worker: ServiceProcess): string[] {
  return worker
    .output()
    .split('\n')
    .filter((line) => line.includes('"aggregate built"'))
    .map((line) => JSON.parse(line) as { jobId: string; requestedBy: string })
    .filter((r) => r.requestedBy === 'cli')
    .map((r) => r.jobId);
}

describe('two aggregation workers on one queue', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let data: SourceData;
  let redisServer: PrivateRedis;
  let redis: ReturnType<typeof createRedis>;
  let queues: Queues;
  const workers: ServiceProcess[] = [];

  before(async () => {
    db = await createTestDatabase('two_workers', boMigrations);
    data = generateSourceData(16002, DAYS, { goods: 12, orders: 400, inflows: 600 });
    await insertSourceData(db.knex, data);
    redisServer = await startPrivateRedis({ appendonly: false });
    const env = {
      BO_DATABASE_URL: db.url,
      REDIS_URL: redisServer.url,
      REDIS_PREFIX: PREFIX,
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'two-workers-password',
      WORKER_CONCURRENCY: '2',
      AGG_SCHEDULES: 'true',
    };
    // Started together: both register the schedules at the same moment.
    workers.push(...(await Promise.all([startService('aggregation-worker', env), startService('aggregation-worker', env)])));
    redis = createRedis(redisServer.url, testLogger());
    queues = createQueues(redis, { prefix: PREFIX, attempts: 3, backoffMs: 200 }, testLogger());
  });

  after(async () => {
    for (const w of workers) w.kill();
    await queues?.close();
    redis?.disconnect();
    await redisServer?.destroy();
    await db?.drop();
  });

  it('when both have started, then each schedule is registered once with one next run', async () => {
    await Promise.all(workers.map((w) => w.printed('aggregation worker started')));
    const schedulers = await queues.schedule.getJobSchedulers();
    expect(schedulers.map((s) => s.key).sort()).to.deep.equal(['agg-daily', 'agg-hourly', 'agg-reconcile']);
    expect(await queues.schedule.getDelayedCount(), 'one delayed next run per schedule').to.equal(3);
  });

  it('when 60 days of every kind are queued, then each (kind, day) is built exactly once, spread over both, and equals the events', async () => {
    const targets = DAYS.flatMap((day) => KINDS.map((kind) => ({ kind, day })));
    await enqueueBuilds(queues.build, targets, 'cli');
    const done = await waitFor(
      'every build',
      async () => {
        const counts = await queues.build.getJobCounts('completed', 'failed');
        return counts.completed! + counts.failed! >= targets.length ? counts : undefined;
      },
      150_000,
    );
    expect(done.failed).to.equal(0);

    const runs = await selectRows<{ kind: string; agrt_dt: string; n: number; done: number }>(
      db.knex,
      `SELECT kind, DATE_FORMAT(agrt_dt, '%Y-%m-%d') AS agrt_dt, COUNT(*) AS n, SUM(outcome = 'done') AS done
         FROM agg_run_log WHERE requested_by = 'cli' GROUP BY kind, agrt_dt`,
    );
    expect(runs).to.have.length(targets.length);
    expect(runs.filter((r) => Number(r.n) !== 1 || Number(r.done) !== 1)).to.deep.equal([]);

    const [first, second] = workers.map(builtBy) as [string[], string[]];
    expect(first.length + second.length).to.equal(targets.length);
    expect(new Set([...first, ...second]).size, 'no job id built by both').to.equal(targets.length);
    expect(first.length, 'builds of the first worker').to.be.greaterThan(0);
    expect(second.length, 'builds of the second worker').to.be.greaterThan(0);

    for (const day of [DAYS[0]!, DAYS[30]!, DAYS[59]!])
      for (const kind of ['category', 'goods'] as const)
        expect(await storedRows(db.knex, kind, day), `${kind} ${day}`).to.deep.equal(expectedDaily(data, kind, day));
  });
});
