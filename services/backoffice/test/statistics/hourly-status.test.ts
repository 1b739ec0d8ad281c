import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ListOf, OrderStatusRow } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { arrange, insertArranged, type Arranged } from './helpers/arranged-data.ts';
import { categoryAndBelow, days, echoOf, eventsIn, hourRowOf, netOf, sumOf, viewsIn, type Conditions } from './helpers/expected.ts';
import {
  builtPeriodDays,
  goodsFirstPays,
  sumRawEvents,
  sumRawViews,
  type GoodsAttributes,
} from '../../src/statistics/data-access/period-sources.ts';
import { ADMIN_AUTH, BO, expectSupplierRefused, statisticsApp, statisticsDatabase, supplierAuth } from './helpers/statistics-app.ts';

const LIST = `${BO}/v1/statistics/hourBasedStatus/getHourBasedStatusList`;
const GRAPH_V1 = `${BO}/v1/statistics/hourBasedStatus/getHourBasedStatusGraphData`;
const GRAPH_V2 = `${BO}/v2/statistics/period/hourly/sales-status/graph-data`;

const LABELS = [
  '00~01',
  '01~02',
  '02~03',
  '03~04',
  '04~05',
  '05~06',
  '06~07',
  '07~08',
  '08~09',
  '09~10',
  '10~11',
  '11~12',
  '12~13',
  '13~14',
  '14~15',
  '15~16',
  '16~17',
  '17~18',
  '18~19',
  '19~20',
  '20~21',
  '21~22',
  '22~23',
  '23~24',
];
const HOURS = LABELS.map((_, h) => h);
const pad = (n: number) => String(n).padStart(2, '0');

function expectedGraph(a: Arranged, agrtGb: string, c: Conditions, day: string, dayBefore: string) {
  const onDay = (dtm: string) => dtm.startsWith(day);
  const total = netOf(sumOf(eventsIn(a, agrtGb, c, onDay)));
  const hourNet = (d: string, h: number) => netOf(sumOf(eventsIn(a, agrtGb, c, (dtm) => dtm.startsWith(`${d} ${pad(h)}`))));
  return {
    agrtDt: day.replaceAll('-', ''),
    ...echoOf(a, c),
    ...total,
    infCnt: viewsIn(a, c, onDay),
    compareDataList: HOURS.map((h) => ({
      agrtDt: LABELS[h],
      realOrdAmt: hourNet(day, h).finalOrdAmt,
      pwRealOrdAmt: hourNet(dayBefore, h).finalOrdAmt,
      realOrdQty: hourNet(day, h).finalOrdQty,
      pwRealOrdQty: hourNet(dayBefore, h).finalOrdQty,
    })),
  };
}

describe('statistics: hourly status (raw events)', () => {
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;

  before(async () => {
    db = await statisticsDatabase('stats_hourly');
    // Few days, many orders: most hours of a day have events, some stay empty.
    a = arrange({
      seed: 4202,
      orderDays: days('2026-01-29', '2026-02-02'),
      orders: 260,
      inflowDays: ['2026-01-31', '2026-02-01'],
      inflows: 400,
    });
    await insertArranged(db.knex, a);
    app = statisticsApp(db);
  });
  after(() => db.drop());

  it('when a day is asked, then 24 rows 00~01 … 23~24 with each hour’s sums and inflow count', async () => {
    const res = await request(app).get(LIST).query({ targetDate: '2026-02-01', agrtGb: '01' }).set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const expected = HOURS.map((h) => hourRowOf(a, '01', {}, '2026-02-01', h));
    const body = res.body as ListOf<OrderStatusRow>;
    expect(body).to.deep.equal({ totalCount: 24, payloads: expected });
    expect(body.payloads.map((r) => r.agrtDt)).to.deep.equal(LABELS);
    expect(expected.some((r) => r.infCnt > 0) && expected.some((r) => r.cnclAmt > 0)).to.equal(true);
  });

  it('when hours have no events, then they are rows of zeros', async () => {
    const res = await request(app)
      .get(LIST)
      .query({ targetDate: '2026-02-01', agrtGb: '02', goodsNo: 'G0003' })
      .set('Authorization', ADMIN_AUTH);
    const { payloads } = res.body as ListOf<OrderStatusRow>;
    expect(payloads).to.have.length(24);
    expect(payloads).to.deep.equal(HOURS.map((h) => hourRowOf(a, '02', { goodsNo: 'G0003' }, '2026-02-01', h)));
    expect(payloads.filter((r) => r.ordAmt === 0 && r.cnclAmt === 0).length).to.be.greaterThan(0);
  });

  for (const [name, c] of [
    ['site and category with its descendants', { siteNo: 'S02', stdCtgNo: 'C2000' }],
    ['supplier and brand', { entrNo: 'E001', brandNo: 'B003' }],
    ['MD', { mdId: 'MD03' }],
  ] as [string, Conditions][]) {
    it(`when filtered by ${name}, then only matching events and views count`, async () => {
      const res = await request(app)
        .get(LIST)
        .query({ targetDate: '2026-01-31', agrtGb: '02', ...c })
        .set('Authorization', ADMIN_AUTH);
      expect((res.body as ListOf<OrderStatusRow>).payloads).to.deep.equal(HOURS.map((h) => hourRowOf(a, '02', c, '2026-01-31', h)));
    });
  }

  it('when the graph data is posted, then the day’s totals and each hour paired with the same hour of the day before', async () => {
    const res = await request(app).post(GRAPH_V1).send({ targetDate: '2026-02-01', agrtGb: '01' }).set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal(expectedGraph(a, '01', {}, '2026-02-01', '2026-01-31'));
  });

  it('when the graph data is asked with a category, then each hour of both days counts only the events and views of its goods', async () => {
    const c = { stdCtgNo: 'C2000' };
    const res = await request(app)
      .post(GRAPH_V1)
      .send({ targetDate: '2026-02-01', agrtGb: '01', ...c })
      .set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal(expectedGraph(a, '01', c, '2026-02-01', '2026-01-31'));
  });

  for (const goodsFirst of [false, true])
    it(`when more goods match than a goods list holds, then events and views are read through the goods attributes, hour by hour of each day (${goodsFirst ? 'goods' : 'events'} first)`, async () => {
      // A category with more than GOODS_LIST_MAX goods is read this way; the fixture's few goods
      // are read through the same SQL by asking for it directly.
      const c = { siteNo: 'S02', stdCtgNo: 'C2000' };
      const f = { siteNo: c.siteNo, through: { stdCtgNos: [...categoryAndBelow(a, c.stdCtgNo)] }, goodsFirst };
      const range = { fromDay: '2026-01-31', toDay: '2026-02-02' };
      const [events, views] = await Promise.all([
        sumRawEvents(db.knex, '02', f, [range], 'hour') as Promise<{ bucket: string; ordAmt: number | string }[]>,
        sumRawViews(db.knex, f, range, 'hour') as Promise<{ bucket: string; infCnt: number | string }[]>,
      ]);
      const buckets = ['2026-01-31', '2026-02-01'].flatMap((day) =>
        HOURS.map((h) => ({ day, h, key: `${day.replaceAll('-', '')}${String(h).padStart(2, '0')}` })),
      );
      const at = (day: string, h: number) => (dtm: string) => dtm.startsWith(`${day} ${String(h).padStart(2, '0')}`);
      const wantViews = buckets.map((b) => [b.key, viewsIn(a, c, at(b.day, b.h))] as const).filter(([, n]) => n > 0);
      const wantAmounts = buckets.map((b) => [b.key, sumOf(eventsIn(a, '02', c, at(b.day, b.h))).ordAmt] as const);
      expect(wantViews.length, 'the fixture has views of those goods on both days').to.be.greaterThan(1);
      expect(views.map((r) => [r.bucket, Number(r.infCnt)]).sort()).to.deep.equal(wantViews.map((w) => [...w]).sort());
      const amounts = new Map(events.map((r) => [r.bucket, Number(r.ordAmt)]));
      expect(wantAmounts.map(([k]) => [k, amounts.get(k) ?? 0])).to.deep.equal(wantAmounts.map((w) => [...w]));
    });

  it('when an hourly read covers whole past days and its goods are at most an eighth of the catalogue, then it reads goods first; otherwise events first', async () => {
    // Each condition with its own meaning written out, counted over the fixture's goods.
    const ctg = [...categoryAndBelow(a, 'C2000')];
    const cases: [GoodsAttributes, (g: (typeof a.goods)[number]) => boolean][] = [
      [{ goodsNo: a.goods[0]!.goods_no }, (g) => g.goods_no === a.goods[0]!.goods_no],
      [{ mdId: 'MD03' }, (g) => g.md_id === 'MD03'],
      [{ brandNo: 'B003' }, (g) => g.brand_no === 'B003'],
      [{ stdCtgNos: ctg }, (g) => ctg.includes(g.std_ctg_no)],
      [{ stdCtgNos: a.categories.map((c) => c.std_ctg_no) }, () => true],
    ];
    const share = (m: (typeof cases)[number][1]) => a.goods.filter(m).length / a.goods.length;
    const twoDays = { fromDay: '2026-01-31', toDay: '2026-02-02' };
    const decide = async (range: typeof twoDays, grain: 'hour' | 'day') => {
      const built = await builtPeriodDays(db.knex, range);
      return Promise.all(cases.map(([f]) => goodsFirstPays(db.knex, f, range, grain, built)));
    };
    const none = cases.map(() => false);
    // Not built yet: the days' events are read first whatever the goods.
    expect(await decide(twoDays, 'hour'), 'days not built').to.deep.equal(none);
    for (const day of ['2026-01-31', '2026-02-01']) await rebuildAggregate(db.knex, { kind: 'period', day, requestedBy: 'cli' });
    const decided = await decide(twoDays, 'hour');
    expect(decided).to.deep.equal(cases.map(([, m]) => share(m) <= 1 / 8));
    expect(decided, 'both answers occur').to.include(true).and.to.include(false);
    expect(await decide({ fromDay: '2026-02-01', toDay: '2026-02-03' }, 'hour'), 'a day not built in the range').to.deep.equal(none);
    expect(await decide(twoDays, 'day'), 'longer grains').to.deep.equal(none);
  });

  it('when the GET graph data crosses a month start, then the day before is the last day of the previous month', async () => {
    const c = { siteNo: 'S01' };
    const res = await request(app)
      .get(GRAPH_V2)
      .query({ targetDate: '2026-02-01', agrtGb: '02', ...c })
      .set('Authorization', ADMIN_AUTH);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal(expectedGraph(a, '02', c, '2026-02-01', '2026-01-31'));
  });

  it('when a supplier token names another supplier, then 403; naming none, then its own goods only', async () => {
    const q = { targetDate: '2026-02-01', agrtGb: '01' };
    expectSupplierRefused(
      await request(app)
        .get(LIST)
        .query({ ...q, entrNo: 'E004' })
        .set('Authorization', supplierAuth('E001')),
    );
    expectSupplierRefused(
      await request(app)
        .post(GRAPH_V1)
        .send({ ...q, entrNo: 'E004' })
        .set('Authorization', supplierAuth('E001')),
    );
    const res = await request(app).get(GRAPH_V2).query(q).set('Authorization', supplierAuth('E001'));
    expect(res.body).to.deep.equal(expectedGraph(a, '01', { entrNo: 'E001' }, '2026-02-01', '2026-01-31'));
  });
});
