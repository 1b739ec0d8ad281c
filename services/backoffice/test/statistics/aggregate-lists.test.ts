import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { CategoryStatusRow, EnterpriseStatusRow, GoodsStatusRow, ListOf, PayWayStatusRow } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { arrange, buildDailyAggregates, insertArranged, type Arranged } from './helpers/arranged-data.ts';
import { categoryRows, days, enterpriseRows, goodsRows, payWayRows } from './helpers/expected.ts';
import {
  ADMIN_AUTH,
  BO,
  expectSupplierRefused,
  statisticsApp,
  statisticsDatabase,
  supplierAuth,
  TEST_TOP_N,
} from './helpers/statistics-app.ts';

const CATEGORY = `${BO}/v1/statistics/categoryStatus/getCategoryStatusList`;
const CATEGORY_TOP = `${BO}/v2/statistics/category/sales-status`;
const PAY_WAY = `${BO}/v1/statistics/payWayStatus/getPayWayStatusList`;
const GOODS = `${BO}/v1/statistics/goodsStatus/getGoodsStatusList`;
const ENTERPRISE = `${BO}/v1/statistics/enterpriseStatus/getEnterpriseStatusList`;

const RANGE = { startDate: '2026-01-28', endDate: '2026-02-03' };
const range = (agrtGb: string, built: string[], extra: { siteNo?: string } = {}) => ({
  agrtGb,
  from: RANGE.startDate,
  to: RANGE.endDate,
  built,
  ...extra,
});

describe('statistics: category, payment-method, goods and supplier lists (daily aggregates)', () => {
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;
  let built: string[];

  before(async () => {
    db = await statisticsDatabase('stats_lists');
    a = arrange({ seed: 4303, orderDays: days('2026-01-22', '2026-02-08'), orders: 260, inflowDays: ['2026-01-30'], inflows: 20 });
    await insertArranged(db.knex, a);
    // Only these days are aggregated: the days around them hold events that must not show.
    built = await buildDailyAggregates(db.knex, '2026-01-27', '2026-02-04');
    app = statisticsApp(db);
  });
  after(() => db.drop());

  const get = (path: string, q: Record<string, string>, auth = ADMIN_AUTH) => request(app).get(path).query(q).set('Authorization', auth);

  it('when the category list is asked, then one row per (category, MD) sorted by net amount, goods without MD under a null MD', async () => {
    const res = await get(CATEGORY, { ...RANGE, agrtGb: '01' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const expected = categoryRows(a, range('01', built));
    expect(res.body).to.deep.equal({ totalCount: expected.length, payloads: expected });
    expect(expected.some((r) => r.mdId === null)).to.equal(true);
  });

  it('when the category list is filtered by a category and a site, then the category and its descendants count', async () => {
    const res = await get(CATEGORY, { ...RANGE, agrtGb: '02', stdCtgNo: 'C1000', siteNo: 'S01' });
    const expected = categoryRows(a, { ...range('02', built, { siteNo: 'S01' }), stdCtgNo: 'C1000' });
    expect((res.body as ListOf<CategoryStatusRow>).payloads).to.deep.equal(expected);
    expect(new Set(expected.map((r) => r.stdCtgNo)).size, 'several categories below C1000').to.be.greaterThan(1);
  });

  it('when the category list is filtered by an MD, then only that MD’s rows', async () => {
    const res = await get(CATEGORY, { ...RANGE, agrtGb: '01', mdId: 'MD02' });
    const expected = categoryRows(a, { ...range('01', built), mdId: 'MD02' });
    expect((res.body as ListOf<CategoryStatusRow>).payloads).to.deep.equal(expected);
    expect(expected.length).to.be.greaterThan(1);
  });

  it('when the v2 category sales status is asked, then the first N rows of the category list as a plain array', async () => {
    const expected = categoryRows(a, range('01', built));
    expect(expected.length).to.be.greaterThan(TEST_TOP_N);
    const res = await get(CATEGORY_TOP, { ...RANGE, agrtGb: '01' });
    expect(res.body).to.deep.equal(expected.slice(0, TEST_TOP_N));
  });

  it('when the payment-method list is asked, then one row per OM013 method with its name and the asked range', async () => {
    const res = await get(PAY_WAY, { ...RANGE, agrtGb: '02' });
    const expected = payWayRows(a, range('02', built));
    expect(res.body).to.deep.equal({ totalCount: expected.length, payloads: expected });
    expect(expected[0]).to.include({ agrtDt: '20260128~20260203', agrtGb: '02' });
  });

  it('when the payment-method list is filtered by method and site, then only that method of that site', async () => {
    const res = await get(PAY_WAY, { ...RANGE, agrtGb: '01', payWayCd: '20', siteNo: 'S02' });
    const { payloads } = res.body as ListOf<PayWayStatusRow>;
    expect(payloads).to.deep.equal(payWayRows(a, { ...range('01', built, { siteNo: 'S02' }), payWayCd: '20' }));
    expect(payloads).to.have.length(1);
    expect(payloads[0]).to.include({ payWayNm: '계좌이체', siteNm: '모바일몰', siteNo: 'S02' });
  });

  it('when the goods list is asked, then one row per goods with its supplier, sorted by net amount', async () => {
    const res = await get(GOODS, { ...RANGE, agrtGb: '01' });
    const expected = goodsRows(a, range('01', built));
    expect(res.body).to.deep.equal({ totalCount: expected.length, payloads: expected });
    expect(expected.length).to.be.greaterThan(10);
  });

  it('when the goods list is filtered by supplier, goods and site, then only those', async () => {
    const bySupplier = await get(GOODS, { ...RANGE, agrtGb: '02', entrNo: 'E003', siteNo: 'S01' });
    expect((bySupplier.body as ListOf<GoodsStatusRow>).payloads).to.deep.equal(
      goodsRows(a, { ...range('02', built, { siteNo: 'S01' }), entrNo: 'E003' }),
    );
    const oneGoods = await get(GOODS, { ...RANGE, agrtGb: '02', goodsNo: 'G0005' });
    expect((oneGoods.body as ListOf<GoodsStatusRow>).payloads).to.deep.equal(goodsRows(a, { ...range('02', built), goodsNo: 'G0005' }));
  });

  it('when a goods sold on two sites is asked for one supplier or one goods without a site, then its one row sums both sites', async () => {
    // A goods with events of one kind on both sites on one built day: its daily rows are one per site.
    const onSites = new Map<string, Set<string>>();
    for (const e of a.events) {
      const key = `${e.agrt_gb_cd}|${e.evt_dtm.slice(0, 10)}|${e.goods_no}`;
      if (built.includes(e.evt_dtm.slice(0, 10))) onSites.set(key, (onSites.get(key) ?? new Set()).add(e.site_no));
    }
    const [agrtGb, day, goodsNo] = [...onSites].find(([, sites]) => sites.size > 1)?.[0].split('|') ?? [];
    expect(goodsNo, 'the arranged data has a goods sold on two sites in a day').to.be.a('string');
    const entrNo = a.goods.find((g) => g.goods_no === goodsNo)!.entr_no;
    for (const [from, to] of [
      [day!, day!],
      [RANGE.startDate, RANGE.endDate],
    ]) {
      const q = { agrtGb: agrtGb!, from: from!, to: to!, built };
      const bySupplier = await get(GOODS, { startDate: from!, endDate: to!, agrtGb: agrtGb!, entrNo });
      expect((bySupplier.body as ListOf<GoodsStatusRow>).payloads, `${from}..${to}`).to.deep.equal(goodsRows(a, { ...q, entrNo }));
      const oneGoods = await get(GOODS, { startDate: from!, endDate: to!, agrtGb: agrtGb!, goodsNo: goodsNo! });
      expect((oneGoods.body as ListOf<GoodsStatusRow>).payloads, `${from}..${to}`).to.deep.equal(goodsRows(a, { ...q, goodsNo }));
    }
  });

  it('when the supplier list is asked, then one row per supplier, sorted by net amount', async () => {
    const res = await get(ENTERPRISE, { ...RANGE, agrtGb: '02' });
    const expected = enterpriseRows(a, range('02', built));
    expect(res.body).to.deep.equal({ totalCount: expected.length, payloads: expected });
    const filtered = await get(ENTERPRISE, { ...RANGE, agrtGb: '01', entrNo: 'E002', siteNo: 'S02' });
    expect((filtered.body as ListOf<EnterpriseStatusRow>).payloads).to.deep.equal(
      enterpriseRows(a, { ...range('01', built, { siteNo: 'S02' }), entrNo: 'E002' }),
    );
  });

  it('when the range reaches days not aggregated yet, then those days contribute nothing', async () => {
    const wide = { startDate: '2026-01-22', endDate: '2026-02-10', agrtGb: '01' };
    const res = await get(ENTERPRISE, wide);
    const { payloads } = res.body as ListOf<EnterpriseStatusRow>;
    expect(payloads).to.deep.equal(enterpriseRows(a, { agrtGb: '01', from: wide.startDate, to: wide.endDate, built }));
    const everything = enterpriseRows(a, {
      agrtGb: '01',
      from: wide.startDate,
      to: wide.endDate,
      built: days(wide.startDate, wide.endDate),
    });
    expect(payloads, 'unaggregated days hold events').to.not.deep.equal(everything);
  });

  it('when a supplier token reads goods or suppliers, then it gets its own rows only, and 403 for another supplier', async () => {
    const goods = await get(GOODS, { ...RANGE, agrtGb: '01' }, supplierAuth('E001'));
    expect((goods.body as ListOf<GoodsStatusRow>).payloads).to.deep.equal(goodsRows(a, { ...range('01', built), entrNo: 'E001' }));
    const entr = await get(ENTERPRISE, { ...RANGE, agrtGb: '01' }, supplierAuth('E001'));
    expect((entr.body as ListOf<EnterpriseStatusRow>).payloads).to.deep.equal(enterpriseRows(a, { ...range('01', built), entrNo: 'E001' }));
    expectSupplierRefused(await get(GOODS, { ...RANGE, agrtGb: '01', entrNo: 'E002' }, supplierAuth('E001')));
    expectSupplierRefused(await get(ENTERPRISE, { ...RANGE, agrtGb: '01', entrNo: 'E002' }, supplierAuth('E001')));
  });

  it('when a supplier token reads the platform-wide category or payment-method statistics, then 403', async () => {
    for (const path of [CATEGORY, CATEGORY_TOP, PAY_WAY])
      expectSupplierRefused(await get(path, { ...RANGE, agrtGb: '01' }, supplierAuth('E001')));
  });
});
