import { expect } from 'chai';
import { AGGREGATE_KINDS } from '@bo/contracts';
import {
  createTestDatabase,
  type TestDatabase,
  generateSourceData,
  insertSourceData,
  type SourceData,
  expectedDaily,
  storedRows,
  exitOf,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { createTestQueues, REDIS_URL, startTestWorkers, type TestQueueEnv } from './helpers/queue-env.ts';
import { spawnTs } from './helpers/child.ts';

describe('aggregate CLI', function () {
  // Each test starts the CLI as its own `node --import tsx` process: loading its imports alone
  // took 8–19 s on a loaded 2-core machine (a CI run failed one of these at the package's 20 s
  // default), so these get the 90 s the package's other process-starting suites have.
  this.timeout(90_000);
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;
  let workers: ReturnType<typeof startTestWorkers>;
  const children: ReturnType<typeof spawnTs>[] = [];

  const runCli = async (...args: string[]) => {
    const child = spawnTs('src/cli/aggregate.ts', args, { REDIS_URL, REDIS_PREFIX: env.prefix, AGG_JOB_ATTEMPTS: '1', NODE_ENV: 'test' });
    children.push(child);
    const { code } = await exitOf(child);
    return { code, output: child.output() };
  };

  before(async () => {
    db = await createTestDatabase('agg_cli', boMigrations);
    data = generateSourceData(9001, ['2026-05-31', '2026-06-01']);
    await insertSourceData(db.knex, data);
    env = createTestQueues('cli');
    workers = startTestWorkers(env, db.knex);
  });
  // A test that failed while its CLI still ran must not leave that CLI queueing into the next test.
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  after(async () => {
    await workers?.close();
    await env?.close();
    await db?.drop();
  });

  it('when every job of the range completes, then the CLI exits 0 and the days are built', async () => {
    const { code, output } = await runCli('--kind', 'goods', '--from', '2026-05-31', '--to', '2026-06-01');
    expect(code, output).to.equal(0);
    expect(output).to.include('All 2 aggregation job(s) completed');
    for (const day of ['2026-05-31', '2026-06-01'])
      expect(await storedRows(db.knex, 'goods', day)).to.deep.equal(expectedDaily(data, 'goods', day));
    // The builds marked the goods running sums stale; the worker refreshed them once its queue was idle.
    expect(await db.knex('agg_cum_stale'), 'no stale mark left').to.deep.equal([]);
    /** Order amount and daily rows summed per (agrtGb, goods, supplier). */
    const byKey = (rows: Record<string, unknown>[], dailyRows: (r: Record<string, unknown>) => number) => {
      const out = new Map<string, [number, number]>();
      for (const r of rows) {
        const key = [r.agrt_gb_cd, r.goods_no, r.entr_no].map(String).join('|');
        const [amt, n] = out.get(key) ?? [0, 0];
        out.set(key, [amt + Number(r.ord_amt), n + dailyRows(r)]);
      }
      return [...out].sort(([x], [y]) => (x < y ? -1 : 1));
    };
    for (const [month, days] of [
      ['2026-05-01', ['2026-05-31']],
      ['2026-06-01', ['2026-05-31', '2026-06-01']],
    ] as const) {
      const running = (await db.knex('agg_goods_cum_all').where({ agrt_mon: month }).andWhere('day_cnt', '>', 0)) as Record<
        string,
        unknown
      >[];
      const expected = days.flatMap((day) => expectedDaily(data, 'goods', day)) as Record<string, unknown>[];
      expect(
        byKey(running, (r) => Number(r.day_cnt)),
        `running sums through ${month}`,
      ).to.deep.equal(byKey(expected, () => 1));
    }
  });

  it('when the range holds several days of a month, then the month is one job (bulk mode) and every day equals its recomputation', async () => {
    // Two days without events, then the 31st (the next test counts the runs of June 1st).
    const { code, output } = await runCli('--kind', 'goods', '--from', '2026-05-29', '--to', '2026-05-31');
    expect(code, output).to.equal(0);
    expect(output).to.include('Queued 1 job(s)');
    expect(output).to.include('All 1 aggregation job(s) completed');
    for (const day of ['2026-05-29', '2026-05-30', '2026-05-31'])
      expect(await storedRows(db.knex, 'goods', day), day).to.deep.equal(expectedDaily(data, 'goods', day));
    expect(expectedDaily(data, 'goods', '2026-05-31'), 'the 31st has events').to.not.deep.equal([]);
    expect(await env.queues.build.getJob('build-goods-2026-05-29..2026-05-31'), 'the month job').to.not.equal(undefined);
    const runs = await db.knex('agg_run_log').where({ kind: 'goods', agrt_dt: '2026-05-29' }).select('to_dt', 'outcome');
    expect(runs.map((r: { to_dt: string; outcome: string }) => [String(r.to_dt), r.outcome])).to.deep.equal([['2026-05-31', 'done']]);
  });

  it('when the same range is asked for again after it completed, then the jobs run again (a rerun is never swallowed)', async () => {
    const { code } = await runCli('--kind', 'goods', '--from', '2026-06-01', '--to', '2026-06-01');
    expect(code).to.equal(0);
    const runs = await db.knex('agg_run_log').where({ kind: 'goods', agrt_dt: '2026-06-01', requested_by: 'cli', outcome: 'done' });
    expect(runs).to.have.length(2);
  });

  it('when a job of the range fails, then the CLI exits 1 naming the failed (kind, day) and its reason', async () => {
    // The payment-method aggregate needs the order table: without it that build fails, the others do not.
    await db.knex.schema.renameTable('ord', 'ord_hidden');
    try {
      const { code, output } = await runCli('--kind', 'all', '--from', '2026-06-01', '--to', '2026-06-01');
      expect(code, output).to.equal(1);
      expect(output).to.include(`1 of ${AGGREGATE_KINDS.length} aggregation job(s) did not complete`);
      expect(output).to.match(/payway 2026-06-01 \(job build-payway-2026-06-01\): .*ord/);
      expect(output).not.to.match(/category 2026-06-01 \(job/);
    } finally {
      await db.knex.schema.renameTable('ord_hidden', 'ord');
    }
  });

  it('when the arguments are invalid, then the CLI exits 2 naming the argument and queues nothing', async () => {
    const before = await env.queues.build.count();
    const { code, output } = await runCli('--kind', 'daily', '--from', '2026-06-01', '--to', '2026-06-01');
    expect(code).to.equal(2);
    expect(output).to.match(/--kind must be one of/);
    expect(await env.queues.build.count()).to.equal(before);
  });

  it('when asked for --help, then it prints the usage and exits 0', async () => {
    const { code, output } = await runCli('--help');
    expect(code).to.equal(0);
    expect(output).to.include('Usage: pnpm aggregate --kind');
  });
});
