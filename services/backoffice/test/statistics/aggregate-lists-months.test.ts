import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { CategoryStatusRow, EnterpriseStatusRow, GoodsStatusRow, ListOf, PayWayStatusRow } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { rebuildAggregate, refreshRunningSums } from '@bo/aggregation-worker';
import { arrange, buildDailyAggregates, insertArranged, type Arranged, type Evt } from './helpers/arranged-data.ts';
import { categoryRows, days, enterpriseRows, goodsRows, payWayRows } from './helpers/expected.ts';
import { ADMIN_AUTH, BO, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

const CATEGORY = `${BO}/v1/statistics/categoryStatus/getCategoryStatusList`;
const PAY_WAY = `${BO}/v1/statistics/payWayStatus/getPayWayStatusList`;
const GOODS = `${BO}/v1/statistics/goodsStatus/getGoodsStatusList`;
const ENTERPRISE = `${BO}/v1/statistics/enterpriseStatus/getEnterpriseStatusList`;
const DAILY_KINDS = ['category', 'payway', 'goods', 'entr'] as const;

/** Whole February, the end of January and the start of March. */
const SPAN = { startDate: '2026-01-25', endDate: '2026-03-03' };

interface Captured {
  sql: string;
  bindings: unknown[];
}

/**
 * Ranges holding whole months: the lists read those months from the worker's monthly roll-ups
 * and the other days from the daily aggregates. Every expectation is recomputed from the
 * arranged events in plain JS, so a month counted twice, a day lost at a month edge or a roll-up
 * that missed a rebuild shows as a wrong number.
 */
describe('statistics: aggregate lists over ranges holding whole months (monthly roll-ups)', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;
  let built: string[];

  before(async () => {
    db = await statisticsDatabase('stats_months');
    a = arrange({ seed: 9101, orderDays: days('2026-01-20', '2026-03-05'), orders: 320, inflowDays: ['2026-02-10'], inflows: 5 });
    await insertArranged(db.knex, a);
    // Days outside 01-18..03-08 hold events too (late sales and returns): they must not count.
    built = await buildDailyAggregates(db.knex, '2026-01-18', '2026-03-08');
    app = statisticsApp(db);
  });
  after(() => db?.drop());

  const get = (path: string, q: Record<string, string>) => request(app).get(path).query(q).set('Authorization', ADMIN_AUTH);
  const range = (agrtGb: string, r: { startDate: string; endDate: string }, extra: { siteNo?: string } = {}) => ({
    agrtGb,
    from: r.startDate,
    to: r.endDate,
    built,
    ...extra,
  });
  /** The rows of a list answer. */
  const payloads = <T>(res: { body: unknown }): T[] => (res.body as ListOf<T>).payloads;
  /** The order amount over rows: where a roll-up row bumped by hand shows in an answer. */
  const ordAmtSum = (rows: readonly { ordAmt: number }[]): number => rows.reduce((t, r) => t + r.ordAmt, 0);

  /** Every list over `r` without filters, against its recomputation. */
  async function expectEveryList(r: { startDate: string; endDate: string }, agrtGb: string): Promise<void> {
    const q = { ...r, agrtGb };
    const cases: [string, unknown[]][] = [
      [CATEGORY, categoryRows(a, range(agrtGb, r))],
      [PAY_WAY, payWayRows(a, range(agrtGb, r))],
      [GOODS, goodsRows(a, range(agrtGb, r))],
      [ENTERPRISE, enterpriseRows(a, range(agrtGb, r))],
    ];
    for (const [path, expected] of cases) {
      const res = await get(path, q);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body, `${path} ${JSON.stringify(q)}`).to.deep.equal({ totalCount: expected.length, payloads: expected });
      expect(expected.length, `${path} has rows`).to.be.greaterThan(0);
    }
  }

  it('when the range holds a whole month and parts of the months around it, then every list equals the recomputation', async () => {
    await expectEveryList(SPAN, '01');
    await expectEveryList(SPAN, '02');
  });

  it('when the range is exactly whole months, or reaches days not aggregated yet, then the numbers are those of the aggregated days', async () => {
    await expectEveryList({ startDate: '2026-02-01', endDate: '2026-02-28' }, '01');
    await expectEveryList({ startDate: '2026-01-01', endDate: '2026-03-31' }, '02');
    await expectEveryList({ startDate: '2026-02-01', endDate: '2026-03-08' }, '01');
  });

  it('when the range is several whole months, then the category and goods lists read them from their running sums (by day and by month), filtered or not, as far as days are aggregated', async () => {
    const captured: string[] = [];
    const onQuery = (q: Captured) => captured.push(q.sql);
    const spans = [
      { startDate: '2026-02-01', endDate: '2026-03-31' }, // the month before (January) has days
      { startDate: '2026-01-01', endDate: '2026-02-28' }, // the month before has none
      { startDate: '2026-02-01', endDate: '2026-05-31' }, // ends months after the last aggregated day
      { startDate: '2026-03-01', endDate: '2026-04-30' },
      { startDate: '2026-01-21', endDate: '2026-04-30' }, // a part of a month, then whole ones
      { startDate: '2026-04-01', endDate: '2026-06-30' }, // nothing aggregated yet
      { startDate: '2025-10-01', endDate: '2025-12-31' }, // before anything aggregated
    ];
    type Q = ReturnType<typeof range> & Record<string, string>;
    const lists = [
      {
        path: CATEGORY,
        table: '`agg_ctg_cum_day_all`',
        expected: (q: Q): unknown[] => categoryRows(a, q),
        filters: [{}, { mdId: 'MD02' }, { stdCtgNo: 'C1000' }, { stdCtgNo: 'C2000', mdId: 'MD01' }],
      },
      {
        path: GOODS,
        table: '`agg_goods_cum_all`',
        expected: (q: Q): unknown[] => goodsRows(a, q),
        filters: [{}, { entrNo: 'E003' }, { goodsNo: 'G0007' }],
      },
    ];
    for (const list of lists) {
      let listed = 0;
      captured.length = 0;
      db.knex.on('query', onQuery);
      try {
        for (const span of spans)
          for (const agrtGb of ['01', '02'])
            for (const f of list.filters as Record<string, string>[]) {
              const res = await get(list.path, { ...span, agrtGb, ...f });
              const expected = list.expected({ ...range(agrtGb, span), ...f } as Q);
              expect((res.body as ListOf<unknown>).payloads, `${list.path} ${JSON.stringify({ ...span, agrtGb, ...f })}`).to.deep.equal(
                expected,
              );
              listed += expected.length;
            }
      } finally {
        db.knex.off('query', onQuery);
      }
      expect(listed, `${list.path} rows listed`).to.be.greaterThan(50);
      expect(captured.filter((sql) => sql.includes(list.table)).length, `reads of ${list.table}`).to.be.greaterThan(20);
    }
    // The running sums are of every site: with a site condition the per-site monthly rows serve.
    const bySite = await get(CATEGORY, { ...spans[0]!, agrtGb: '01', siteNo: 'S01' });
    expect((bySite.body as ListOf<CategoryStatusRow>).payloads).to.deep.equal(categoryRows(a, range('01', spans[0]!, { siteNo: 'S01' })));
    const goodsBySite = await get(GOODS, { ...spans[0]!, agrtGb: '02', siteNo: 'S02' });
    expect((goodsBySite.body as ListOf<GoodsStatusRow>).payloads).to.deep.equal(goodsRows(a, range('02', spans[0]!, { siteNo: 'S02' })));
  });

  it('when a goods changed supplier between months, then the running sums keep each supplier apart and the list shows the goods once, under the last of them', async () => {
    const span = { startDate: '2026-01-01', endDate: '2026-03-31' };
    const before = { startDate: '2026-01-01', endDate: '2026-02-28' };
    const march = { startDate: '2026-03-01', endDate: '2026-03-31' };
    // A goods sold (report 01) both before March and in it.
    const g = a.goods.find(
      ({ goods_no: goodsNo }) =>
        goodsRows(a, { ...range('01', before), goodsNo }).length > 0 && goodsRows(a, { ...range('01', march), goodsNo }).length > 0,
    )!;
    const [from, to] = [g.entr_no, g.entr_no === 'E004' ? 'E001' : 'E004'];
    const rebuildMarch = async () => {
      for (const day of days('2026-03-01', '2026-03-08')) await rebuildAggregate(db.knex, { kind: 'goods', day, requestedBy: 'cli' });
      await refreshRunningSums(db.knex);
    };
    const rowOf = async (q: Record<string, string>) =>
      (((await get(GOODS, { ...span, agrtGb: '01', ...q })).body as ListOf<GoodsStatusRow>).payloads ?? []).filter(
        (r) => r.goodsNo === g.goods_no,
      );
    await db.knex('goods').where({ goods_no: g.goods_no }).update({ entr_no: to });
    try {
      await rebuildMarch();
      const last = [from, to].sort()[1]!;
      const whole = goodsRows(a, { ...range('01', span), goodsNo: g.goods_no })[0]!;
      expect(await rowOf({ goodsNo: g.goods_no })).to.deep.equal([
        { ...whole, entrNo: last, entrNm: a.entrs.find((e) => e.entr_no === last)!.entr_nm },
      ]);
      // Each supplier's filter sees the goods' days under it.
      const { entrNo: _e, entrNm: _n, ...marchSums } = goodsRows(a, { ...range('01', march), goodsNo: g.goods_no })[0]!;
      const { entrNo: _e2, entrNm: _n2, ...beforeSums } = goodsRows(a, { ...range('01', before), goodsNo: g.goods_no })[0]!;
      expect(await rowOf({ entrNo: to })).to.deep.equal([
        { ...marchSums, entrNo: to, entrNm: a.entrs.find((e) => e.entr_no === to)!.entr_nm },
      ]);
      expect(await rowOf({ entrNo: from })).to.deep.equal([
        { ...beforeSums, entrNo: from, entrNm: a.entrs.find((e) => e.entr_no === from)!.entr_nm },
      ]);
      const running = await db.knex('agg_goods_cum_all').where({ agrt_gb_cd: '01', agrt_mon: '2026-03-01', goods_no: g.goods_no });
      expect(running.map((r: { entr_no: string }) => r.entr_no).sort()).to.deep.equal([from, to].sort());
    } finally {
      await db.knex('goods').where({ goods_no: g.goods_no }).update({ entr_no: from });
      await rebuildMarch();
    }
    expect(await rowOf({ goodsNo: g.goods_no })).to.deep.equal(goodsRows(a, { ...range('01', span), goodsNo: g.goods_no }));
  });

  it('when the lists are filtered (category subtree and site, MD, method, supplier, goods), then the whole months are filtered alike', async () => {
    const q = { ...SPAN, agrtGb: '01' };
    const byCategory = await get(CATEGORY, { ...q, stdCtgNo: 'C1000', siteNo: 'S01' });
    expect((byCategory.body as ListOf<CategoryStatusRow>).payloads).to.deep.equal(
      categoryRows(a, { ...range('01', SPAN, { siteNo: 'S01' }), stdCtgNo: 'C1000' }),
    );
    const byMd = await get(CATEGORY, { ...q, mdId: 'MD02' });
    expect((byMd.body as ListOf<CategoryStatusRow>).payloads).to.deep.equal(categoryRows(a, { ...range('01', SPAN), mdId: 'MD02' }));
    const byMethod = await get(PAY_WAY, { ...q, payWayCd: '20', siteNo: 'S02' });
    expect((byMethod.body as ListOf<PayWayStatusRow>).payloads).to.deep.equal(
      payWayRows(a, { ...range('01', SPAN, { siteNo: 'S02' }), payWayCd: '20' }),
    );
    const bySupplier = await get(GOODS, { ...q, entrNo: 'E003', siteNo: 'S01' });
    expect((bySupplier.body as ListOf<GoodsStatusRow>).payloads).to.deep.equal(
      goodsRows(a, { ...range('01', SPAN, { siteNo: 'S01' }), entrNo: 'E003' }),
    );
    const oneGoods = await get(GOODS, { ...q, goodsNo: 'G0007' });
    expect((oneGoods.body as ListOf<GoodsStatusRow>).payloads).to.deep.equal(goodsRows(a, { ...range('01', SPAN), goodsNo: 'G0007' }));
    const supplier = await get(ENTERPRISE, { ...q, entrNo: 'E002', siteNo: 'S02' });
    expect((supplier.body as ListOf<EnterpriseStatusRow>).payloads).to.deep.equal(
      enterpriseRows(a, { ...range('01', SPAN, { siteNo: 'S02' }), entrNo: 'E002' }),
    );
    for (const res of [byCategory, byMd, byMethod, bySupplier, oneGoods, supplier])
      expect((res.body as ListOf<unknown>).payloads.length).to.be.greaterThan(0);
  });

  it('when requests share the SQL of one shape (same filters, the range split alike) with other values, then each equals its own recomputation', async () => {
    // The lists' SQL is compiled once per shape and only bound afterwards (compiled-query.ts):
    // a value bound to the wrong place would answer an earlier request's rows or none.
    const spans = [SPAN, { startDate: '2026-01-28', endDate: '2026-03-04' }, { startDate: '2026-01-21', endDate: '2026-03-01' }];
    const answers = new Set<string>();
    const rows = payloads<unknown>;
    for (const span of spans)
      for (const [agrtGb, siteNo, entrNo, stdCtgNo] of [
        ['01', 'S01', 'E003', 'C1000'],
        ['02', 'S02', 'E002', 'C2000'],
      ] as const) {
        const q = { ...span, agrtGb, siteNo };
        const goods = await get(GOODS, { ...q, entrNo });
        expect(rows(goods), `goods ${JSON.stringify({ ...q, entrNo })}`).to.deep.equal(
          goodsRows(a, { ...range(agrtGb, span, { siteNo }), entrNo }),
        );
        const category = await get(CATEGORY, { ...q, stdCtgNo });
        expect(rows(category), `category ${JSON.stringify({ ...q, stdCtgNo })}`).to.deep.equal(
          categoryRows(a, { ...range(agrtGb, span, { siteNo }), stdCtgNo }),
        );
        const supplier = await get(ENTERPRISE, { ...q, entrNo });
        expect(rows(supplier)).to.deep.equal(enterpriseRows(a, { ...range(agrtGb, span, { siteNo }), entrNo }));
        const method = await get(PAY_WAY, q);
        expect(rows(method)).to.deep.equal(payWayRows(a, range(agrtGb, span, { siteNo })));
        for (const res of [goods, category, supplier, method]) answers.add(JSON.stringify(rows(res)));
      }
    expect(answers.size, 'the requests have different answers').to.be.greaterThan(20);
  });

  it('when a day inside a whole month gets late events and is rebuilt, then the lists count them once', async () => {
    const day = '2026-02-14';
    const ord = { ord_no: 'OLATE1', site_no: 'S02', mbr_no: 'M9', ord_dtm: `${day} 10:00:00`, pay_way_cd: '40' };
    const g = a.goods[5]!;
    const late: Evt[] = [
      {
        ord_no: ord.ord_no,
        ord_goods_seq: 1,
        site_no: ord.site_no,
        goods_no: g.goods_no,
        agrt_gb_cd: '01',
        evt_gb_cd: '10',
        evt_dtm: ord.ord_dtm,
        qty: 7,
        amt: 700_000,
        dc_amt_2nd: 7000,
        dc_amt_3rd: 700,
      },
      {
        ord_no: ord.ord_no,
        ord_goods_seq: 1,
        site_no: ord.site_no,
        goods_no: g.goods_no,
        agrt_gb_cd: '01',
        evt_gb_cd: '20',
        evt_dtm: `${day} 23:59:59`,
        qty: 2,
        amt: 200_000,
        dc_amt_2nd: 2000,
        dc_amt_3rd: 200,
      },
    ];
    const before = enterpriseRows(a, range('01', SPAN));
    await db.knex('ord').insert(ord);
    await db.knex('ord_stat_evt').insert(late);
    a.ords.push(ord);
    a.events.push(...late);
    for (const kind of DAILY_KINDS) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'late-data' });
    expect(enterpriseRows(a, range('01', SPAN)), 'the late events change the supplier list').to.not.deep.equal(before);
    // Before the running sums are refreshed (read from the monthly rows), then after.
    for (const _ of ['stale', 'refreshed']) {
      await expectEveryList(SPAN, '01');
      await expectEveryList({ startDate: '2026-01-01', endDate: '2026-03-31' }, '01');
      await refreshRunningSums(db.knex);
    }
  });

  it('when a day inside a whole month loses events and is rebuilt, then the lists no longer count them', async () => {
    const day = '2026-02-20';
    const lost = a.events.filter((e) => e.evt_dtm.startsWith(day) && e.site_no === 'S01');
    expect(lost.length, 'the day has events on S01').to.be.greaterThan(0);
    await db
      .knex('ord_stat_evt')
      .where('evt_dtm', '>=', `${day} 00:00:00`)
      .andWhere('evt_dtm', '<', '2026-02-21 00:00:00')
      .andWhere({ site_no: 'S01' })
      .delete();
    a.events = a.events.filter((e) => !lost.includes(e));
    for (const kind of DAILY_KINDS) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'dashboard' });
    for (const _ of ['stale', 'refreshed']) {
      await expectEveryList(SPAN, '01');
      await expectEveryList(SPAN, '02');
      await expectEveryList({ startDate: '2026-02-01', endDate: '2026-03-31' }, '02');
      await refreshRunningSums(db.knex);
    }
  });

  it('when day builds have left the running sums behind, then the lists read those months from the monthly rows until the sums are refreshed', async () => {
    const span = { startDate: '2026-01-01', endDate: '2026-03-31' };
    // Bumped: the goods list's running sums of March, the category list's by day of the last built day.
    const cases = [
      {
        kind: 'goods' as const,
        path: GOODS,
        table: 'agg_goods_cum_all',
        bumped: { agrt_mon: '2026-03-01' },
        expected: () => goodsRows(a, range('01', span)),
      },
      {
        kind: 'category' as const,
        path: CATEGORY,
        table: 'agg_ctg_cum_day_all',
        bumped: { agrt_dt: '2026-03-08' },
        expected: () => categoryRows(a, range('01', span)),
      },
    ];
    for (const c of cases) {
      const list = async () => payloads<{ ordAmt: number }>(await get(c.path, { ...span, agrtGb: '01' }));
      await refreshRunningSums(db.knex);
      expect(await list(), `${c.kind}: current sums`).to.deep.equal(c.expected());
      // The last running sums of the range bumped by hand: while current, the list reads them (the bump shows).
      const bumped = await db
        .knex(c.table)
        .where({ agrt_gb_cd: '01', ...c.bumped })
        .andWhere('day_cnt', '>', 0)
        .update({ ord_amt: db.knex.raw('ord_amt + 1000') });
      expect(bumped, `${c.kind}: running rows bumped`).to.be.greaterThan(0);
      expect(ordAmtSum(await list()), `${c.kind}: read from the running sums`).to.equal(ordAmtSum(c.expected()) + 1000 * bumped);
      // A day of February built: the sums are stale from February on, so the months come from the monthly rows.
      await rebuildAggregate(db.knex, { kind: c.kind, day: '2026-02-11', requestedBy: 'cli' });
      expect(await db.knex('agg_cum_stale').where({ kind: c.kind }).first(), `${c.kind}: marked`).to.deep.include({ kind: c.kind });
      expect(await list(), `${c.kind}: stale sums`).to.deep.equal(c.expected());
      // Refreshed: written again from the monthly rows (the bump gone), and read again.
      await refreshRunningSums(db.knex);
      expect(await db.knex('agg_cum_stale').where({ kind: c.kind }), `${c.kind}: mark cleared`).to.deep.equal([]);
      expect(await list(), `${c.kind}: refreshed sums`).to.deep.equal(c.expected());
    }
  });

  it('when a range ends on the last aggregated day or starts on the first, then every list equals the recomputation', async () => {
    // 03-01..03-08 is all of March that is aggregated, 01-18..01-31 all of January.
    await expectEveryList({ startDate: '2026-01-25', endDate: '2026-03-08' }, '01');
    await expectEveryList({ startDate: '2026-01-18', endDate: '2026-02-10' }, '02');
    await expectEveryList({ startDate: '2026-02-20', endDate: '2026-03-08' }, '02');
  });

  /**
   * Adds `n` to the order amount of `table`'s rows of one month (agrtGb 01) while `check` runs: an
   * answer that moves by `n` per row read them, one that does not read the daily rows.
   */
  async function withMonthBumped(table: string, month: string, n: number, check: (rows: number) => Promise<void>): Promise<void> {
    const bump = (by: number) => db.knex(table).where({ agrt_gb_cd: '01', agrt_mon: month }).increment('ord_amt', by);
    const counted = await db.knex(table).where({ agrt_gb_cd: '01', agrt_mon: month }).count({ n: '*' });
    const rows = Number((counted[0] as { n: number | string }).n);
    expect(rows, `${table} has rows for ${month}`).to.be.greaterThan(0);
    await bump(n);
    try {
      await check(rows);
    } finally {
      await bump(-n);
    }
  }

  it('when a month has aggregated days only inside the range, then its monthly rows serve; with aggregated days outside, its daily rows (the supplier list; not the payment-method list, below)', async () => {
    const q = { agrtGb: '01' };
    const total = (res: { body: unknown }) => ordAmtSum(payloads<EnterpriseStatusRow>(res));
    const expected = (r: { startDate: string; endDate: string }) => ordAmtSum(enterpriseRows(a, range('01', r)));
    const wholeMarch = { startDate: '2026-03-01', endDate: '2026-03-08' };
    const partOfMarch = { startDate: '2026-03-01', endDate: '2026-03-03' };
    await withMonthBumped('agg_entr_monthly_all', '2026-03-01', 1000, async (rows) => {
      expect(total(await get(ENTERPRISE, { ...q, ...wholeMarch }))).to.equal(expected(wholeMarch) + 1000 * rows);
      expect(total(await get(ENTERPRISE, { ...q, ...partOfMarch }))).to.equal(expected(partOfMarch));
    });
    expect(total(await get(ENTERPRISE, { ...q, ...wholeMarch }))).to.equal(expected(wholeMarch));
  });

  it('when the payment-method list (few keys) reads a piece of a month, then its daily rows serve even where the monthly rows could; whole months still come from the monthly rows', async () => {
    const q = { agrtGb: '01' };
    const total = (res: { body: unknown }) => ordAmtSum(payloads<PayWayStatusRow>(res));
    const expected = (r: { startDate: string; endDate: string }) => ordAmtSum(payWayRows(a, range('01', r)));
    // March holds aggregated days 1–8 only: the supplier list reads its monthly rows for these.
    const marchSoFar = { startDate: '2026-03-01', endDate: '2026-03-08' };
    const acrossMarch = { startDate: '2026-02-25', endDate: '2026-03-08' };
    await withMonthBumped('agg_payway_monthly_all', '2026-03-01', 1000, async () => {
      for (const r of [marchSoFar, acrossMarch, SPAN])
        expect(total(await get(PAY_WAY, { ...q, ...r })), JSON.stringify(r)).to.equal(expected(r));
    });
    const february = { startDate: '2026-02-01', endDate: '2026-02-28' };
    await withMonthBumped('agg_payway_monthly_all', '2026-02-01', 1000, async (rows) => {
      expect(total(await get(PAY_WAY, { ...q, ...february }))).to.equal(expected(february) + 1000 * rows);
      expect(total(await get(PAY_WAY, { ...q, ...SPAN }))).to.equal(expected(SPAN) + 1000 * rows);
    });
  });

  /** The lists with ten-day rows, each with its own filters, against their recomputations. */
  type Q = ReturnType<typeof range> & Record<string, string>;
  const TEN_DAY_LISTS: {
    name: string;
    path: string;
    table: string;
    expected: (q: Q) => { ordAmt: number }[];
    filters: Record<string, string>[];
  }[] = [
    {
      name: 'category',
      path: CATEGORY,
      table: 'agg_ctg_tenday_all',
      expected: (q: Q): { ordAmt: number }[] => categoryRows(a, q),
      filters: [{ mdId: 'MD02' }, { stdCtgNo: 'C1000' }],
    },
    {
      name: 'goods',
      path: GOODS,
      table: 'agg_goods_tenday_all',
      expected: (q: Q): { ordAmt: number }[] => goodsRows(a, q),
      filters: [{ entrNo: 'E003' }, { goodsNo: 'G0007' }],
    },
  ];

  it('when a range cuts months at ten-day spans (1–10, 11–20, 21 to the end), then the category and goods lists equal the recomputation, filtered or not, per site or not', async () => {
    const spans = [
      { startDate: '2026-02-11', endDate: '2026-02-20' }, // one whole span, the month's other days built
      { startDate: '2026-02-05', endDate: '2026-02-25' }, // two cut spans around a whole one
      { startDate: '2026-01-21', endDate: '2026-03-03' }, // January's last span, February, the start of March
      { startDate: '2026-01-19', endDate: '2026-02-14' }, // January from its second built day
      { startDate: '2026-01-25', endDate: '2026-02-11' }, // February's piece of one day, inside a span
      { startDate: '2026-02-21', endDate: '2026-03-08' }, // February's last span, all of March that is built
      { startDate: '2026-02-12', endDate: '2026-02-19' }, // inside one span
      { startDate: '2026-01-18', endDate: '2026-01-20' }, // a cut span whose other days are not built: its ten-day row serves
      { startDate: '2026-01-18', endDate: '2026-02-05' }, // the same, then January's last span and a cut one
      { startDate: '2026-02-25', endDate: '2026-03-05' }, // March's piece inside one span, the span's later days built
    ];
    const rows = payloads<unknown>;
    for (const list of TEN_DAY_LISTS)
      for (const span of spans)
        for (const agrtGb of ['01', '02']) {
          const q = { ...span, agrtGb };
          const all = await get(list.path, q);
          expect(rows(all), `${list.name} ${JSON.stringify(q)}`).to.deep.equal(list.expected(range(agrtGb, span) as Q));
          if (agrtGb === '01') expect(rows(all).length, `${list.name} ${JSON.stringify(q)} has rows`).to.be.greaterThan(0);
          for (const f of list.filters) {
            const filtered = await get(list.path, { ...q, ...f });
            expect(rows(filtered), `${list.name} ${JSON.stringify({ ...q, ...f })}`).to.deep.equal(
              list.expected({ ...range(agrtGb, span), ...f } as Q),
            );
          }
          const bySite = await get(list.path, { ...q, siteNo: 'S02' });
          expect(rows(bySite), `${list.name} ${JSON.stringify(q)} S02`).to.deep.equal(
            list.expected(range(agrtGb, span, { siteNo: 'S02' }) as Q),
          );
        }
  });

  it('when a whole ten-day span is inside the range, then its ten-day rows serve (the category list while its running sums by day are stale); a span the range cuts, with built days outside it, is read from its days', async () => {
    const whole = [
      { startDate: '2026-02-11', endDate: '2026-02-20' },
      { startDate: '2026-02-05', endDate: '2026-02-25' },
    ];
    const cut = [
      { startDate: '2026-02-12', endDate: '2026-02-20' },
      { startDate: '2026-02-11', endDate: '2026-02-19' },
    ];
    for (const list of TEN_DAY_LISTS) {
      // Make February 11–20's ten-day rows disagree with their days for a moment: the answer shows which rows served.
      const bump = (n: number) => db.knex(list.table).where({ agrt_gb_cd: '01', agrt_tdy: '2026-02-11' }).increment('ord_amt', n);
      const total = async (q: Record<string, string>) => ordAmtSum(payloads<{ ordAmt: number }>(await get(list.path, q)));
      const expected = (r: { startDate: string; endDate: string }) => ordAmtSum(list.expected(range('01', r) as Q));
      const [counted] = await db.knex(list.table).where({ agrt_gb_cd: '01', agrt_tdy: '2026-02-11' }).count({ n: '*' });
      const keys = Number((counted as { n: number | string }).n);
      expect(keys, `${list.name}: February 11–20 has ten-day rows`).to.be.greaterThan(0);
      const captured: string[] = [];
      const onQuery = (q: Captured) => captured.push(q.sql);
      await bump(1000);
      // Current, the category list's running sums by day would serve: marked stale as a day build marks them.
      if (list.name === 'category')
        await db.knex('agg_cum_stale').insert({ kind: 'category', from_mon: '2026-01-01' }).onConflict('kind').merge();
      db.knex.on('query', onQuery);
      try {
        for (const r of whole)
          expect(await total({ agrtGb: '01', ...r }), `${list.name} ${JSON.stringify(r)}`).to.equal(expected(r) + 1000 * keys);
        for (const r of cut) expect(await total({ agrtGb: '01', ...r }), `${list.name} ${JSON.stringify(r)}`).to.equal(expected(r));
        // With a site the every-site ten-day rows cannot serve.
        const bySite = await get(list.path, { agrtGb: '01', siteNo: 'S01', ...whole[0]! });
        expect(payloads(bySite), list.name).to.deep.equal(list.expected(range('01', whole[0]!, { siteNo: 'S01' }) as Q));
      } finally {
        db.knex.off('query', onQuery);
        await bump(-1000);
        await refreshRunningSums(db.knex);
      }
      expect(captured.join('\n')).to.include(`\`${list.table}\``);
      for (const r of whole) expect(await total({ agrtGb: '01', ...r }), `${list.name} ${JSON.stringify(r)}`).to.equal(expected(r));
    }
  });

  it("when the goods list's month so far lies inside one ten-day span, then that span's every-site row serves instead of the month's per-site rows; not when the span has built days after the range", async () => {
    // March 1–8 is all of March that is built: its ten-day row (1–10) holds those days only.
    const soFar = { startDate: '2026-02-21', endDate: '2026-03-08' };
    const cut = { startDate: '2026-02-21', endDate: '2026-03-05' };
    const bump = (n: number) => db.knex('agg_goods_tenday_all').where({ agrt_gb_cd: '01', agrt_tdy: '2026-03-01' }).increment('ord_amt', n);
    const [counted] = await db.knex('agg_goods_tenday_all').where({ agrt_gb_cd: '01', agrt_tdy: '2026-03-01' }).count({ n: '*' });
    const keys = Number((counted as { n: number | string }).n);
    expect(keys, 'March 1–10 has ten-day goods rows').to.be.greaterThan(0);
    const total = async (q: Record<string, string>) => ordAmtSum(payloads<GoodsStatusRow>(await get(GOODS, q)));
    const expected = (r: { startDate: string; endDate: string }, f: Record<string, string> = {}) =>
      ordAmtSum(goodsRows(a, { ...range('01', r), ...f }));
    const [e003] = await db
      .knex('agg_goods_tenday_all')
      .where({ agrt_gb_cd: '01', agrt_tdy: '2026-03-01', entr_no: 'E003' })
      .count({ n: '*' });
    const e003Keys = Number((e003 as { n: number | string }).n);
    expect(e003Keys, 'supplier E003 has ten-day goods rows in March 1–10').to.be.greaterThan(0);
    await bump(1000);
    try {
      expect(await total({ agrtGb: '01', ...soFar })).to.equal(expected(soFar) + 1000 * keys);
      expect(await total({ agrtGb: '01', ...soFar, entrNo: 'E003' })).to.equal(expected(soFar, { entrNo: 'E003' }) + 1000 * e003Keys);
      expect(await total({ agrtGb: '01', ...cut })).to.equal(expected(cut));
      // With a site the every-site ten-day rows cannot serve.
      expect(await total({ agrtGb: '01', ...soFar, siteNo: 'S01' })).to.equal(
        ordAmtSum(goodsRows(a, range('01', soFar, { siteNo: 'S01' }))),
      );
    } finally {
      await bump(-1000);
    }
    expect(await total({ agrtGb: '01', ...soFar })).to.equal(expected(soFar));
  });

  it("when the range is one day, then every list equals the recomputation and reads that day's daily rows only (no monthly row, no test of the month)", async () => {
    const captured: string[] = [];
    const onQuery = (q: Captured) => captured.push(q.sql);
    db.knex.on('query', onQuery);
    try {
      // The first of a month, a day inside one, the last aggregated day (its month has no later rows).
      for (const day of ['2026-02-01', '2026-02-14', '2026-03-08']) await expectEveryList({ startDate: day, endDate: day }, '01');
    } finally {
      db.knex.off('query', onQuery);
    }
    const lists = captured.filter((sql) => /`agg_(ctg|payway|goods|entr)_/.test(sql));
    expect(lists.length).to.be.greaterThan(0);
    for (const sql of lists) {
      expect(sql).to.not.match(/_monthly/);
      expect(sql).to.not.match(/exists/i);
    }
  });

  it('when the range holds whole months, then they are read from the monthly roll-ups and only the other days from the daily tables (every-site rows without a site condition, where the list has them)', async () => {
    const captured: Captured[] = [];
    const onQuery = (q: Captured) => captured.push({ sql: q.sql, bindings: q.bindings ?? [] });
    db.knex.on('query', onQuery);
    try {
      expect((await get(GOODS, { ...SPAN, agrtGb: '01', entrNo: 'E001' })).status).to.equal(200);
      expect((await get(ENTERPRISE, { ...SPAN, agrtGb: '01' })).status).to.equal(200);
    } finally {
      db.knex.off('query', onQuery);
    }
    const sql = captured.map((c) => c.sql).join('\n');
    expect(sql).to.include('`agg_goods_monthly`').and.include('`agg_goods_daily`');
    expect(sql).to.include('`agg_entr_monthly_all`').and.include('`agg_entr_daily_all`');
    expect(sql).to.not.match(/`agg_entr_(daily|monthly)`/);
    // Monthly part February, one whole month, read as `agrt_mon = 02-01` (its rows come in key
    // order); the partial months January and March each as their monthly row (`= 01-01`, `= 03-01`)
    // or their daily rows [01-25, 02-01) and [03-01, 03-04), whichever the month's other days allow.
    const bindings = captured.flatMap((c) => c.bindings).filter((b): b is string => typeof b === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(b));
    expect(bindings[0]).to.equal('2026-02-01');
    expect(sql).to.match(/`a`\.`agrt_mon` = \?/);
    expect(bindings).to.include.members(['2026-01-01', '2026-01-25', '2026-03-01', '2026-03-04', '2026-04-01']);
    expect(sql).to.match(/not exists \(select 1 from `agg_goods_daily` as `o`/);
    expect(sql).to.match(/ exists \(select 1 from `agg_entr_daily_all` as `o`/);
  });
});
