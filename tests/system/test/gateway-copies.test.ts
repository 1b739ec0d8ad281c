import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import { selectRows } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { memberMigrations } from '@bo/member/migrations';
import {
  ADMIN,
  bearer,
  createTestDatabase,
  generateSourceData,
  insertSourceData,
  startNginxGateway,
  startPrivateRedis,
  startService,
  TEST_JWT_SECRET,
  type PrivateRedis,
  type RunningGateway,
  type ServiceProcess,
  type TestDatabase,
} from '@bo/testing';

const DAYS = ['2026-05-01', '2026-05-02', '2026-05-03'];
const REPORT = '/api/bo/v1/statistics/categoryStatus/getCategoryStatusList?startDate=2026-05-01&endDate=2026-05-03&agrtGb=01';
const AI_LIST = '/api/bo/v2/goods/ai/getAiGoodsList?pageNo=1&pageSize=10';
const CHANGE_PATH = '/api/member/v1/staff/dcLimIncDec';
const AI_PER_MINUTE = 6;

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** One request through the gateway from `from` (127.0.0.2 is "inside" the compose network here). */
function send(
  port: number,
  path: string,
  o: { method?: string; headers?: Record<string, string>; body?: unknown; from?: string } = {},
): Promise<Answer> {
  const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: o.method ?? 'GET',
        localAddress: o.from ?? '127.0.0.1',
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...o.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          const json = /json/.test(res.headers['content-type'] ?? '');
          resolve({ status: res.statusCode ?? 0, body: json ? (JSON.parse(text) as Record<string, unknown>) : { text } });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('two copies of each service behind the real nginx gateway', function () {
  this.timeout(180_000);
  let bo: TestDatabase;
  let member: TestDatabase;
  let redis: PrivateRedis;
  let gateway: RunningGateway;
  const backoffice: ServiceProcess[] = [];
  const members: ServiceProcess[] = [];
  const auth = { Authorization: bearer(ADMIN) };

  before(async () => {
    [bo, member, redis] = await Promise.all([
      createTestDatabase('gw_copies_bo', boMigrations),
      createTestDatabase('gw_copies_member', memberMigrations),
      startPrivateRedis({ appendonly: false }),
    ]);
    await insertSourceData(bo.knex, generateSourceData(16003, DAYS, { goods: 12, orders: 200, inflows: 300 }));
    for (const day of DAYS) await rebuildAggregate(bo.knex, { kind: 'category', day, requestedBy: 'cli' });
    const boEnv = {
      BO_DATABASE_URL: bo.url,
      JWT_SECRET: TEST_JWT_SECRET,
      REDIS_URL: redis.url,
      AI_RATE_LIMIT_PER_MINUTE: String(AI_PER_MINUTE),
      LOG_LEVEL: 'warn',
    };
    // nginx connects from 127.0.0.1 and passes the caller's address in X-Forwarded-For.
    const memberEnv = {
      MEMBER_DATABASE_URL: member.url,
      INTERNAL_CIDRS: '127.0.0.0/8',
      TRUSTED_PROXIES: '127.0.0.1/32',
      LOG_LEVEL: 'warn',
    };
    const started = await Promise.all([
      startService('backoffice', boEnv),
      startService('backoffice', boEnv),
      startService('member', memberEnv),
      startService('member', memberEnv),
    ]);
    backoffice.push(started[0], started[1]);
    members.push(started[2], started[3]);
    gateway = await startNginxGateway({
      backoffice: backoffice.map((s) => s.port),
      member: members.map((s) => s.port),
      worker: [backoffice[0]!.port],
    });
  });

  after(async () => {
    await gateway?.stop();
    for (const s of [...backoffice, ...members]) s.kill();
    await redis?.destroy();
    await bo?.drop();
    await member?.drop();
  });

  const upstreamsOf = (uriPart: string) =>
    new Set(
      gateway
        .accessLog()
        .filter((l) => l.uri.includes(uriPart))
        .map((l) => l.upstream),
    );

  it('when reports are asked through the gateway, then both back-office copies answer them in turn, the same answer', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await send(gateway.port, REPORT, { headers: auth }));
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).to.equal(1);
    expect(upstreamsOf('categoryStatus')).to.deep.equal(new Set(backoffice.map((s) => `127.0.0.1:${s.port}`)));
  });

  it('when one user calls the AI over both copies, then the limit is one budget in Redis: exactly AI_RATE_LIMIT_PER_MINUTE pass', async () => {
    const answers = [];
    for (let i = 0; i < AI_PER_MINUTE + 4; i++)
      answers.push(await send(gateway.port, AI_LIST, { headers: { Authorization: bearer({ ...ADMIN, sub: 'ai-budget-user' }) } }));
    const limited = answers.filter((a) => a.body.code === '1429');
    expect(limited, JSON.stringify(answers.map((a) => [a.status, a.body.code]))).to.have.length(4);
    expect(answers.slice(0, AI_PER_MINUTE).every((a) => a.body.code !== '1429')).to.equal(true);
    expect(upstreamsOf('getAiGoodsList').size, 'both copies counted').to.equal(2);
  });

  it('when limit changes are spread over both member copies and each is resent once with its key, then every balance and history is exact', async () => {
    const staff = ['S9001', 'S9002', 'S9003', 'S9004'];
    const START = 1_000_000;
    for (const mbrNo of staff) {
      await member.knex('mbr').insert({ mbr_no: mbrNo, mbr_nm: `staff ${mbrNo}`, mbr_stat_cd: '10', staff_yn: 'Y' });
      await member.knex('staff_dc_lim').insert({ mbr_no: mbrNo, lim_amt: 1_000_000_000, rmnd_amt: START, upd_dtm: '2026-01-01 00:00:00' });
    }
    const applied: { mbrNo: string; kind: '10' | '20'; amt: number }[] = [];
    const problems: string[] = [];
    const client = async (c: number) => {
      for (let i = 0; i < 15; i++) {
        const mbrNo = staff[(c + i) % staff.length]!;
        const body = {
          mbrNo,
          rsrvUseGbCd: i % 3 === 0 ? '20' : '10',
          ocurAmt: 100 + ((c * 31 + i * 7) % 900),
          ordNo: `O-${c}-${i}`,
        } as const;
        const headers = { 'Idempotency-Key': randomUUID() };
        const first = await send(gateway.port, CHANGE_PATH, { method: 'POST', headers, body, from: '127.0.0.2' });
        // The same key again: round robin sends it to the other copy, which must replay, not re-apply.
        const again = await send(gateway.port, CHANGE_PATH, { method: 'POST', headers, body, from: '127.0.0.2' });
        if (first.status !== 200 || again.status !== 200 || JSON.stringify(first.body) !== JSON.stringify(again.body))
          problems.push(`${c}/${i}: ${first.status} ${JSON.stringify(first.body)} / ${again.status} ${JSON.stringify(again.body)}`);
        else applied.push({ mbrNo, kind: body.rsrvUseGbCd, amt: body.ocurAmt });
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
    expect(problems).to.deep.equal([]);
    expect(upstreamsOf('dcLimIncDec').size, 'both member copies served changes').to.equal(2);
    for (const mbrNo of staff) {
      const mine = applied.filter((a) => a.mbrNo === mbrNo);
      const expected = mine.reduce((b, a) => (a.kind === '10' ? b + a.amt : b - a.amt), START);
      const [row] = await selectRows<{ rmnd_amt: number }>(member.knex, 'SELECT rmnd_amt FROM staff_dc_lim WHERE mbr_no = ?', [mbrNo]);
      expect(Number(row!.rmnd_amt), `${mbrNo} remaining`).to.equal(expected);
      const history = await member.knex('staff_dc_lim_hist').where({ mbr_no: mbrNo }).select('hist_no');
      expect(history.length, `${mbrNo} history rows`).to.equal(mine.length);
    }
  });

  it('when a back-office copy is killed under load, then no request through the gateway fails (idempotent GETs retried on the other copy)', async () => {
    const statuses: number[] = [];
    const errors: string[] = [];
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const a = await send(gateway.port, REPORT, { headers: auth }).catch((err: Error) => {
          errors.push(err.message);
          return undefined;
        });
        if (a) statuses.push(a.status);
      }
    };
    const loops = Array.from({ length: 8 }, () => loop());
    await new Promise((r) => setTimeout(r, 1_500));
    const before = statuses.length;
    backoffice[0]!.kill();
    await backoffice[0]!.exited;
    await new Promise((r) => setTimeout(r, 2_500));
    stop = true;
    await Promise.all(loops);
    expect(errors).to.deep.equal([]);
    expect(statuses.length - before, 'requests after the kill').to.be.greaterThan(20);
    expect(statuses.filter((s) => s !== 200)).to.deep.equal([]);
  });
});
