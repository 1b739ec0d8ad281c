import { expect } from 'chai';
import { selectRows } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { createQueues, enqueueBuilds, type Queues } from '@bo/aggregation-worker';
import { createRedis, sentinelsOf } from '@bo/service-kit';
import {
  createTestDatabase,
  expectedDaily,
  generateSourceData,
  insertSourceData,
  startRedisWithSentinel,
  startService,
  storedRows,
  testLogger,
  waitFor,
  type RedisWithSentinel,
  type ServiceProcess,
  type SourceData,
  type TestDatabase,
} from '@bo/testing';

const KINDS = ['category', 'payway', 'goods', 'entr', 'period', 'inflow'] as const;
const DAYS = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2026, 5, 1 + i)).toISOString().slice(0, 10));
const PREFIX = 'bosent';

describe('Redis Sentinel (REDIS_SENTINELS): a failover during a rerun', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let data: SourceData;
  let set: RedisWithSentinel;
  let redis: ReturnType<typeof createRedis>;
  let queues: Queues;
  let worker: ServiceProcess;

  before(async () => {
    db = await createTestDatabase('sentinel', boMigrations);
    data = generateSourceData(16004, DAYS, { goods: 12, orders: 400, inflows: 600 });
    await insertSourceData(db.knex, data);
    set = await startRedisWithSentinel();
    // REDIS_URL names no reachable server: only the Sentinel can lead the worker to Redis.
    worker = await startService('aggregation-worker', {
      BO_DATABASE_URL: db.url,
      REDIS_URL: 'redis://127.0.0.1:1/0',
      ...set.env,
      REDIS_PREFIX: PREFIX,
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'sentinel-test-password',
      AGG_SCHEDULES: 'false',
      WORKER_CONCURRENCY: '1',
      AGG_LOCK_DURATION_MS: '3000',
      AGG_STALLED_INTERVAL_MS: '1000',
      AGG_JOB_BACKOFF_MS: '500',
    });
    // The client's errors while the master is gone are expected: kept out of the test output.
    const quiet = testLogger();
    for (const t of quiet.transports) t.silent = true;
    redis = createRedis('redis://127.0.0.1:1/0', quiet, sentinelsOf(set.env));
    queues = createQueues(redis, { prefix: PREFIX, attempts: 5, backoffMs: 500 }, quiet);
  });

  after(async () => {
    worker?.kill();
    await queues?.close().catch(() => undefined);
    redis?.disconnect();
    await set?.destroy();
    await db?.drop();
  });

  it('when the master is killed while the jobs run, then the Sentinel promotes the replica and every job completes, each (kind, day) built', async () => {
    const targets = DAYS.flatMap((day) => KINDS.map((kind) => ({ kind, day })));
    await enqueueBuilds(queues.build, targets, 'cli');
    const firstMaster = await set.masterPort();
    expect(firstMaster).to.equal(set.master.port);

    await waitFor('some builds done', async () => ((await queues.build.getCompletedCount()) >= 40 ? true : undefined), 60_000);
    const newMaster = await set.failover();
    expect(newMaster).to.equal(set.replica.port);
    const doneAtFailover = await waitFor(
      'the client on the new master',
      () => queues.build.getCompletedCount().catch(() => undefined),
      30_000,
    );
    expect(doneAtFailover, 'jobs left when the master died').to.be.below(targets.length);

    await waitFor(
      'every build completed on the new master',
      async () => ((await queues.build.getCompletedCount()) >= targets.length ? true : undefined),
      120_000,
    );
    expect(await queues.build.getFailedCount()).to.equal(0);

    const runs = await selectRows<{ kind: string; agrt_dt: string }>(
      db.knex,
      `SELECT DISTINCT kind, DATE_FORMAT(agrt_dt, '%Y-%m-%d') AS agrt_dt FROM agg_run_log WHERE requested_by = 'cli' AND outcome = 'done'`,
    );
    expect(runs).to.have.length(targets.length);
    for (const day of [DAYS[0]!, DAYS[39]!])
      expect(await storedRows(db.knex, 'goods', day), day).to.deep.equal(expectedDaily(data, 'goods', day));
    expect(worker.alive(), 'the worker lived through the failover').to.equal(true);
  });
});
