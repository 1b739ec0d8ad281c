import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  holdTables,
  type TableHold,
  ADMIN,
  bearer,
  TEST_JWT_SECRET,
  generateSourceData,
  insertSourceData,
  waitFor,
  connectError,
  startService,
  timedRequest,
  type Answer,
  type ServiceProcess,
} from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { memberMigrations } from '@bo/member/migrations';

/**
 * A deploy sends SIGTERM while requests are being answered. Every request here is held inside
 * the database (the test locks its tables), and the signal is sent only once each request's own
 * statement is seen waiting there, so each is surely in flight; the tables are unlocked only
 * after the process has begun shutting down and stopped taking connections.
 */

const DAYS = ['2026-05-01', '2026-05-02', '2026-05-03'];
const RANGE = `startDate=${DAYS[0]}&endDate=${DAYS[2]}&agrtGb=01`;

interface Flight {
  label: string;
  /** A literal only this request's SQL carries (its filter value), to see it waiting in the database. */
  marker: string;
  /** Whether the answer cache reads the build version first (its waiting statement has no marker). */
  cached?: boolean;
  answer: Promise<Answer>;
}

let hold: TableHold | undefined;

async function sigtermWhileInFlight(service: ServiceProcess, flights: Flight[]) {
  let waiting: string[] = [];
  await waitFor(
    'every request to wait on the held tables',
    async () => {
      waiting = await hold!.waiting();
      // A cached list (the goods list) first reads the build version of its days for its cache
      // key: that statement carries no goods number, so such requests are counted instead.
      const buildVersionReads = waiting.filter((sql) => sql.includes('`agg_built_day`')).length;
      const unmarked = flights.filter((f) => !waiting.some((sql) => sql.includes(`'${f.marker}'`)));
      return unmarked.length <= buildVersionReads && unmarked.every((f) => f.cached === true);
    },
    30_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; waiting statements:\n${waiting.join('\n')}`);
  });
  service.child.kill('SIGTERM');
  await service.printed('shutting down');
  // The listening socket closes on the next turn of the process's event loop.
  await waitFor(
    'the stopping service to refuse new connections',
    async () => (await connectError(service.port)) === 'ECONNREFUSED',
    10_000,
  );
  expect(service.alive(), 'the process waits for its in-flight requests').to.equal(true);
  await hold!.release();
  hold = undefined;
  const answers = await Promise.all(flights.map((f) => f.answer));
  const exit = await service.exited;
  console.log(
    `      ${service.name}: ${flights.length} requests in flight at SIGTERM; statuses ${answers.map((a) => a.status).join(', ')}; exit code ${exit.code}`,
  );
  return { answers, exit };
}

describe('SIGTERM during in-flight requests (real processes)', function () {
  this.timeout(120_000);
  const services: ServiceProcess[] = [];
  afterEach(async () => {
    await hold?.release();
    hold = undefined;
    for (const s of services.splice(0)) s.kill();
  });

  describe('back-office service', () => {
    let db: TestDatabase;
    const data = generateSourceData(4242, DAYS);
    before(async () => {
      db = await createTestDatabase('fault_sigterm_bo', boMigrations);
      await insertSourceData(db.knex, data);
    });
    after(async () => db?.drop());

    it('when SIGTERM arrives while statistics reads and Excel downloads are in flight, then every one answers 200 and the process exits 0', async () => {
      // A period graph reads with three connections at once: the pool must let every request reach the tables.
      const bo = await startService('backoffice', { BO_DATABASE_URL: db.url, JWT_SECRET: TEST_JWT_SECRET, DB_POOL_MAX: '20' });
      services.push(bo);
      const auth = { headers: { authorization: bearer(ADMIN) } };
      const goods = data.goods.map((g) => g.goods_no);
      const request = (label: string, path: string, i: number): Flight => ({
        label,
        marker: goods[i]!,
        cached: label === 'goods list',
        answer: timedRequest(`${bo.baseUrl}${path}&goodsNo=${goods[i]}`, auth),
      });
      hold = await holdTables(db.knex, db.name);
      const flights = [
        request('period graph', `/v2/statistics/period/sales-status/graph-data?calendarType=date&${RANGE}`, 0),
        request('period graph', `/v2/statistics/period/sales-status/graph-data?calendarType=date&${RANGE}`, 1),
        request('goods list', `/v1/statistics/goodsStatus/getGoodsStatusList?${RANGE}`, 2),
        request('goods list', `/v1/statistics/goodsStatus/getGoodsStatusList?${RANGE}`, 3),
        request('period Excel', `/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel?calendarType=date&${RANGE}`, 4),
        request('period Excel', `/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel?calendarType=date&${RANGE}`, 5),
      ];
      const { answers, exit } = await sigtermWhileInFlight(bo, flights);

      answers.forEach((a, i) => expect(a.status, `${flights[i]!.label}: ${JSON.stringify(a)}`).to.equal(200));
      for (const excel of answers.slice(4)) {
        expect(excel.body).to.have.property('contentType').that.contains('spreadsheetml');
        expect((excel.body as { bytes: number }).bytes).to.be.greaterThan(1000);
      }
      expect(exit.code, bo.output().slice(-2000)).to.equal(0);
    });
  });

  describe('member service', () => {
    let db: TestDatabase;
    const START = 200_000;
    const decreases = { S1: 1_000, S2: 2_000, S3: 3_000, S4: 4_000 };
    const readers = ['S5', 'S6'];
    before(async () => {
      db = await createTestDatabase('fault_sigterm_member', memberMigrations);
      for (const mbrNo of [...Object.keys(decreases), ...readers]) {
        await db.knex('mbr').insert({ mbr_no: mbrNo, mbr_nm: `staff ${mbrNo}`, mbr_stat_cd: '10', staff_yn: 'Y' });
        await db.knex('staff_dc_lim').insert({ mbr_no: mbrNo, lim_amt: 500_000, rmnd_amt: START, upd_dtm: '2026-01-01 00:00:00' });
      }
    });
    after(async () => db?.drop());

    it('when SIGTERM arrives while limit changes and reads are in flight, then every one answers 200, every change is kept, and the process exits 0', async () => {
      const member = await startService('member', { MEMBER_DATABASE_URL: db.url });
      services.push(member);
      hold = await holdTables(db.knex, db.name);
      const flights: Flight[] = [
        ...Object.entries(decreases).map(([mbrNo, ocurAmt]) => ({
          label: `decrease ${mbrNo}`,
          marker: mbrNo,
          answer: timedRequest(`${member.baseUrl}/v1/staff/dcLimIncDec`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ mbrNo, rsrvUseGbCd: '20', ocurAmt, ordNo: `ORD-TERM-${mbrNo}` }),
          }),
        })),
        ...readers.map((mbrNo) => ({
          label: `read ${mbrNo}`,
          marker: mbrNo,
          answer: timedRequest(`${member.baseUrl}/v1/staff/getDsctLmtStatBO?mbrNo=${mbrNo}`),
        })),
      ];
      const { answers, exit } = await sigtermWhileInFlight(member, flights);

      answers.forEach((a, i) => expect(a.status, `${flights[i]!.label}: ${JSON.stringify(a)}`).to.equal(200));
      expect(exit.code, member.output().slice(-2000)).to.equal(0);
      const remaining = Object.fromEntries(
        (await db.knex('staff_dc_lim').select('mbr_no', 'rmnd_amt')).map((r: { mbr_no: string; rmnd_amt: number }) => [
          r.mbr_no,
          r.rmnd_amt,
        ]),
      );
      expect(remaining, 'every change answered 200 is kept').to.deep.equal({
        ...Object.fromEntries(Object.entries(decreases).map(([mbrNo, amt]) => [mbrNo, START - amt])),
        ...Object.fromEntries(readers.map((mbrNo) => [mbrNo, START])),
      });
      expect(await db.knex('staff_dc_lim_hist').orderBy('mbr_no').pluck('ord_no')).to.deep.equal(
        Object.keys(decreases).map((m) => `ORD-TERM-${m}`),
      );
    });
  });
});
