import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ListOf, OrderStatusRow } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { findLateData, rebuildAggregate, reconcileDays } from '@bo/aggregation-worker';
import { arrange, insertArranged, type Arranged, type Evt } from './helpers/arranged-data.ts';
import { days, echoOf, eventsIn, hourRowOf, months, netOf, periodRowOf, sumOf, viewsIn, type Conditions } from './helpers/expected.ts';
import { ADMIN_AUTH, BO, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

const LIST = `${BO}/v1/statistics/periodBasedStatus/getPeriodBasedStatusList`;
const GRAPH = `${BO}/v1/statistics/periodBasedStatus/getPeriodBasedStatusGraphData`;
const HOURLY = `${BO}/v1/statistics/hourBasedStatus/getHourBasedStatusList`;
const HOURLY_GRAPH = `${BO}/v2/statistics/period/hourly/sales-status/graph-data`;

/** Orders up to "today"; the worker has built every day before it, and nothing from it on. */
const TODAY = '2026-03-04';
const BUILT = days('2026-01-10', '2026-03-03');
const HOURS = Array.from({ length: 24 }, (_, h) => h);

const FILTERS: [string, Conditions][] = [
  ['no condition', {}],
  ['site', { siteNo: 'S02' }],
  ['supplier', { entrNo: 'E002' }],
  ['brand', { brandNo: 'B003' }],
  ['MD', { mdId: 'MD01' }],
  ['goods', { goodsNo: 'G0005' }],
  ['category with everything below it', { stdCtgNo: 'C1000' }],
  ['site and category', { siteNo: 'S01', stdCtgNo: 'C2100' }],
  ['supplier and MD', { entrNo: 'E001', mdId: 'MD02' }],
];

/** Graph data recomputed from the arranged rows: totals of `current`, bucket i paired with bucket i of `before`. */
function expectedGraph(a: Arranged, agrtGb: string, c: Conditions, current: string[], before: string[]) {
  const inAny = (buckets: string[]) => (dtm: string) => buckets.some((b) => dtm.startsWith(b));
  const total = netOf(sumOf(eventsIn(a, agrtGb, c, inAny(current))));
  const net = (b: string) => netOf(sumOf(eventsIn(a, agrtGb, c, (dtm) => dtm.startsWith(b))));
  return {
    ...echoOf(a, c),
    agrtDt: `${current[0]!.replaceAll('-', '')}~${current[current.length - 1]!.replaceAll('-', '')}`,
    ...total,
    infCnt: viewsIn(a, c, inAny(current)),
    realOrdQty: total.finalOrdQty,
    realOrdAmt: total.finalOrdAmt,
    dcAmt: total.dcAmt2nd + total.dcAmt3rd,
    currRealOrdAmt: total.finalOrdAmt,
    compareDataList: current.map((b, i) => ({
      agrtDt: b.replaceAll('-', ''),
      realOrdAmt: net(b).finalOrdAmt,
      pwRealOrdAmt: net(before[i]!).finalOrdAmt,
      realOrdQty: net(b).finalOrdQty,
      pwRealOrdQty: net(before[i]!).finalOrdQty,
    })),
  };
}

describe('statistics: period and hourly status read from the worker’s period rollups', () => {
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;

  /** A 200 answer's body, read as the operation's contract type `T`. */
  const get = async <T>(path: string, query: Record<string, string>): Promise<T> => {
    const res = await request(app).get(path).query(query).set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as T;
  };
  const dayList = (from: string, to: string, agrtGb: string, c: Conditions) =>
    get<ListOf<OrderStatusRow>>(LIST, { calendarType: 'date', startDate: from, endDate: to, agrtGb, ...c });
  const expectedDays = (from: string, to: string, agrtGb: string, c: Conditions) => days(from, to).map((d) => periodRowOf(a, agrtGb, c, d));

  before(async () => {
    db = await statisticsDatabase('stats_rollups');
    a = arrange({
      seed: 4303,
      orderDays: days('2026-01-12', TODAY),
      orders: 900,
      inflowDays: ['2026-01-31', '2026-02-01', '2026-02-27', '2026-03-02', '2026-03-03', TODAY],
      inflows: 500,
    });
    // Nothing happens after today: a cancellation or sale the generator put later happens today.
    for (const e of a.events) if (e.evt_dtm.slice(0, 10) > TODAY) e.evt_dtm = `${TODAY} 23:59:59`;
    await insertArranged(db.knex, a);
    for (const day of BUILT) await rebuildAggregate(db.knex, { kind: 'period', day, requestedBy: 'cli' });
    app = statisticsApp(db);
  });
  after(() => db.drop());

  it('when the days before today are built, then the rollups hold them and today has no rollup rows', async () => {
    expect(await db.knex('agg_built_day').where({ kind: 'period' }).count({ n: '*' }).first()).to.deep.equal({ n: BUILT.length });
    expect(await db.knex('agg_dim_daily').where({ agrt_dt: TODAY }).count({ n: '*' }).first()).to.deep.equal({ n: 0 });
    expect(a.events.filter((e) => e.evt_dtm.startsWith(TODAY)).length, 'events today').to.be.greaterThan(10);
  });

  for (const [name, c] of FILTERS) {
    it(`when a date range ending today is asked with ${name}, then every day equals the recomputation from the events, built days and today alike`, async () => {
      for (const agrtGb of ['01', '02']) {
        const body = await dayList('2026-02-20', TODAY, agrtGb, c);
        expect(body.payloads, agrtGb).to.deep.equal(expectedDays('2026-02-20', TODAY, agrtGb, c));
      }
    });

    it(`when months are asked with ${name}, then each month (the last one partly built) equals the recomputation`, async () => {
      const body = await get<ListOf<OrderStatusRow>>(LIST, {
        calendarType: 'month',
        startMonth: '2025-12',
        endMonth: '2026-04',
        agrtGb: '01',
        ...c,
      });
      expect(body.payloads).to.deep.equal(months('2025-12', '2026-04').map((m) => periodRowOf(a, '01', c, m)));
      expect(body.payloads.some((r) => r.ordAmt > 0) || Boolean(c.goodsNo)).to.equal(true);
    });

    it(`when the hours of a built day and of today are asked with ${name}, then every hour equals the recomputation`, async () => {
      for (const day of ['2026-03-03', TODAY]) {
        const body = await get<ListOf<OrderStatusRow>>(HOURLY, { targetDate: day, agrtGb: '02', ...c });
        expect(body.payloads, day).to.deep.equal(HOURS.map((h) => hourRowOf(a, '02', c, day, h)));
      }
    });
  }

  it('when graph data pairs built days with the days before them, and months with months, then totals and pairs equal the recomputation', async () => {
    for (const c of [{}, { stdCtgNo: 'C3000' }, { mdId: 'MD03', siteNo: 'S02' }] as Conditions[]) {
      const res = await request(app)
        .post(GRAPH)
        .send({ calendarType: 'date', startDate: '2026-02-24', endDate: TODAY, agrtGb: '01', ...c })
        .set('Authorization', ADMIN_AUTH);
      expect(res.body, JSON.stringify(c)).to.deep.equal(
        expectedGraph(a, '01', c, days('2026-02-24', TODAY), days('2026-02-15', '2026-02-23')),
      );
      const byMonth = await request(app)
        .post(GRAPH)
        .send({ calendarType: 'month', startMonth: '2026-02', endMonth: '2026-03', agrtGb: '02', ...c })
        .set('Authorization', ADMIN_AUTH);
      expect(byMonth.body, JSON.stringify(c)).to.deep.equal(expectedGraph(a, '02', c, ['2026-02', '2026-03'], ['2025-12', '2026-01']));
    }
    const hourly = await get<OrderStatusRow>(HOURLY_GRAPH, { targetDate: TODAY, agrtGb: '01' });
    expect(hourly.compareDataList?.map((r) => r.pwRealOrdAmt)).to.deep.equal(
      HOURS.map((h) => hourRowOf(a, '01', {}, '2026-03-03', h).finalOrdAmt),
    );
  });

  it('when goods change category, supplier, brand and MD after their days were built, then every filter counts them where they are now', async () => {
    const moved = a.goods.filter((g) => ['G0003', 'G0011', 'G0020'].includes(g.goods_no));
    const to = { std_ctg_no: 'C1210', entr_no: 'E004', brand_no: 'B005', md_id: 'MD03' };
    await db
      .knex('goods')
      .whereIn(
        'goods_no',
        moved.map((g) => g.goods_no),
      )
      .update(to);
    const before = moved.map((g) => ({ ...g }));
    for (const g of moved) Object.assign(g, to);
    const touched: Conditions[] = [
      ...before.flatMap((g) => [
        { stdCtgNo: g.std_ctg_no },
        { entrNo: g.entr_no },
        { mdId: g.md_id ?? 'MD01' },
        { brandNo: g.brand_no ?? 'B001' },
      ]),
      { stdCtgNo: 'C1000' },
      { stdCtgNo: 'C1200', siteNo: 'S01' },
      { entrNo: 'E004' },
      { brandNo: 'B005' },
      { mdId: 'MD03' },
    ];
    for (const c of touched) {
      const body = await dayList('2026-02-25', TODAY, '01', c);
      expect(body.payloads, JSON.stringify(c)).to.deep.equal(expectedDays('2026-02-25', TODAY, '01', c));
      const byMonth = await get<ListOf<OrderStatusRow>>(LIST, {
        calendarType: 'month',
        startMonth: '2026-01',
        endMonth: '2026-03',
        agrtGb: '02',
        ...c,
      });
      expect(byMonth.payloads, JSON.stringify(c)).to.deep.equal(months('2026-01', '2026-03').map((m) => periodRowOf(a, '02', c, m)));
      // The hourly report of a built day: the hourly category and MD rollups, corrected the same way.
      for (const agrtGb of ['01', '02']) {
        const hours = await get<ListOf<OrderStatusRow>>(HOURLY, { targetDate: '2026-03-03', agrtGb, ...c });
        expect(hours.payloads, `${agrtGb} ${JSON.stringify(c)}`).to.deep.equal(HOURS.map((h) => hourRowOf(a, agrtGb, c, '2026-03-03', h)));
      }
    }
    const onBuiltDay = (d: string) => d.startsWith('2026-03-03');
    const activity = moved.map(({ goods_no: goodsNo }) => ({
      events: ['01', '02'].map((gb) => eventsIn(a, gb, { goodsNo }, onBuiltDay).length),
      views: viewsIn(a, { goodsNo }, onBuiltDay),
    }));
    expect(
      activity.some((x) => x.views > 0) && activity.some((x) => x.events.some((n) => n > 0)),
      `the moved goods sold and were viewed on the built day asked hourly: ${JSON.stringify(activity)}`,
    ).to.equal(true);
    const total = (c: Conditions) => sumOf(eventsIn(a, '01', c, (d) => d >= '2026-02-25')).ordAmt;
    expect(total({ stdCtgNo: 'C1210' }), 'the new category has the moved goods’ sales').to.be.greaterThan(0);
  });

  it('when events of a goods were built before the goods existed in the master, then once it does, every filter counts them', async () => {
    const day = '2026-02-26';
    const base = a.events.find((e) => e.evt_dtm.startsWith(day))!;
    const orphan: Evt[] = [1, 2].map((i) => ({
      ...base,
      goods_no: 'G9001',
      ord_goods_seq: 60 + i,
      agrt_gb_cd: '01',
      evt_gb_cd: '10',
      evt_dtm: `${day} 0${i}:30:00`,
      qty: i,
      amt: 9100 * i,
    }));
    await db.knex('ord_stat_evt').insert(orphan);
    a.events.push(...orphan);
    await rebuildAggregate(db.knex, { kind: 'period', day, requestedBy: 'cli' });
    const goods = {
      goods_no: 'G9001',
      goods_nm: '늦은상품',
      entr_no: 'E003',
      brand_no: 'B004',
      std_ctg_no: 'C1110',
      md_id: 'MD02',
      img_path: null,
    };
    await db.knex('goods').insert({ ...goods, sale_stat_cd: '10', goods_reg_dtm: '2026-02-27 00:00:00' });
    a.goods.push(goods);
    for (const c of [
      {},
      { stdCtgNo: 'C1000' },
      { entrNo: 'E003' },
      { brandNo: 'B004', siteNo: base.site_no },
      { mdId: 'MD02' },
    ] as Conditions[]) {
      expect((await dayList(day, day, '01', c)).payloads, JSON.stringify(c)).to.deep.equal(expectedDays(day, day, '01', c));
      const byMonth = await get<ListOf<OrderStatusRow>>(LIST, {
        calendarType: 'month',
        startMonth: '2026-02',
        endMonth: '2026-02',
        agrtGb: '01',
        ...c,
      });
      expect(byMonth.payloads, JSON.stringify(c)).to.deep.equal([periodRowOf(a, '01', c, '2026-02')]);
      const hours = await get<ListOf<OrderStatusRow>>(HOURLY, { targetDate: day, agrtGb: '01', ...c });
      expect(hours.payloads, JSON.stringify(c)).to.deep.equal(HOURS.map((h) => hourRowOf(a, '01', c, day, h)));
    }
  });

  it('when an event arrives late for a built day, then the day shows it once the worker’s late-data run or reconciliation has rebuilt the day', async () => {
    const day = '2026-03-02';
    const c = { stdCtgNo: 'C2000' };
    const goods = a.goods.find((g) => g.std_ctg_no.startsWith('C2'))!;
    const base = a.events.find((e) => e.goods_no === goods.goods_no)!;
    const late: Evt = {
      ...base,
      ord_goods_seq: 50,
      agrt_gb_cd: '01',
      evt_gb_cd: '10',
      evt_dtm: `${day} 10:15:00`,
      qty: 7,
      amt: 70000,
      dc_amt_2nd: 700,
      dc_amt_3rd: 0,
    };
    const withoutLate = expectedDays(day, day, '01', c);
    await db.knex('ord_stat_evt').insert(late);
    a.events.push(late);
    // Until the worker rebuilds it, the built day still answers from its rollup.
    expect((await dayList(day, day, '01', c)).payloads).to.deep.equal(withoutLate);

    const found = await findLateData(db.knex);
    expect(found.targets).to.deep.include({ kind: 'period', day });
    for (const t of found.targets) await rebuildAggregate(db.knex, { ...t, requestedBy: 'late-data' });
    await found.advance('2026-03-04 11:00:00.000');
    expect((await dayList(day, day, '01', c)).payloads).to.deep.equal(expectedDays(day, day, '01', c));
    expect(expectedDays(day, day, '01', c)).not.to.deep.equal(withoutLate);

    // A row the high-water mark cannot see (an older number written late): the nightly reconciliation finds the day.
    const hidden: Evt = { ...late, ord_goods_seq: 51, evt_dtm: `${day} 11:00:00`, qty: 1, amt: 1000, dc_amt_2nd: 0 };
    const [evtNo] = await db.knex('ord_stat_evt').insert(hidden);
    await db.knex('ord_stat_evt').where({ evt_no: evtNo }).update({ evt_no: 0 });
    a.events.push(hidden);
    expect((await findLateData(db.knex)).targets).to.deep.equal([]);
    const mismatches = await reconcileDays(db.knex, [day]);
    expect(mismatches.map((m) => [m.kind, m.day])).to.deep.equal([['period', day]]);
    for (const m of mismatches) await rebuildAggregate(db.knex, { kind: m.kind, day: m.day, requestedBy: 'reconcile' });
    for (const cond of [c, {}, { siteNo: late.site_no }]) {
      expect((await dayList(day, day, '01', cond)).payloads, JSON.stringify(cond)).to.deep.equal(expectedDays(day, day, '01', cond));
    }
  });
});
