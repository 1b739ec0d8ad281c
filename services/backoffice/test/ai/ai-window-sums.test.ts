import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import { rebuildAggregate, recomputeAiWindow } from '@bo/aggregation-worker';
import { AI_WINDOW_TABLES } from '@bo/aggregates';
import type { AiGoodsListItem, ListOf } from '@bo/contracts';
import { demandSource } from '../../src/ai/data-access/recommended-goods.ts';
import { ADMIN_AUTH, aiApp, aiDatabase, BO, envelope, goodsRow, insertAiMasters, statEvent, supplierAuth } from './helpers/ai-fixtures.ts';

/**
 * The AI list's demand sums kept by the worker (`agg_ai_window_sum`, under the window's build
 * version): what is stored, when the back-office reads it, and that the answer is the same either way.
 *
 * 2026-05-12 12:00 in Seoul: the 30-day window is [2026-04-12, 2026-05-12).
 */
const NOW = new Date('2026-05-12T03:00:00Z');
const WINDOW = { toDay: '2026-05-12', days: 30 };
const SETTINGS = { timeZone: 'Asia/Seoul', days: 30, now: () => NOW };

const FIRST = '2026-04-12 00:00:00';
const LAST = '2026-05-11 23:59:59';
const MID = '2026-05-01 10:00:00';
const BEFORE = '2026-04-11 23:59:59';
const TODAY = '2026-05-12 09:00:00';

/** Page views and order events as the platform writes them, by hand. */
const inflow: { goods_no: string; site_no: string; inflow_dtm: string }[] = [];
const views = (goodsNo: string, n: number, at: string, site = 'S001') => {
  for (let i = 0; i < n; i++) inflow.push({ goods_no: goodsNo, site_no: site, inflow_dtm: at });
};
let ord = 0;
const events: Record<string, unknown>[] = [];
const event = (goodsNo: string, qty: number, evt: '10' | '20', at: string, agrt: '01' | '02' = '01', site = 'S001') =>
  events.push(statEvent(`W${++ord}`, goodsNo, qty, evt, at, agrt, site));

// W01: 150 + 1 (first instant of the window) + 1 (last second) views, two sites; 2 ordered, 1 cancelled.
views('W01', 100, MID);
views('W01', 50, MID, 'S002');
views('W01', 1, FIRST);
views('W01', 1, LAST);
views('W01', 40, BEFORE);
views('W01', 40, TODAY);
event('W01', 2, '10', MID);
event('W01', 1, '20', LAST, '01', 'S002');
event('W01', 30, '10', MID, '02'); // a sale, not an order
event('W01', 9, '10', TODAY);
event('W01', 9, '10', BEFORE);
// W02: 120 views and 10 ordered: converting.
views('W02', 120, MID);
event('W02', 10, '10', FIRST);
// W03: ordered and cancelled in the window: net 0, no views.
event('W03', 3, '10', MID);
event('W03', 3, '20', '2026-05-02 08:00:00');
// W04: views only before the window and today.
views('W04', 150, BEFORE);
views('W04', 150, TODAY);
// W05: exactly 100 views at the window's first instant, no orders.
views('W05', 100, FIRST);

/** The window's sums of the rows above, counted by hand: views in [FIRST, LAST], net report-01 quantity. */
const EXPECTED_SUMS = [
  { goods_no: 'W01', inf_cnt: 152, net_qty: 1 },
  { goods_no: 'W02', inf_cnt: 120, net_qty: 10 },
  { goods_no: 'W03', inf_cnt: 0, net_qty: 0 },
  { goods_no: 'W05', inf_cnt: 100, net_qty: 0 },
];
/** Scores by hand: W01 and W05 demand without conversion (30 + 5 per full 100 views), W06 a missing brand (15). */
const EXPECTED_LIST = [
  ['W01', 35],
  ['W05', 35],
  ['W06', 15],
];

type List = ListOf<AiGoodsListItem>;

describe('AI recommended goods list: demand sums kept by the worker', () => {
  let db: TestDatabase;

  const storedSums = async () =>
    (await db
      .knex(AI_WINDOW_TABLES.sums)
      .where({ to_dt: WINDOW.toDay, days: WINDOW.days })
      .select('goods_no', 'inf_cnt', 'net_qty')
      .orderBy('goods_no')) as { goods_no: string; inf_cnt: number; net_qty: number }[];
  const list = async (q: Record<string, unknown> = {}, clock = NOW, auth = ADMIN_AUTH) => {
    const res = await request(aiApp(db, { AI_LIST_MIN_SCORE: '1' }, () => clock))
      .get(`${BO}/v2/goods/ai/getAiGoodsList`)
      .query({ pageSize: 1000, ...q })
      .set('Authorization', auth);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return envelope<List>(res).payload;
  };
  const ranked = (payload: List) => payload.payloads.map((p) => [p.goodsNo, p.score]);
  /** The answer with the stored sums out of the way: the version row gone, the list sums the aggregates. */
  const liveAnswer = async (q: Record<string, unknown> = {}, auth = ADMIN_AUTH) => {
    const ver = await db
      .knex(AI_WINDOW_TABLES.version)
      .where({ to_dt: WINDOW.toDay, days: WINDOW.days })
      .first<Record<string, unknown> | undefined>();
    await db.knex(AI_WINDOW_TABLES.version).where({ to_dt: WINDOW.toDay, days: WINDOW.days }).delete();
    try {
      expect(await demandSource(db.knex, WINDOW)).to.equal('live');
      return await list(q, NOW, auth);
    } finally {
      if (ver) await db.knex(AI_WINDOW_TABLES.version).insert(ver);
    }
  };

  before(async () => {
    db = await aiDatabase('ai_window');
    await insertAiMasters(db.knex);
    await db
      .knex('goods')
      .insert([
        goodsRow('W01'),
        goodsRow('W02'),
        goodsRow('W03'),
        goodsRow('W04'),
        goodsRow('W05', { entr_no: 'E002' }),
        goodsRow('W06', { brand_no: null }),
      ]);
    await db.knex('goods_inflow_log').insert(inflow);
    await db.knex('ord_stat_evt').insert(events);
    const days = [...new Set([...inflow.map((v) => v.inflow_dtm), ...events.map((e) => String(e.evt_dtm))].map((t) => t.slice(0, 10)))];
    for (const day of days) {
      await rebuildAggregate(db.knex, { kind: 'inflow', day, requestedBy: 'cli' });
      await rebuildAggregate(db.knex, { kind: 'goods', day, requestedBy: 'cli' });
    }
    await recomputeAiWindow(db.knex, SETTINGS);
  });
  after(() => db.drop());

  it('when the worker has summed the window, then the sums equal the count by hand and the list reads them, with the live answer', async () => {
    expect(await storedSums()).to.deep.equal(EXPECTED_SUMS);
    expect(await demandSource(db.knex, WINDOW)).to.equal('stored');
    const stored = await list();
    expect(ranked(stored)).to.deep.equal(EXPECTED_LIST);
    expect(stored.payloads[0]!.goodsReason).to.include('152회').and.include('순주문 1개');
    for (const [q, auth] of [
      [{}, ADMIN_AUTH],
      [{ page: 2, pageSize: 1 }, ADMIN_AUTH],
      [{ goodsNo: 'W05' }, ADMIN_AUTH],
      [{ page: 9, pageSize: 2 }, ADMIN_AUTH],
      [{}, supplierAuth('E002')],
    ] as const) {
      expect(await list(q, NOW, auth), JSON.stringify(q)).to.deep.equal(await liveAnswer(q, auth));
    }
    expect(await demandSource(db.knex, WINDOW)).to.equal('stored');
  });

  it('when a stored sum differs while the version is current, then the list follows it: the stored sums are what it reads', async () => {
    // 500 views against 10 ordered is 2 %: demand without conversion, 30 + 20.
    await db.knex(AI_WINDOW_TABLES.sums).where({ to_dt: WINDOW.toDay, days: WINDOW.days, goods_no: 'W02' }).update({ inf_cnt: 500 });
    try {
      expect(ranked(await list())).to.deep.equal([['W02', 50], ...EXPECTED_LIST]);
      expect(ranked(await liveAnswer()), 'the aggregates say otherwise').to.deep.equal(EXPECTED_LIST);
    } finally {
      await db.knex(AI_WINDOW_TABLES.sums).where({ to_dt: WINDOW.toDay, days: WINDOW.days, goods_no: 'W02' }).update({ inf_cnt: 120 });
    }
  });

  it('when a window day was rebuilt without a recompute, then the version differs and the list sums the aggregates, until the worker recomputes', async () => {
    await db.knex(AI_WINDOW_TABLES.sums).where({ to_dt: WINDOW.toDay, days: WINDOW.days, goods_no: 'W02' }).update({ inf_cnt: 500 });
    // A rebuild of 1 May that did not recompute: its agg_built_day row is rewritten with a new instant.
    await db.knex('agg_built_day').where({ kind: 'goods', agrt_dt: '2026-05-01' }).update({ built_dtm: '2026-05-12 11:00:00.123' });
    expect(await demandSource(db.knex, WINDOW)).to.equal('live');
    expect(ranked(await list()), 'the stale stored sum is not read').to.deep.equal(EXPECTED_LIST);
    expect(await list()).to.deep.equal(await liveAnswer());

    // Late views of a window hour, rebuilt (the hourly build does not recompute here): the live sums count them.
    await db.knex('goods_inflow_log').insert(Array.from({ length: 30 }, () => ({ goods_no: 'W02', site_no: 'S001', inflow_dtm: LAST })));
    await rebuildAggregate(db.knex, { kind: 'inflow', day: '2026-05-11', hour: 23, requestedBy: 'late-data' });
    expect(await demandSource(db.knex, WINDOW)).to.equal('live');
    expect((await list({ goodsNo: 'W02' })).payloads, '150 views against 10 ordered converts').to.deep.equal([]);

    await recomputeAiWindow(db.knex, SETTINGS);
    expect(await demandSource(db.knex, WINDOW)).to.equal('stored');
    expect(await storedSums()).to.deep.equal(EXPECTED_SUMS.map((s) => (s.goods_no === 'W02' ? { ...s, inf_cnt: 150 } : s)));
    expect(ranked(await list())).to.deep.equal(EXPECTED_LIST);
  });

  it('when a day outside the window is built, then the stored sums stay current; on the next day they are not read until recomputed', async () => {
    await rebuildAggregate(db.knex, { kind: 'inflow', day: '2026-05-12', requestedBy: 'schedule' });
    await rebuildAggregate(db.knex, { kind: 'goods', day: '2026-04-11', requestedBy: 'cli' });
    expect(await demandSource(db.knex, WINDOW)).to.equal('stored');
    // 13 May: the window is [13 Apr, 13 May); the sums of [12 Apr, 12 May) are no answer for it.
    const tomorrow = new Date('2026-05-13T03:00:00Z');
    expect(await demandSource(db.knex, { toDay: '2026-05-13', days: 30 })).to.equal('live');
    // W01 gains 12 May's 40 views and 9 ordered (10 net of 191 views converts); W02 loses its 10 ordered
    // on 12 Apr (150 views, none ordered); W05 loses its 100 views; W04 gains 150.
    expect(ranked(await list({}, tomorrow))).to.deep.equal([
      ['W02', 35],
      ['W04', 35],
      ['W06', 15],
    ]);
    // With another window length the stored sums are not read either.
    expect(await demandSource(db.knex, { toDay: '2026-05-12', days: 7 })).to.equal('live');
  });
});
