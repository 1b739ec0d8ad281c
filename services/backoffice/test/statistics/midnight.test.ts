import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { parse as parseContentDisposition } from 'content-disposition';
import { type TestDatabase } from '@bo/testing';
import { arrange, insertArranged, type Arranged, type Evt } from './helpers/arranged-data.ts';
import { days, hourRowOf, periodRowOf } from './helpers/expected.ts';
import { ADMIN_AUTH, BO, statisticsApp, statisticsDatabase } from './helpers/statistics-app.ts';

/**
 * Issue 17.6: the period and hourly reports around midnight in Seoul. An event at 23:59:59
 * belongs to its day's hour 23, one at 00:00:00 to the next day's hour 0, whatever the clock;
 * the clock at 23:59:59.999 and at 00:00:00.000 decides which day is today (the Excel default
 * file name). The instants are written in UTC so no process time zone takes part.
 */
const LAST_MS = new Date('2026-02-01T14:59:59.999Z'); // 2026-02-01 23:59:59.999 in Seoul
const MIDNIGHT = new Date('2026-02-01T15:00:00.000Z'); // 2026-02-02 00:00:00.000 in Seoul

const PERIOD_LIST = `${BO}/v1/statistics/periodBasedStatus/getPeriodBasedStatusList`;
const PERIOD_EXCEL = `${BO}/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel`;
const HOURLY_LIST = `${BO}/v1/statistics/hourBasedStatus/getHourBasedStatusList`;

describe('statistics around midnight in Seoul', () => {
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;
  let now = LAST_MS;

  before(async () => {
    db = await statisticsDatabase('stats_midnight');
    a = arrange({ seed: 1717, orderDays: days('2026-01-31', '2026-02-02'), orders: 60, inflowDays: ['2026-02-01'], inflows: 50 });
    const base = a.events.find((e) => e.agrt_gb_cd === '01' && e.evt_gb_cd === '10')!;
    const edge = (evt_dtm: string, seq: number, amt: number): Evt => ({ ...base, ord_goods_seq: 900 + seq, evt_dtm, amt, qty: seq });
    a.events.push(edge('2026-02-01 23:59:59', 1, 1_111), edge('2026-02-02 00:00:00', 2, 2_222));
    await insertArranged(db.knex, a);
    app = statisticsApp(db, () => now);
  });
  after(() => db.drop());

  for (const [label, clock] of [
    ['23:59:59.999', LAST_MS],
    ['00:00:00.000', MIDNIGHT],
  ] as const) {
    it(`when the clock reads ${label}, then 23:59:59 counts on 1 Feb hour 23 and 00:00:00 on 2 Feb hour 0`, async () => {
      now = clock;
      const period = await request(app)
        .get(PERIOD_LIST)
        .query({ calendarType: 'date', startDate: '2026-02-01', endDate: '2026-02-02', agrtGb: '01' })
        .set('Authorization', ADMIN_AUTH);
      expect(period.status, JSON.stringify(period.body)).to.equal(200);
      const periodRows = (period.body as { payloads: { agrtDt: string }[] }).payloads;
      const byDay = periodRows.map((r) => r.agrtDt);
      expect(byDay).to.deep.equal(['20260201', '20260202']);
      for (const [i, day] of ['2026-02-01', '2026-02-02'].entries()) expect(periodRows[i]).to.deep.include(periodRowOf(a, '01', {}, day));
      for (const [day, hour] of [
        ['2026-02-01', 23],
        ['2026-02-02', 0],
      ] as const) {
        const hourly = await request(app).get(HOURLY_LIST).query({ targetDate: day, agrtGb: '01' }).set('Authorization', ADMIN_AUTH);
        expect(hourly.status).to.equal(200);
        const row = (hourly.body as { payloads: { ordAmt: number }[] }).payloads[hour]!;
        expect(row).to.deep.equal(hourRowOf(a, '01', {}, day, hour));
        expect(row.ordAmt, `${day} ${hour}h holds its edge event`).to.be.at.least(hour === 23 ? 1_111 : 2_222);
      }
    });
  }

  it('when the clock passes midnight, then the Excel default file name moves from 1 Feb to 2 Feb', async () => {
    const fileNameAt = async (clock: Date) => {
      now = clock;
      const res = await request(app)
        .get(PERIOD_EXCEL)
        .query({ calendarType: 'date', startDate: '2026-02-01', endDate: '2026-02-01', agrtGb: '01' })
        .set('Authorization', ADMIN_AUTH);
      expect(res.status).to.equal(200);
      return parseContentDisposition(res.headers['content-disposition'] as string).parameters.filename;
    };
    expect(await fileNameAt(LAST_MS)).to.equal('period-status-20260201.xlsx');
    expect(await fileNameAt(MIDNIGHT)).to.equal('period-status-20260202.xlsx');
  });
});
