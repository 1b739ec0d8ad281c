import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ListOf, OrderStatusRow } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { ADMIN_AUTH, BO, expectFieldRefused, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

type Query = Record<string, string | undefined>;
interface Operation {
  name: string;
  method: 'get' | 'post';
  path: string;
  valid: Query;
}

const PERIOD_DATE = { calendarType: 'date', startDate: '2026-01-01', endDate: '2026-01-31', agrtGb: '01' };
const HOURLY = { targetDate: '2026-01-31', agrtGb: '02' };
const RANGE = { startDate: '2026-01-01', endDate: '2026-01-31', agrtGb: '01' };

const PERIOD_OPS: Operation[] = [
  { name: 'period list', method: 'get', path: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList', valid: PERIOD_DATE },
  { name: 'period Excel', method: 'get', path: '/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel', valid: PERIOD_DATE },
  {
    name: 'period graph (POST)',
    method: 'post',
    path: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusGraphData',
    valid: PERIOD_DATE,
  },
  { name: 'period graph (GET)', method: 'get', path: '/v2/statistics/period/sales-status/graph-data', valid: PERIOD_DATE },
];
const HOURLY_OPS: Operation[] = [
  { name: 'hourly list', method: 'get', path: '/v1/statistics/hourBasedStatus/getHourBasedStatusList', valid: HOURLY },
  {
    name: 'hourly Excel',
    method: 'get',
    path: '/v1/statistics/hourBasedStatus/downloadHourBasedStatusExcel',
    valid: { ...HOURLY, fileName: 'h' },
  },
  { name: 'hourly graph (POST)', method: 'post', path: '/v1/statistics/hourBasedStatus/getHourBasedStatusGraphData', valid: HOURLY },
  { name: 'hourly graph (GET)', method: 'get', path: '/v2/statistics/period/hourly/sales-status/graph-data', valid: HOURLY },
];
const RANGE_OPS: Operation[] = [
  { name: 'category TOP-N', method: 'get', path: '/v2/statistics/category/sales-status', valid: RANGE },
  { name: 'category list', method: 'get', path: '/v1/statistics/categoryStatus/getCategoryStatusList', valid: RANGE },
  { name: 'category Excel', method: 'get', path: '/v1/statistics/categoryStatus/categoryStatusExcelDownload', valid: RANGE },
  { name: 'payment-method list', method: 'get', path: '/v1/statistics/payWayStatus/getPayWayStatusList', valid: RANGE },
  { name: 'payment-method Excel', method: 'get', path: '/v1/statistics/payWayStatus/payWayStatusExcelDownload', valid: RANGE },
  { name: 'goods list', method: 'get', path: '/v1/statistics/goodsStatus/getGoodsStatusList', valid: RANGE },
  { name: 'goods Excel', method: 'get', path: '/v1/statistics/goodsStatus/downloadGoodsStatusExcel', valid: { ...RANGE, fileName: 'g' } },
  { name: 'supplier list', method: 'get', path: '/v1/statistics/enterpriseStatus/getEnterpriseStatusList', valid: RANGE },
  {
    name: 'supplier Excel',
    method: 'get',
    path: '/v1/statistics/enterpriseStatus/downloadEnterpriseStatusExcel',
    valid: { ...RANGE, fileName: 'e' },
  },
];

/** Period rules: [case, changes to the valid request, the field the answer must name]. */
const PERIOD_RULES: [string, Query, string][] = [
  ['calendarType missing', { calendarType: undefined }, 'calendarType'],
  ['calendarType not date/month', { calendarType: 'week' }, 'calendarType'],
  ['agrtGb missing', { agrtGb: undefined }, 'agrtGb'],
  ['agrtGb not 01/02', { agrtGb: '03' }, 'agrtGb'],
  ['date calendar without startDate', { startDate: undefined }, 'startDate'],
  ['date calendar without endDate', { endDate: undefined }, 'endDate'],
  ['date calendar with months only', { startDate: undefined, endDate: undefined, startMonth: '2026-01', endMonth: '2026-02' }, 'startDate'],
  ['startDate not yyyy-MM-dd', { startDate: '20260101' }, 'startDate'],
  ['startDate not a calendar day', { startDate: '2026-02-30' }, 'startDate'],
  ['endDate before startDate', { startDate: '2026-02-01', endDate: '2026-01-31' }, 'endDate'],
  ['367 days', { startDate: '2025-01-01', endDate: '2026-01-02' }, 'endDate'],
  ['month calendar without startMonth', { calendarType: 'month', endMonth: '2026-03' }, 'startMonth'],
  ['month calendar without endMonth', { calendarType: 'month', startMonth: '2026-01' }, 'endMonth'],
  ['startMonth not yyyy-MM', { calendarType: 'month', startMonth: '2026-1', endMonth: '2026-03' }, 'startMonth'],
  ['endMonth month 13', { calendarType: 'month', startMonth: '2026-01', endMonth: '2026-13' }, 'endMonth'],
  ['endMonth before startMonth', { calendarType: 'month', startMonth: '2026-03', endMonth: '2026-01' }, 'endMonth'],
  ['37 months', { calendarType: 'month', startMonth: '2023-01', endMonth: '2026-01' }, 'endMonth'],
];
const HOURLY_RULES: [string, Query, string][] = [
  ['targetDate missing', { targetDate: undefined }, 'targetDate'],
  ['targetDate not yyyy-MM-dd', { targetDate: '2026/01/31' }, 'targetDate'],
  ['agrtGb missing', { agrtGb: undefined }, 'agrtGb'],
  ['agrtGb not 01/02', { agrtGb: '1' }, 'agrtGb'],
];
const RANGE_RULES: [string, Query, string][] = [
  ['startDate missing', { startDate: undefined }, 'startDate'],
  ['endDate missing', { endDate: undefined }, 'endDate'],
  ['agrtGb missing', { agrtGb: undefined }, 'agrtGb'],
  ['agrtGb not 01/02', { agrtGb: '00' }, 'agrtGb'],
  ['endDate not a calendar day', { endDate: '2026-01-32' }, 'endDate'],
  ['endDate before startDate', { startDate: '2026-01-10', endDate: '2026-01-09' }, 'endDate'],
  ['367 days', { startDate: '2024-01-01', endDate: '2025-01-01' }, 'endDate'],
];

const withChanges = (valid: Query, changes: Query): Query => {
  const out: Query = { ...valid, ...changes };
  for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
  return out;
};

describe('statistics: request validation', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    db = await statisticsDatabase('stats_valid');
    app = statisticsApp(db);
  });
  after(() => db.drop());

  const call = (op: Operation, q: Query) =>
    op.method === 'post'
      ? request(app).post(`${BO}${op.path}`).send(q).set('Authorization', ADMIN_AUTH)
      : request(app).get(`${BO}${op.path}`).query(q).set('Authorization', ADMIN_AUTH);

  const table: [Operation[], [string, Query, string][]][] = [
    [PERIOD_OPS, PERIOD_RULES],
    [HOURLY_OPS, HOURLY_RULES],
    [RANGE_OPS, RANGE_RULES],
  ];
  for (const [ops, rules] of table) {
    for (const op of ops) {
      it(`when the ${op.name} request is valid, then 200`, async () => {
        const res = await call(op, op.valid);
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      });
      for (const [name, changes, field] of rules) {
        it(`when the ${op.name} has ${name}, then 900 naming ${field}`, async () => {
          expectFieldRefused(await call(op, withChanges(op.valid, changes)), field);
        });
      }
    }
  }

  it('when exactly 366 days or 36 months are asked, then the range is accepted', async () => {
    const [days, months] = await Promise.all([
      call(PERIOD_OPS[0]!, { ...PERIOD_DATE, startDate: '2024-01-01', endDate: '2024-12-31' }),
      call(PERIOD_OPS[0]!, { calendarType: 'month', startMonth: '2023-02', endMonth: '2026-01', agrtGb: '01' }),
    ]);
    expect((days.body as ListOf<OrderStatusRow>).totalCount).to.equal(366);
    expect((months.body as ListOf<OrderStatusRow>).totalCount).to.equal(36);
  });

  for (const op of [HOURLY_OPS[1]!, RANGE_OPS[6]!, RANGE_OPS[8]!]) {
    it(`when the ${op.name} has no fileName (or an empty one), then 900 naming fileName`, async () => {
      expectFieldRefused(await call(op, withChanges(op.valid, { fileName: undefined })), 'fileName');
      expectFieldRefused(await call(op, withChanges(op.valid, { fileName: '' })), 'fileName');
    });
  }

  it('when a condition is longer than its source column or the file name longer than 200, then 900 naming it', async () => {
    expectFieldRefused(await call(PERIOD_OPS[0]!, { ...PERIOD_DATE, siteNo: 'S'.repeat(11) }), 'siteNo');
    expectFieldRefused(await call(PERIOD_OPS[2]!, { ...PERIOD_DATE, stdCtgNo: 'C'.repeat(21) }), 'stdCtgNo');
    expectFieldRefused(await call(RANGE_OPS[3]!, { ...RANGE, payWayCd: '1'.repeat(11) }), 'payWayCd');
    expectFieldRefused(await call(RANGE_OPS[6]!, { ...RANGE, fileName: '가'.repeat(201) }), 'fileName');
  });

  it('when both date fields are missing, then one answer names both', async () => {
    const res = await call(PERIOD_OPS[0]!, { calendarType: 'date', agrtGb: '01' });
    expectFieldRefused(res, 'startDate');
    expectFieldRefused(res, 'endDate');
  });
});
