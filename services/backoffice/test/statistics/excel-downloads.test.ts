import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { parse as parseContentDisposition } from 'content-disposition';
import type { ListOf } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { arrange, buildDailyAggregates, insertArranged } from './helpers/arranged-data.ts';
import { days } from './helpers/expected.ts';
import { compactDate, readWorkbook } from './helpers/read-workbook.ts';
import { ADMIN_AUTH, BO, binary, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** 2026-02-05 12:00 in Seoul: the date of the default file names. */
const NOW = new Date('2026-02-05T03:00:00Z');

const ORDER_WORDS = ['주문금액', '취소금액', '순주문금액', '주문수량', '취소수량', '순주문수량'];
const SALES_WORDS = ['매출금액', '반품금액', '순매출금액', '매출수량', '반품수량', '순매출수량'];
const measures = (words: string[], netAmt = 'finalOrdAmt', netQty = 'finalOrdQty') => ({
  headers: ['2차 할인금액', '3차 할인금액', ...words],
  fields: ['dcAmt2nd', 'dcAmt3rd', 'ordAmt', 'cnclAmt', netAmt, 'ordQty', 'cnclQty', netQty],
});

interface Case {
  name: string;
  list: string;
  excel: string;
  query: Record<string, string>;
  headers: string[];
  fields: string[];
  /** The file name the client should save, decoded from Content-Disposition. */
  fileName: string;
  /** The ASCII fallback `filename=…` for clients without RFC 5987 support. */
  fallback: string;
  /** The sheet name and the conditions row above the table. */
  sheet: string;
  conditions: string;
  /** The period column, written as real dates. */
  dates?: 'day' | 'month';
}

const RANGE = { startDate: '2026-01-29', endDate: '2026-02-02' };
const o = measures(ORDER_WORDS);
const s = measures(SALES_WORDS);

const CASES: Case[] = [
  {
    name: 'period (days, order status, no file name)',
    list: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList',
    excel: '/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel',
    query: { calendarType: 'date', startDate: '2026-01-20', endDate: '2026-02-05', agrtGb: '01' },
    headers: ['일자', '2차 할인금액', '3차 할인금액', '할인금액', ...ORDER_WORDS, '상품상세 유입수'],
    fields: ['agrtDt', 'dcAmt2nd', 'dcAmt3rd', 'dcAmt', 'ordAmt', 'cnclAmt', 'finalOrdAmt', 'ordQty', 'cnclQty', 'finalOrdQty', 'infCnt'],
    fileName: 'period-status-20260205.xlsx',
    fallback: 'period-status-20260205.xlsx',
    sheet: '기간별 주문현황',
    conditions: '조회기간 2026-01-20 ~ 2026-02-05 (일별) | 집계구분 01 (주문)',
    dates: 'day',
  },
  {
    name: 'period (months, sales status, Korean file name)',
    list: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList',
    excel: '/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel',
    query: { calendarType: 'month', startMonth: '2026-01', endMonth: '2026-02', agrtGb: '02', fileName: '월별 매출현황' },
    headers: ['월', '2차 할인금액', '3차 할인금액', '할인금액', ...SALES_WORDS, '상품상세 유입수'],
    fields: ['agrtDt', 'dcAmt2nd', 'dcAmt3rd', 'dcAmt', 'ordAmt', 'cnclAmt', 'finalOrdAmt', 'ordQty', 'cnclQty', 'finalOrdQty', 'infCnt'],
    fileName: '월별 매출현황.xlsx',
    fallback: 'period-status-20260205.xlsx',
    sheet: '기간별 매출현황',
    conditions: '조회기간 2026-01 ~ 2026-02 (월별) | 집계구분 02 (매출)',
    dates: 'month',
  },
  {
    name: 'hourly',
    list: '/v1/statistics/hourBasedStatus/getHourBasedStatusList',
    excel: '/v1/statistics/hourBasedStatus/downloadHourBasedStatusExcel',
    query: { targetDate: '2026-01-31', agrtGb: '01', fileName: '시간대별 주문현황_0131.xlsx' },
    headers: ['시간대', ...o.headers, '상품상세 유입수'],
    fields: ['agrtDt', ...o.fields, 'infCnt'],
    fileName: '시간대별 주문현황_0131.xlsx',
    fallback: 'hourly-status-20260205.xlsx',
    sheet: '시간대별 주문현황',
    conditions: '조회일 2026-01-31 | 집계구분 01 (주문)',
  },
  {
    name: 'category',
    list: '/v1/statistics/categoryStatus/getCategoryStatusList',
    excel: '/v1/statistics/categoryStatus/categoryStatusExcelDownload',
    query: { ...RANGE, agrtGb: '02', siteNo: 'S01' },
    headers: ['표준카테고리번호', '표준카테고리명', '사이트명', 'MD ID', 'MD명', ...s.headers],
    fields: ['stdCtgNo', 'stdCtgNm', 'siteNm', 'mdId', 'mdNm', ...s.fields],
    fileName: 'category-status-20260205.xlsx',
    fallback: 'category-status-20260205.xlsx',
    sheet: '카테고리별 매출현황',
    conditions: '조회기간 2026-01-29 ~ 2026-02-02 | 집계구분 02 (매출) | 사이트번호 S01',
  },
  {
    name: 'payment method',
    list: '/v1/statistics/payWayStatus/getPayWayStatusList',
    excel: '/v1/statistics/payWayStatus/payWayStatusExcelDownload',
    query: { ...RANGE, agrtGb: '01', fileName: 'payway report' },
    headers: ['사이트번호', '집계기간', '집계구분', '결제수단코드', '결제수단명', '사이트명', ...o.headers],
    fields: ['siteNo', 'agrtDt', 'agrtGb', 'payWayCd', 'payWayNm', 'siteNm', ...o.fields],
    fileName: 'payway report.xlsx',
    fallback: 'payway report.xlsx',
    sheet: '결제수단별 주문현황',
    conditions: '조회기간 2026-01-29 ~ 2026-02-02 | 집계구분 01 (주문)',
  },
  {
    name: 'goods',
    list: '/v1/statistics/goodsStatus/getGoodsStatusList',
    excel: '/v1/statistics/goodsStatus/downloadGoodsStatusExcel',
    query: { ...RANGE, agrtGb: '01', fileName: '상품별 현황' },
    headers: ['이미지경로', '상품번호', '상품명', '공급사번호', '공급사명', '사이트명', ...measures(ORDER_WORDS).headers],
    fields: ['imgPath', 'goodsNo', 'goodsNm', 'entrNo', 'entrNm', 'siteNm', ...measures(ORDER_WORDS, 'realOrdAmt', 'realOrdQty').fields],
    fileName: '상품별 현황.xlsx',
    fallback: 'goods-status-20260205.xlsx',
    sheet: '상품별 주문현황',
    conditions: '조회기간 2026-01-29 ~ 2026-02-02 | 집계구분 01 (주문)',
  },
  {
    name: 'supplier',
    list: '/v1/statistics/enterpriseStatus/getEnterpriseStatusList',
    excel: '/v1/statistics/enterpriseStatus/downloadEnterpriseStatusExcel',
    query: { ...RANGE, agrtGb: '02', fileName: '공급사별/현황' },
    headers: ['공급사번호', '공급사명', '사이트명', ...s.headers],
    fields: ['entrNo', 'entrNm', 'siteNm', ...s.fields],
    fileName: '공급사별_현황.xlsx',
    fallback: 'enterprise-status-20260205.xlsx',
    sheet: '공급사별 매출현황',
    conditions: '조회기간 2026-01-29 ~ 2026-02-02 | 집계구분 02 (매출)',
  },
];

describe('statistics: Excel downloads', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    db = await statisticsDatabase('stats_excel');
    const a = arrange({
      seed: 4404,
      orderDays: days('2026-01-20', '2026-02-04'),
      orders: 220,
      inflowDays: ['2026-01-31', '2026-02-01'],
      inflows: 150,
    });
    await insertArranged(db.knex, a);
    await buildDailyAggregates(db.knex, '2026-01-29', '2026-02-02');
    app = statisticsApp(db, () => NOW);
  });
  after(() => db.drop());

  for (const c of CASES) {
    it(`when the ${c.name} Excel is downloaded, then it holds the grid list row for row under Korean headers, numbers as numbers`, async () => {
      const list = await request(app).get(`${BO}${c.list}`).query(c.query).set('Authorization', ADMIN_AUTH);
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      const rows = (list.body as ListOf<Record<string, unknown>>).payloads;
      expect(rows.length).to.be.greaterThan(1);

      const res = await request(app).get(`${BO}${c.excel}`).query(c.query).set('Authorization', ADMIN_AUTH).buffer(true).parse(binary);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal(XLSX_TYPE);
      const disposition = parseContentDisposition(res.headers['content-disposition']!);
      expect(disposition.type).to.equal('attachment');
      expect(disposition.parameters.filename).to.equal(c.fileName);
      expect(parseContentDisposition(res.headers['content-disposition']!, { extended: false }).parameters.filename).to.equal(c.fallback);

      const { workbook, sheets } = await readWorkbook(res.body as Buffer);
      expect(sheets.map((x) => x.name)).to.deep.equal([c.sheet]);
      const { aoa, titleLines, headerRow, worksheet } = sheets[0]!;
      expect(titleLines).to.deep.equal([c.sheet, c.conditions]);
      expect([workbook.title, workbook.description]).to.deep.equal([c.sheet, c.conditions]);
      expect(aoa[0]).to.deep.equal(c.headers);
      // The period column holds real dates: read back as the list's yyyyMMdd / yyyyMM.
      const cells = aoa
        .slice(1)
        .map((r) => r.map((v, i) => (c.fields[i] === 'agrtDt' && c.dates ? compactDate(v, c.dates === 'month') : v)));
      expect(cells).to.deep.equal(rows.map((r) => c.fields.map((f) => r[f] ?? null)));
      if (c.dates) expect(aoa[1]![0]).to.be.instanceOf(Date);

      // Every number of the list is a numeric cell shown with thousands separators.
      rows.forEach((r, i) =>
        c.fields.forEach((f, col) => {
          if (typeof r[f] !== 'number') return;
          const cell = worksheet.getRow(headerRow + 1 + i).getCell(col + 1);
          expect([typeof cell.value, cell.numFmt], `${f} of row ${i + 1}`).to.deep.equal(['number', '#,##0']);
        }),
      );
    });
  }
});
