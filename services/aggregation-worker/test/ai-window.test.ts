import { expect } from 'chai';
import { createTestDatabase, type TestDatabase, generateSourceData, insertSourceData, type SourceData, waitForJobs } from '@bo/testing';
import { AI_WINDOW_TABLES, aiWindowBuildVersion, boMigrations } from '@bo/aggregates';
import { selectRows } from '@bo/db';
import { enqueueBuilds } from '../src/queue/build-jobs.ts';
import { createTestQueues, startTestWorkers, type TestQueueEnv } from './helpers/queue-env.ts';

/** The days of the source data: one before the window, the three of it, and today (12 May). */
const DAYS = ['2026-05-08', '2026-05-09', '2026-05-10', '2026-05-11', '2026-05-12'];
const WINDOW_DAYS = 3;
/** 12:00 in Seoul on 12 May: the 3-day window is [9 May, 12 May). */
const NOW = new Date('2026-05-12T03:00:00Z');
const WINDOW = { toDay: '2026-05-12', days: WINDOW_DAYS };

type Sum = { goods_no: string; inf_cnt: number; net_qty: number };

describe('AI list window sums kept by the worker', () => {
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;
  let workers: ReturnType<typeof startTestWorkers>;
  let clock = NOW;

  /**
   * The window's demand counted again from the platform's rows with plain SQL: page views in
   * goods_inflow_log, ordered minus cancelled quantity of report 01 in ord_stat_evt.
   */
  async function recounted(from: string, to: string): Promise<Sum[]> {
    const views = await selectRows<{ goods_no: string; n: number }>(
      db.knex,
      'SELECT goods_no, COUNT(*) AS n FROM goods_inflow_log WHERE inflow_dtm >= ? AND inflow_dtm < ? GROUP BY goods_no',
      [`${from} 00:00:00`, `${to} 00:00:00`],
    );
    const net = await selectRows<{ goods_no: string; n: number }>(
      db.knex,
      `SELECT goods_no, SUM(CASE evt_gb_cd WHEN '10' THEN qty ELSE -qty END) AS n FROM ord_stat_evt
        WHERE agrt_gb_cd = '01' AND evt_dtm >= ? AND evt_dtm < ? GROUP BY goods_no`,
      [`${from} 00:00:00`, `${to} 00:00:00`],
    );
    const sums = new Map<string, Sum>();
    const of = (g: string) => sums.get(g) ?? sums.set(g, { goods_no: g, inf_cnt: 0, net_qty: 0 }).get(g)!;
    for (const v of views) of(v.goods_no).inf_cnt = Number(v.n);
    for (const o of net) of(o.goods_no).net_qty = Number(o.n);
    return [...sums.values()].sort((a, b) => a.goods_no.localeCompare(b.goods_no));
  }
  const stored = async (toDay = WINDOW.toDay): Promise<Sum[]> =>
    db
      .knex(AI_WINDOW_TABLES.sums)
      .where({ to_dt: toDay, days: WINDOW_DAYS })
      .select('goods_no', 'inf_cnt', 'net_qty')
      .orderBy('goods_no') as Promise<Sum[]>;
  const version = async (toDay = WINDOW.toDay) =>
    (await db.knex(AI_WINDOW_TABLES.version).where({ to_dt: toDay, days: WINDOW_DAYS }).first()) as
      { build_ver: string; built_dtm: string } | undefined;
  const build = async (targets: { kind: 'inflow' | 'goods' | 'category'; day: string; hour?: number }[], by: 'schedule' | 'dashboard') => {
    const queued = await enqueueBuilds(env.queues.build, targets, by);
    const states = await waitForJobs(
      env.queues.build,
      queued.map((q) => q.jobId),
    );
    expect(
      Object.values(states).every((s) => s === 'completed'),
      JSON.stringify(states),
    ).to.equal(true);
  };

  before(async () => {
    db = await createTestDatabase('agg_ai_window', boMigrations);
    data = generateSourceData(2026, DAYS);
    await insertSourceData(db.knex, data);
    env = createTestQueues('aiwin');
    workers = startTestWorkers(env, db.knex, { now: () => clock, aiWindowDays: WINDOW_DAYS });
  });
  after(async () => {
    await workers?.close();
    await env?.close();
    await db?.drop();
  });

  it('when the worker builds the inflow and goods days, then the window sums equal a recount of the logs and events, under the current version', async () => {
    await build(
      DAYS.flatMap((day) => [
        { kind: 'inflow' as const, day },
        { kind: 'goods' as const, day },
      ]),
      'schedule',
    );
    const want = await recounted('2026-05-09', '2026-05-12');
    expect(want.length, 'the data has demand in the window').to.be.above(5);
    expect(want, 'the window edges matter').to.not.deep.equal(await recounted('2026-05-08', '2026-05-11'));
    expect(await stored()).to.deep.equal(want);
    expect((await version())?.build_ver).to.equal(await aiWindowBuildVersion(db.knex, WINDOW));
  });

  it('when a window day is rerun after late page views and orders, then the job recomputes the sums and they equal the recount again', async () => {
    const goodsNo = data.goods[0]!.goods_no;
    await db
      .knex('goods_inflow_log')
      .insert(Array.from({ length: 25 }, () => ({ goods_no: goodsNo, site_no: 'S001', inflow_dtm: '2026-05-10 13:00:00' })));
    await db.knex('ord_stat_evt').insert({
      ord_no: 'LATE1',
      ord_goods_seq: 1,
      site_no: 'S001',
      goods_no: goodsNo,
      agrt_gb_cd: '01',
      evt_gb_cd: '10',
      evt_dtm: '2026-05-10 13:30:00',
      qty: 7,
      amt: 7000,
      dc_amt_2nd: 0,
      dc_amt_3rd: 0,
    });
    const before = await stored();
    const want = await recounted('2026-05-09', '2026-05-12');
    expect(before, 'the late rows change the sums').to.not.deep.equal(want);

    await build([{ kind: 'inflow', day: '2026-05-10', hour: 13 }], 'dashboard');
    const afterInflow = await stored();
    expect(afterInflow.find((s) => s.goods_no === goodsNo)?.inf_cnt).to.equal(want.find((s) => s.goods_no === goodsNo)?.inf_cnt);
    expect((await version())?.build_ver).to.equal(await aiWindowBuildVersion(db.knex, WINDOW));

    await build([{ kind: 'goods', day: '2026-05-10' }], 'dashboard');
    expect(await stored()).to.deep.equal(want);
    expect((await version())?.build_ver).to.equal(await aiWindowBuildVersion(db.knex, WINDOW));
  });

  it('when a day outside the window or another kind is built, then the sums are left alone', async () => {
    const was = await version();
    clock = new Date(NOW.getTime() + 60_000);
    await build(
      [
        { kind: 'inflow', day: '2026-05-12', hour: 2 },
        { kind: 'goods', day: '2026-05-08' },
        { kind: 'category', day: '2026-05-10' },
      ],
      'dashboard',
    );
    expect(await version()).to.deep.equal(was);
  });

  it('when the clock enters a new day, then its first build sums the new window and drops the old one', async () => {
    // 00:30 in Seoul on 13 May, the window now [10 May, 13 May): the day's first build, of any kind, sums it.
    clock = new Date('2026-05-12T15:30:00Z');
    await build([{ kind: 'category', day: '2026-05-12' }], 'schedule');
    expect(await stored('2026-05-13')).to.deep.equal(await recounted('2026-05-10', '2026-05-13'));
    expect((await version('2026-05-13'))?.build_ver).to.equal(
      await aiWindowBuildVersion(db.knex, { toDay: '2026-05-13', days: WINDOW_DAYS }),
    );
    expect(await db.knex(AI_WINDOW_TABLES.sums).where('to_dt', '<', '2026-05-13').count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    expect(await version()).to.equal(undefined);
  });
});
