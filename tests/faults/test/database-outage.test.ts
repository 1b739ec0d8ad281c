import { expect } from 'chai';
import { createKnex, ensureDatabase, migrateLatest, withDatabase, type Migration } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import {
  generateSourceData,
  insertSourceData,
  waitFor,
  ADMIN,
  bearer,
  TEST_JWT_SECRET,
  startPrivateMariaDb,
  type PrivateMariaDb,
  startService,
  timedRequest,
  type Answer,
  type ServiceProcess,
} from '@bo/testing';
import { memberMigrations } from '@bo/member/migrations';

/**
 * The database goes away for 10 s while both services take requests. Readiness must say so,
 * every request must still get an answer (900 with 1503 "unavailable" and Retry-After, not a
 * 500, a hang or a dead process), and both services must serve again by themselves once the
 * database is back, with no restart.
 */

const OUTAGE_MS = 10_000;
/** An answer slower than this counts as a hang: the pool's own acquire default is 60 s. */
const ANSWER_LIMIT_MS = 10_000;
const DAYS = ['2026-05-01', '2026-05-02'];

interface Sample extends Answer {
  /** When the request was sent, in ms since the outage began (negative: before). */
  sentAt: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A steady client: one request after another, a short pause between, every answer kept. */
function trickle(send: () => Promise<Answer>, clock: () => number, pauseMs: number) {
  const samples: Sample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const sentAt = clock();
      samples.push({ ...(await send()), sentAt });
      await sleep(pauseMs);
    }
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

async function createMigrated(url: string, migrations: readonly Migration[]) {
  await ensureDatabase(url);
  const knex = createKnex(url, { poolMax: 2 });
  await migrateLatest(knex, migrations);
  return knex;
}

describe('MariaDB stopped for 10 s under load (real services, private MariaDB)', function () {
  this.timeout(180_000);
  let mariadb: PrivateMariaDb;
  const services: ServiceProcess[] = [];

  before(async () => {
    mariadb = await startPrivateMariaDb();
    const bo = await createMigrated(withDatabase(mariadb.serverUrl, 'bo'), boMigrations);
    await insertSourceData(bo, generateSourceData(777, DAYS));
    await bo.destroy();
    const member = await createMigrated(withDatabase(mariadb.serverUrl, 'member'), memberMigrations);
    await member('mbr').insert({ mbr_no: 'S1', mbr_nm: 'staff S1', mbr_stat_cd: '10', staff_yn: 'Y' });
    await member('staff_dc_lim').insert({ mbr_no: 'S1', lim_amt: 500_000, rmnd_amt: 123_456, upd_dtm: '2026-01-01 00:00:00' });
    await member.destroy();
  });
  after(async () => {
    for (const s of services) s.kill();
    await mariadb?.destroy();
  });

  it('when MariaDB stops for 10 s, then /ready turns 503, every read answers 900/1503 with Retry-After quickly, no process dies, and both serve again by themselves', async () => {
    const bo = await startService('backoffice', { BO_DATABASE_URL: withDatabase(mariadb.serverUrl, 'bo'), JWT_SECRET: TEST_JWT_SECRET });
    const member = await startService('member', { MEMBER_DATABASE_URL: withDatabase(mariadb.serverUrl, 'member') });
    services.push(bo, member);

    let outageStart = Number.POSITIVE_INFINITY;
    const clock = () => performance.now() - outageStart;
    const auth = { headers: { authorization: bearer(ADMIN) } };
    const reads = {
      backoffice: trickle(
        () =>
          timedRequest(
            `${bo.baseUrl}/v2/statistics/period/sales-status/graph-data?calendarType=date&startDate=${DAYS[0]}&endDate=${DAYS[1]}&agrtGb=01`,
            auth,
            60_000,
          ),
        clock,
        100,
      ),
      member: trickle(() => timedRequest(`${member.baseUrl}/v1/staff/getDsctLmtStatBO?mbrNo=S1`, {}, 60_000), clock, 100),
    };
    const ready = {
      backoffice: trickle(() => timedRequest(`${bo.baseUrl}/ready`, {}, 60_000), clock, 200),
      member: trickle(() => timedRequest(`${member.baseUrl}/ready`, {}, 60_000), clock, 200),
    };
    const all = [...Object.values(reads), ...Object.values(ready)];
    const lastStatus = (t: { samples: Sample[] }) => t.samples.at(-1)?.status;
    try {
      await waitFor(
        'both services to answer reads',
        () => Promise.resolve(Object.values(reads).every((t) => t.samples.some((s) => s.status === 200))),
        30_000,
      );

      outageStart = performance.now();
      await mariadb.stop();
      const stoppedMs = clock();
      await waitFor(
        '/ready to turn 503 on both services',
        () => Promise.resolve(Object.values(ready).every((t) => lastStatus(t) === 503)),
        30_000,
      );
      const notReadyMs = clock();
      await sleep(OUTAGE_MS - clock());

      await mariadb.start();
      const backMs = clock();
      await waitFor(
        '/ready to turn 200 on both services',
        () => Promise.resolve(Object.values(ready).every((t) => lastStatus(t) === 200)),
        60_000,
      );
      const readyAgainMs = clock();
      await waitFor(
        'reads sent after the database came back to succeed',
        () =>
          Promise.resolve(
            Object.values(reads).every(
              (t) =>
                t.samples
                  .filter((s) => s.sentAt > backMs)
                  .slice(-3)
                  .filter((s) => s.status === 200).length === 3,
            ),
          ),
        60_000,
      );
      const servingAgainMs = clock();
      await Promise.all(all.map((t) => t.stop()));

      const outage = (samples: Sample[]) => samples.filter((s) => s.sentAt >= 0 && s.sentAt < backMs);
      const figures = Object.entries(reads).map(([name, t]) => {
        const during = outage(t.samples);
        const errors = during.filter((s) => s.status !== 200);
        return `${name}: ${during.length} reads sent during the outage, ${errors.length} error answers (${[...new Set(errors.map((s) => `${s.status} ${(s.body as { code?: string })?.code}`))].join(', ')}), slowest ${Math.max(...during.map((s) => s.ms)).toFixed(0)} ms`;
      });
      console.log(
        [
          `MariaDB stopped in ${(stoppedMs / 1000).toFixed(1)} s; both /ready 503 ${(notReadyMs / 1000).toFixed(1)} s after the stop began`,
          `restarted at ${(backMs / 1000).toFixed(1)} s (answering); both /ready 200 after ${((readyAgainMs - backMs) / 1000).toFixed(1)} s; reads 200 again after ${((servingAgainMs - backMs) / 1000).toFixed(1)} s`,
          ...figures,
          `slowest answer of any request over the whole run: ${Math.max(...all.flatMap((t) => t.samples.map((s) => s.ms))).toFixed(0)} ms`,
        ]
          .map((l) => `      ${l}`)
          .join('\n'),
      );

      for (const s of [bo, member])
        expect(s.alive(), `${s.name} is still the same running process\n${s.output().slice(-2000)}`).to.equal(true);
      for (const [name, t] of Object.entries({
        ...reads,
        ...Object.fromEntries(Object.entries(ready).map(([n, r]) => [`${n} /ready`, r])),
      })) {
        const late = t.samples.filter((s) => s.status === 0 || s.ms > ANSWER_LIMIT_MS);
        expect(late, `${name}: requests without an answer within ${ANSWER_LIMIT_MS} ms`).to.deep.equal([]);
      }
      for (const [name, t] of Object.entries(reads)) {
        const errors = t.samples.filter((s) => s.status !== 200);
        expect(
          outage(t.samples).filter((s) => s.status !== 200),
          `${name} answered errors during the outage`,
        ).to.have.lengthOf.above(0);
        // Each client sends one read at a time, so at most one read sent before the stop began
        // can have failed: the one in flight when it began. It met the server part-way through
        // its own stop, so any ErrorCode answer is accepted for it.
        const inFlightAtStop = errors.filter((s) => s.sentAt < 0);
        expect(inFlightAtStop.length, `${name}: failed reads sent before the stop ${JSON.stringify(inFlightAtStop)}`).to.be.at.most(1);
        for (const e of inFlightAtStop) {
          expect([500, 503, 900], `${name}: ${JSON.stringify(e)}`).to.include(e.status);
          expect(e.body, `${name}: an ErrorCode body`).to.include.all.keys('code', 'message', 'httpStatus', 'isProcess');
        }
        // Every other failure is the declared "unavailable, try again": never a 500.
        for (const e of errors.filter((s) => s.sentAt >= 0)) {
          expect(e.status, `${name}: ${JSON.stringify(e)}`).to.equal(900);
          expect(e.body, `${name}: ${JSON.stringify(e)}`).to.include({ code: '1503', httpStatus: 503, isProcess: false });
          expect(e.retryAfter, `${name}: Retry-After of ${JSON.stringify(e)}`).to.equal('5');
        }
      }
    } finally {
      await Promise.all(all.map((t) => t.stop()));
    }
  });
});
