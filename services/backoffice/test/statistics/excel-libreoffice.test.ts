import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ListOf } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { arrange, buildDailyAggregates, insertArranged } from './helpers/arranged-data.ts';
import { days } from './helpers/expected.ts';
import { ADMIN_AUTH, BO, binary, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

/** 2026-02-05 12:00 in Seoul: the ranges end before today. */
const NOW = new Date('2026-02-05T03:00:00Z');
const SOFFICE = process.env.SOFFICE_PATH ?? '/usr/bin/soffice';
/** CSV: comma, double quotes, UTF-8 (76), from line 1; cells as shown (formats applied). */
const CSV_FILTER = 'csv:Text - txt - csv (StarCalc):44,34,76,1';

/** RFC 4180 records: quoted fields may hold commas and doubled quotes. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  for (const line of text.replace(/\r?\n$/, '').split(/\r?\n/)) {
    const fields: string[] = [];
    for (let i = 0; i <= line.length;) {
      if (line[i] === '"') {
        let value = '';
        for (i += 1; i < line.length; i++) {
          if (line[i] === '"' && line[i + 1] === '"') {
            value += '"';
            i += 1;
          } else if (line[i] === '"') break;
          else value += line[i];
        }
        fields.push(value);
        i += 2;
      } else {
        const end = line.indexOf(',', i) < 0 ? line.length : line.indexOf(',', i);
        fields.push(line.slice(i, end));
        i = end + 1;
      }
    }
    records.push(fields);
  }
  return records;
}

/** A grid-list value as a spreadsheet shows it: grouped integers, ISO dates, empty for null. */
const shown = (value: unknown, dates?: 'day' | 'month'): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value !== 'string') return JSON.stringify(value);
  const text = value;
  if (dates === 'day') return `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}`;
  if (dates === 'month') return `${text.slice(0, 4)}-${text.slice(4, 6)}`;
  return text;
};

const CASES = [
  {
    name: 'period by day',
    list: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList',
    excel: '/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel',
    query: { calendarType: 'date', startDate: '2026-01-20', endDate: '2026-02-04', agrtGb: '01' },
    fields: ['agrtDt', 'dcAmt2nd', 'dcAmt3rd', 'dcAmt', 'ordAmt', 'cnclAmt', 'finalOrdAmt', 'ordQty', 'cnclQty', 'finalOrdQty', 'infCnt'],
    dates: 'day' as const,
  },
  {
    name: 'period by month',
    list: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList',
    excel: '/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel',
    query: { calendarType: 'month', startMonth: '2026-01', endMonth: '2026-02', agrtGb: '02', fileName: '월별' },
    fields: ['agrtDt', 'dcAmt2nd', 'dcAmt3rd', 'dcAmt', 'ordAmt', 'cnclAmt', 'finalOrdAmt', 'ordQty', 'cnclQty', 'finalOrdQty', 'infCnt'],
    dates: 'month' as const,
  },
  {
    name: 'goods',
    list: '/v1/statistics/goodsStatus/getGoodsStatusList',
    excel: '/v1/statistics/goodsStatus/downloadGoodsStatusExcel',
    query: { startDate: '2026-01-29', endDate: '2026-02-02', agrtGb: '01', siteNo: 'S01', fileName: '상품별' },
    fields: [
      'imgPath',
      'goodsNo',
      'goodsNm',
      'entrNo',
      'entrNm',
      'siteNm',
      'dcAmt2nd',
      'dcAmt3rd',
      'ordAmt',
      'cnclAmt',
      'realOrdAmt',
      'ordQty',
      'cnclQty',
      'realOrdQty',
    ],
  },
];

describe('statistics: Excel downloads open in LibreOffice', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  let app: Express;
  let dir: string;

  before(async () => {
    if (!existsSync(SOFFICE))
      throw new Error(`LibreOffice is missing at ${SOFFICE}: apt-get install -y libreoffice-calc-nogui (or set SOFFICE_PATH)`);
    dir = await mkdtemp(join(tmpdir(), 'bo-excel-lo-'));
    db = await statisticsDatabase('stats_excel_lo');
    await insertArranged(
      db.knex,
      arrange({ seed: 4405, orderDays: days('2026-01-20', '2026-02-04'), orders: 220, inflowDays: ['2026-01-31'], inflows: 100 }),
    );
    await buildDailyAggregates(db.knex, '2026-01-29', '2026-02-02');
    app = statisticsApp(db, () => NOW);
  });
  after(async () => {
    await db?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('when downloads are converted to CSV by LibreOffice headless, then each shows the title, the conditions and the grid list cell for cell, numbers #,##0 and dates yyyy-mm-dd', async () => {
    const lists: Record<string, unknown>[][] = [];
    const files: string[] = [];
    for (const [i, c] of CASES.entries()) {
      const list = await request(app).get(`${BO}${c.list}`).query(c.query).set('Authorization', ADMIN_AUTH);
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      lists.push((list.body as ListOf<Record<string, unknown>>).payloads);
      const res = await request(app).get(`${BO}${c.excel}`).query(c.query).set('Authorization', ADMIN_AUTH).buffer(true).parse(binary);
      expect(res.status, (res.body as Buffer).toString()).to.equal(200);
      files.push(join(dir, `download-${i}.xlsx`));
      await writeFile(files.at(-1)!, res.body as Buffer);
    }
    // A private profile, so parallel runs (and a desktop LibreOffice) do not share a lock.
    await promisify(execFile)(
      SOFFICE,
      [`-env:UserInstallation=file://${dir}/profile`, '--headless', '--norestore', '--convert-to', CSV_FILTER, '--outdir', dir, ...files],
      { timeout: 90_000 },
    );

    for (const [i, c] of CASES.entries()) {
      const rows = lists[i]!;
      expect(rows.length, c.name).to.be.greaterThan(1);
      const csv = parseCsv(await readFile(join(dir, `download-${i}.csv`), 'utf8'));
      expect(csv[0]![0], c.name).to.match(/^(기간별|상품별) (주문|매출)현황$/);
      expect(csv[1]![0], c.name).to.include(`집계구분 ${c.query.agrtGb}`);
      expect(
        csv[2]!.every((f) => f === ''),
        `${c.name}: blank row under the title`,
      ).to.equal(true);
      expect(csv[3]!.length, c.name).to.equal(c.fields.length);
      expect(csv.slice(4), c.name).to.deep.equal(rows.map((r) => c.fields.map((f) => shown(r[f], f === 'agrtDt' ? c.dates : undefined))));
    }
  });
});
