import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  holdTables,
  type TableHold,
  expectedDaily,
  generateSourceData,
  insertSourceData,
  storedRows,
  waitFor,
  waitForJobs,
  type DailyKindName,
  startPrivateRedis,
  type PrivateRedis,
  startService,
  type ServiceProcess,
} from '@bo/testing';
import { buildJobId, createQueues, enqueueBuilds, type Queues } from '@bo/aggregation-worker';
import { boMigrations } from '@bo/aggregates';
import { createLogger, createRedis } from '@bo/service-kit';

/**
 * BullMQ jobs live only in Redis. With the queue's production setting (AOF, fsync always, as in
 * docker-compose), a Redis that is killed and started again still holds every waiting job, and
 * the running worker reconnects by itself and builds them all. (Without AOF the restart loses
 * them, and the first assertion after the restart fails.)
 */

const DAYS = ['2026-05-01', '2026-05-02', '2026-05-03', '2026-05-04', '2026-05-05', '2026-05-06'];
/** The daily kinds the test helpers recompute independently. */
const KINDS: DailyKindName[] = ['category', 'payway', 'goods', 'entr'];

describe('Redis killed and restarted while aggregation jobs wait (real worker process)', function () {
  this.timeout(150_000);
  let db: TestDatabase;
  let redis: PrivateRedis;
  let client: ReturnType<typeof createRedis>;
  let queues: Queues;
  let worker: ServiceProcess | undefined;
  let hold: TableHold | undefined;
  const data = generateSourceData(5151, DAYS);
  const prefix = 'faults';
  // The test's own client logs every refused reconnect while Redis is down: keep it quiet.
  const quiet = createLogger('faults', 'error');
  for (const t of quiet.transports) t.silent = true;

  before(async () => {
    db = await createTestDatabase('fault_redis', boMigrations);
    await insertSourceData(db.knex, data);
    redis = await startPrivateRedis({ appendonly: true });
    client = createRedis(redis.url, quiet);
    queues = createQueues(client, { prefix, attempts: 3, backoffMs: 500 }, quiet);
  });
  after(async () => {
    await hold?.release();
    worker?.kill();
    await queues?.close();
    client?.disconnect();
    await redis?.destroy();
    await db?.drop();
  });

  it('when Redis is killed and restarted with jobs waiting, then the worker keeps running, every job completes, and every day equals its recomputation', async () => {
    worker = await startService('aggregation-worker', {
      BO_DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: prefix,
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'faults-test-password',
      AGG_SCHEDULES: 'false',
      WORKER_CONCURRENCY: '2',
    });
    // Builds wait inside the database while the test holds its tables: two are taken, the rest wait in the queue.
    hold = await holdTables(db.knex, db.name);
    const targets = DAYS.flatMap((day) => KINDS.map((kind) => ({ kind, day })));
    const ids = targets.map(buildJobId);
    await enqueueBuilds(queues.build, targets, 'cli');
    await waitFor('two builds to be active and the rest waiting', async () => {
      const counts = await queues.build.getJobCounts('active', 'waiting');
      return counts.active === 2 && counts.waiting === ids.length - 2;
    });

    const down = performance.now();
    await redis.kill();
    await waitFor(
      'the worker to report Redis down on /ready',
      async () => (await fetch(`${worker!.baseUrl}/ready`)).status === 503,
      30_000,
    );
    await redis.start();
    const downMs = performance.now() - down;
    await waitFor('the worker to report ready again', async () => (await fetch(`${worker!.baseUrl}/ready`)).status === 200, 30_000);

    const states = await Promise.all(ids.map(async (id) => (await (await queues.build.getJob(id))?.getState()) ?? 'missing'));
    expect(
      states.filter((s) => s === 'missing'),
      'jobs Redis still holds after the restart',
    ).to.have.length(0);
    expect(worker.alive(), worker.output().slice(-2000)).to.equal(true);

    const released = performance.now();
    await hold.release();
    hold = undefined;
    const finished = await waitForJobs(queues.build, ids, 90_000);
    const doneMs = performance.now() - released;
    expect(
      Object.values(finished).filter((s) => s !== 'completed'),
      worker.output().slice(-3000),
    ).to.have.length(0);
    for (const { kind, day } of targets)
      expect(await storedRows(db.knex, kind, day), `${kind} ${day}`).to.deep.equal(expectedDaily(data, kind, day));
    console.log(
      `      ${ids.length} jobs queued (2 active, ${ids.length - 2} waiting); Redis down ${(downMs / 1000).toFixed(1)} s (SIGKILL until restarted, worker /ready 503 meanwhile); all completed ${(doneMs / 1000).toFixed(1)} s after the database was released`,
    );

    expect(worker.alive()).to.equal(true);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code, 'the worker still shuts down cleanly').to.equal(0);
  });
});
