import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ListOf, OrderStatusRow } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { arrange, insertArranged, type Arranged } from './helpers/arranged-data.ts';
import { days, eventsIn, months, netOf, periodRowOf, sumOf, viewsIn, type Conditions } from './helpers/expected.ts';
import { ADMIN_AUTH, BO, expectSupplierRefused, statisticsApp, statisticsDatabase, supplierAuth } from './helpers/statistics-app.ts';

const LIST = `${BO}/v1/statistics/periodBasedStatus/getPeriodBasedStatusList`;
const GRAPH_V1 = `${BO}/v1/statistics/periodBasedStatus/getPeriodBasedStatusGraphData`;
const GRAPH_V2 = `${BO}/v2/statistics/period/sales-status/graph-data`;

const expectedDayRows = (a: Arranged, agrtGb: string, c: Conditions, from: string, to: string) =>
  days(from, to).map((d) => periodRowOf(a, agrtGb, c, d));
const expectedMonthRows = (a: Arranged, agrtGb: string, c: Conditions, from: string, to: string) =>
  months(from, to).map((m) => periodRowOf(a, agrtGb, c, m));

/** Totals of buckets and the pairing with the comparison buckets, computed from the arranged rows. */
function expectedGraph(a: Arranged, agrtGb: string, c: Conditions, current: string[], before: string[], label: string) {
  expect(before).to.have.length(current.length);
  const inAny = (buckets: string[]) => (dtm: string) => buckets.some((b) => dtm.startsWith(b));
  const total = netOf(sumOf(eventsIn(a, agrtGb, c, inAny(current))));
  const net = (b: string) => netOf(sumOf(eventsIn(a, agrtGb, c, (dtm) => dtm.startsWith(b))));
  return {
    agrtDt: label,
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

describe('statistics: period status (raw events)', () => {
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;

  before(async () => {
    db = await statisticsDatabase('stats_period');
    a = arrange({
      seed: 4101,
      orderDays: days('2025-11-20', '2026-03-31'),
      orders: 700,
      inflowDays: ['2025-12-20', '2026-01-05', '2026-01-31', '2026-02-01', '2026-02-10', '2026-03-02'],
      inflows: 300,
    });
    await insertArranged(db.knex, a);
    app = statisticsApp(db);
  });
  after(() => db.drop());

  it('when a date range is asked, then one row per day, oldest first, with the sums of that day and its inflow count', async () => {
    const q = { calendarType: 'date', startDate: '2026-01-28', endDate: '2026-02-03', agrtGb: '01' };
    const res = await request(app).get(LIST).query(q).set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const expected = expectedDayRows(a, '01', {}, '2026-01-28', '2026-02-03');
    expect(res.body).to.deep.equal({ totalCount: 7, payloads: expected });
    expect(
      expected.some((r) => r.infCnt > 0 && r.cnclAmt > 0),
      'the range holds inflow and cancellations',
    ).to.equal(true);
  });

  it('when an order of the last second of a month is cancelled on the first second of the next, then the cancellation lowers the next day', async () => {
    const c = { goodsNo: 'G0001', siteNo: 'S01' };
    const res = await request(app)
      .get(LIST)
      .query({ calendarType: 'date', startDate: '2026-01-31', endDate: '2026-02-01', agrtGb: '01', ...c })
      .set('Authorization', ADMIN_AUTH);
    const { payloads } = res.body as ListOf<OrderStatusRow>;
    expect(payloads).to.deep.equal(expectedDayRows(a, '01', c, '2026-01-31', '2026-02-01'));
    const edge = a.events.filter((e) => e.ord_no === 'OEDGE0');
    const [jan31, feb1] = payloads;
    expect(jan31!.ordQty).to.be.at.least(edge.find((e) => e.evt_gb_cd === '10')!.qty);
    expect(feb1!.cnclQty).to.be.at.least(edge.find((e) => e.evt_gb_cd === '20')!.qty);
  });

  it('when days have no events, then they are still rows, all zero', async () => {
    const res = await request(app)
      .get(LIST)
      .query({ calendarType: 'date', startDate: '2026-06-01', endDate: '2026-06-03', agrtGb: '02' })
      .set('Authorization', ADMIN_AUTH);
    const { payloads } = res.body as ListOf<OrderStatusRow>;
    expect(payloads.map((r) => r.agrtDt)).to.deep.equal(['20260601', '20260602', '20260603']);
    for (const row of payloads) expect(row).to.deep.include({ ordAmt: 0, cnclAmt: 0, finalOrdAmt: 0, ordQty: 0, infCnt: 0, dcAmt: 0 });
  });

  it('when calendarType is month, then one row per month (yyyyMM) across the year end', async () => {
    const res = await request(app)
      .get(LIST)
      .query({ calendarType: 'month', startMonth: '2025-12', endMonth: '2026-03', agrtGb: '02' })
      .set('Authorization', ADMIN_AUTH);
    expect(res.body).to.deep.equal({ totalCount: 4, payloads: expectedMonthRows(a, '02', {}, '2025-12', '2026-03') });
  });

  for (const [name, c] of [
    ['site', { siteNo: 'S02' }],
    ['supplier', { entrNo: 'E003' }],
    ['brand', { brandNo: 'B002' }],
    ['MD', { mdId: 'MD01' }],
    ['goods', { goodsNo: 'G0007' }],
    ['category with everything below it', { stdCtgNo: 'C1000' }],
    ['several conditions at once', { siteNo: 'S01', stdCtgNo: 'C2100', mdId: 'MD02' }],
  ] as [string, Conditions][]) {
    it(`when filtered by ${name}, then only matching events and views count, and the row names the condition`, async () => {
      const res = await request(app)
        .get(LIST)
        .query({ calendarType: 'date', startDate: '2026-01-20', endDate: '2026-02-05', agrtGb: '01', ...c })
        .set('Authorization', ADMIN_AUTH);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect((res.body as ListOf<OrderStatusRow>).payloads).to.deep.equal(expectedDayRows(a, '01', c, '2026-01-20', '2026-02-05'));
    });
  }

  it('when a middle category is asked, then goods of its descendants count, not only goods filed on it', async () => {
    const ownOnly = a.goods.filter((g) => g.std_ctg_no === 'C1100').map((g) => g.goods_no);
    const q = { calendarType: 'month', startMonth: '2025-12', endMonth: '2026-03', agrtGb: '01', stdCtgNo: 'C1100' };
    const res = await request(app).get(LIST).query(q).set('Authorization', ADMIN_AUTH);
    const expected = expectedMonthRows(a, '01', { stdCtgNo: 'C1100' }, '2025-12', '2026-03');
    expect((res.body as ListOf<OrderStatusRow>).payloads).to.deep.equal(expected);
    const ownOnlyAmt = a.events
      .filter((e) => e.agrt_gb_cd === '01' && e.evt_gb_cd === '10' && ownOnly.includes(e.goods_no))
      .reduce((s, e) => s + e.amt, 0);
    const total = expected.reduce((s, r) => s + r.ordAmt, 0);
    expect(total, 'descendants add to the category’s own goods').to.be.greaterThan(ownOnlyAmt);
  });

  it('when the graph data of a date range is posted, then the totals and each day paired with the day of the equal-length period before', async () => {
    const body = { calendarType: 'date', startDate: '2026-02-01', endDate: '2026-02-14', agrtGb: '01' };
    const res = await request(app).post(GRAPH_V1).send(body).set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal(
      expectedGraph(a, '01', {}, days('2026-02-01', '2026-02-14'), days('2026-01-18', '2026-01-31'), '20260201~20260214'),
    );
  });

  it('when the GET graph data of months is asked, then months are paired with the same number of months before', async () => {
    const q = { calendarType: 'month', startMonth: '2026-02', endMonth: '2026-03', agrtGb: '02', siteNo: 'S01' };
    const res = await request(app).get(GRAPH_V2).query(q).set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const expected = expectedGraph(a, '02', { siteNo: 'S01' }, ['2026-02', '2026-03'], ['2025-12', '2026-01'], '202602~202603');
    expect(res.body).to.deep.equal({ ...expected, siteNo: 'S01', siteNm: '메인몰' });
  });

  it('when the v1 POST and the v2 GET get the same conditions, then they answer the same row', async () => {
    const q = { calendarType: 'date', startDate: '2026-01-30', endDate: '2026-02-02', agrtGb: '02', stdCtgNo: 'C3000' };
    const [v1, v2] = await Promise.all([
      request(app).post(GRAPH_V1).send(q).set('Authorization', ADMIN_AUTH),
      request(app).get(GRAPH_V2).query(q).set('Authorization', ADMIN_AUTH),
    ]);
    expect(v1.body).to.deep.equal(v2.body);
    expect((v1.body as OrderStatusRow).compareDataList).to.have.length(4);
  });

  it('when a supplier token names another supplier, then 403', async () => {
    const q = { calendarType: 'date', startDate: '2026-02-01', endDate: '2026-02-03', agrtGb: '01', entrNo: 'E001' };
    expectSupplierRefused(await request(app).get(LIST).query(q).set('Authorization', supplierAuth('E002')));
    expectSupplierRefused(await request(app).post(GRAPH_V1).send(q).set('Authorization', supplierAuth('E002')));
    expectSupplierRefused(await request(app).get(GRAPH_V2).query(q).set('Authorization', supplierAuth('E002')));
  });

  it('when a supplier token names no supplier, then only its own goods count', async () => {
    const q = { calendarType: 'date', startDate: '2026-01-25', endDate: '2026-02-05', agrtGb: '01' };
    const res = await request(app).get(LIST).query(q).set('Authorization', supplierAuth('E002'));
    expect((res.body as ListOf<OrderStatusRow>).payloads).to.deep.equal(
      expectedDayRows(a, '01', { entrNo: 'E002' }, '2026-01-25', '2026-02-05'),
    );
    const own = await request(app)
      .get(LIST)
      .query({ ...q, entrNo: 'E002' })
      .set('Authorization', supplierAuth('E002'));
    expect(own.body).to.deep.equal(res.body);
  });
});
