import { expect } from 'chai';
import request from 'supertest';
import type { ListOf, PayWayStatusRow } from '@bo/contracts';
import { createKnex, type Knex } from '@bo/db';
import { holdTables, type TestDatabase, TEST_JWT_SECRET, testLogger } from '@bo/testing';
import { createBackofficeApp, loadBackofficeConfig } from '../../src/index.ts';
import { ADMIN_AUTH, BO, statisticsDatabase } from './helpers/statistics-app.ts';

// Three days, no whole month, and January has aggregated days outside them: the download
// streams from the daily aggregate only.
const QUERY = 'startDate=2026-01-03&endDate=2026-01-05&agrtGb=01';
const DOWNLOAD = `${BO}/v1/statistics/payWayStatus/payWayStatusExcelDownload?${QUERY}`;
const LIST = `${BO}/v1/statistics/payWayStatus/getPayWayStatusList?${QUERY}`;

describe('Excel download whose first row comes after the request time limit', function () {
  this.timeout(30_000);
  let db: TestDatabase;
  let pool: Knex;

  before(async () => {
    db = await statisticsDatabase('excel_time_limit');
    const measures = { ord_amt: 1000, ord_qty: 1, cncl_amt: 0, cncl_qty: 0, dc_amt_2nd: 0, dc_amt_3rd: 0 };
    const rows = ['2026-01-04', '2026-01-20'].flatMap((agrt_dt) =>
      ['10', '20', '30'].map((pay_way_cd) => ({ agrt_gb_cd: '01', agrt_dt, pay_way_cd, ...measures })),
    );
    // The day build writes the per-site rows, their every-site roll-up (read without a site
    // condition) and the month's sums together.
    await db.knex('agg_payway_daily').insert(rows.map((r) => ({ ...r, site_no: 'S01' })));
    await db.knex('agg_payway_daily_all').insert(rows);
    const month = ['10', '20', '30'].map((pay_way_cd) => ({
      agrt_gb_cd: '01',
      agrt_mon: '2026-01-01',
      pay_way_cd,
      ord_amt: 2000,
      ord_qty: 2,
      cncl_amt: 0,
      cncl_qty: 0,
      dc_amt_2nd: 0,
      dc_amt_3rd: 0,
      day_cnt: 2,
    }));
    await db.knex('agg_payway_monthly').insert(month.map((r) => ({ ...r, site_no: 'S01' })));
    await db.knex('agg_payway_monthly_all').insert(month);
    // One connection, so a connection the download never gave back would starve the next request.
    pool = createKnex(db.url, { poolMax: 1, acquireTimeoutMs: 2_000, statementTimeoutMs: 20_000, streamStatementTimeoutMs: 60_000 });
  });
  after(async () => {
    await pool?.destroy();
    await db?.drop();
  });

  it('when the time limit answers 504 before the rows arrive, then the download gives its database connection back once they do', async () => {
    const app = createBackofficeApp({
      config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, REQUEST_TIMEOUT_MS: '1000' }),
      logger: testLogger(),
      knex: pool,
    });
    const hold = await holdTables(db.knex, db.name, ['agg_payway_daily', 'agg_payway_daily_all']);
    try {
      const timedOut = await request(app).get(DOWNLOAD).set('Authorization', ADMIN_AUTH).timeout(10_000);
      expect(timedOut.status).to.equal(900);
      expect(timedOut.body).to.include({ code: '1504', httpStatus: 504 });
    } finally {
      await hold.release();
    }
    const next = await request(app).get(LIST).set('Authorization', ADMIN_AUTH).timeout(10_000);
    expect(next.status, JSON.stringify(next.body)).to.equal(200);
    expect((next.body as ListOf<PayWayStatusRow>).totalCount).to.equal(3);
  });
});
