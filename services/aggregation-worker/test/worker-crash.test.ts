import { expect } from 'chai';
import { selectRows, type Knex } from '@bo/db';
import {
  createTestDatabase,
  type TestDatabase,
  generateSourceData,
  insertSourceData,
  type SourceData,
  expectedDaily,
  storedRows,
  waitFor,
  waitForJobs,
  exitOf,
  freePort,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '../src/aggregation/rebuild.ts';
import { enqueueBuild } from '../src/queue/build-jobs.ts';
import { createTestQueues, REDIS_URL, type TestQueueEnv } from './helpers/queue-env.ts';
import { spawnTs } from './helpers/child.ts';

const DAY = '2026-05-01';
const JOB_ID = `build-goods-${DAY}`;

describe('worker process killed in the middle of a job', function () {
  this.timeout(90_000);
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;
  const children: ReturnType<typeof spawnTs>[] = [];

  const startWorker = async () => {
    const child = spawnTs('src/main.ts', [], {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      BO_DATABASE_URL: db.url,
      REDIS_URL,
      REDIS_PREFIX: env.prefix,
      WORKER_PORT: String(await freePort()),
      QUEUE_DASHBOARD_USER: 'ops',
      QUEUE_DASHBOARD_PASSWORD: 'crash-test-password',
      AGG_SCHEDULES: 'false',
      AGG_LOCK_DURATION_MS: '2000',
      AGG_STALLED_INTERVAL_MS: '1000',
    });
    children.push(child);
    return child;
  };

  before(async () => {
    db = await createTestDatabase('agg_crash', boMigrations);
    data = generateSourceData(31337, ['2026-04-30', DAY]);
    await insertSourceData(db.knex, data);
    env = createTestQueues('crash');
  });
  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await env?.close();
    await db?.drop();
  });

  it('when the worker is SIGKILLed while rebuilding a day, then readers keep the old day, and a restarted worker ends with the right rows', async () => {
    // The day was built before; then more events arrived, so the rebuild has something to change.
    await rebuildAggregate(db.knex, { kind: 'goods', day: DAY, requestedBy: 'schedule' });
    const before = await storedRows(db.knex, 'goods', DAY);
    const more = generateSourceData(31338, [DAY]);
    await insertSourceData(db.knex, more);
    const all: SourceData = {
      goods: [...data.goods, ...more.goods],
      ords: [...data.ords, ...more.ords],
      events: [...data.events, ...more.events],
      inflows: [],
    };
    expect(expectedDaily(all, 'goods', DAY)).not.to.deep.equal(before);

    // Hold one row of that day so the job's DELETE has to wait: a slow build, honestly.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holder = db.knex.transaction(async (trx: Knex.Transaction) => {
      await trx('agg_goods_daily').where({ agrt_dt: DAY }).first().forUpdate();
      await held;
    });

    const first = await startWorker();
    await enqueueBuild(env.queues.build, { kind: 'goods', day: DAY }, 'cli');
    await waitFor('the job to be active', async () => (await (await env.queues.build.getJob(JOB_ID))?.getState()) === 'active', 30_000);
    await waitFor('the build to wait on the held row', async () => {
      const rows = await selectRows<{ n: number }>(
        db.knex,
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND INFO LIKE 'DELETE%agg_goods_daily%'",
        [db.name],
      );
      return Number(rows[0]!.n) > 0;
    });
    expect(await storedRows(db.knex, 'goods', DAY), 'a reader sees the old day while it is rebuilt').to.deep.equal(before);

    first.kill('SIGKILL');
    expect((await exitOf(first)).signal).to.equal('SIGKILL');
    release();
    await holder;
    expect(await storedRows(db.knex, 'goods', DAY), 'the killed build left nothing behind').to.deep.equal(before);

    const second = await startWorker();
    const states = await waitForJobs(env.queues.build, [JOB_ID], 45_000);
    expect(states[JOB_ID], second.output()).to.equal('completed');
    expect(await storedRows(db.knex, 'goods', DAY)).to.deep.equal(expectedDaily(all, 'goods', DAY));
    const runs = await db.knex('agg_run_log').where({ job_id: JOB_ID }).orderBy('run_no').pluck('outcome');
    expect(runs, 'the interrupted run stays visible as running, the retaken one is done').to.deep.equal(['running', 'done']);

    second.kill('SIGTERM');
    expect((await exitOf(second)).code, 'SIGTERM closes the worker gracefully').to.equal(0);
  });
});
