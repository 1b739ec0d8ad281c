import http from 'node:http';
import type { Express } from 'express';
import { type Knex } from '@bo/db';
import { createTestDatabase, type TestDatabase, testLogger } from '@bo/testing';
import { startHttpServer, type RunningServer } from '@bo/service-kit';
import { createMemberApp, createMemberKnex, loadMemberConfig } from '../src/index.ts';
import { memberMigrations } from '../src/migrations/index.ts';

export const CHANGE_PATH = '/api/member/v1/staff/dcLimIncDec';
export const STATUS_PATH = '/api/member/v1/staff/getDsctLmtStatBO';
export const TIME_ZONE = 'Asia/Seoul';

export const createMemberDatabase = (label: string): Promise<TestDatabase> => createTestDatabase(label, memberMigrations);

export interface MemberApp {
  app: Express;
  knex: Knex;
  close: () => Promise<void>;
}

/**
 * The real member app on the test database, with its own pool, configured like production from
 * env text. The pool waits up to knex's own 60 s for a connection, as the tests always have.
 */
export function memberApp(db: TestDatabase, env: Record<string, string> = {}): MemberApp {
  const config = loadMemberConfig({
    NODE_ENV: 'test',
    MEMBER_DATABASE_URL: db.url,
    DB_POOL_MAX: '20',
    DB_ACQUIRE_TIMEOUT_MS: '60000',
    PLATFORM_TIME_ZONE: TIME_ZONE,
    ...env,
  });
  const knex = createMemberKnex(config);
  const app = createMemberApp({ config, logger: testLogger('member'), knex });
  return { app, knex, close: () => knex.destroy() };
}

/** The app on a real listening socket (loopback only), for truly concurrent clients and chosen client addresses. */
export async function listening(member: MemberApp): Promise<RunningServer> {
  return startHttpServer(member.app, 0, [], '127.0.0.1');
}

export interface Staff {
  mbrNo: string;
  limAmt: number;
  rmndAmt: number;
  mbrStatCd?: string;
  staffYn?: string;
  withLimit?: boolean;
}

export async function arrangeStaff(knex: Knex, s: Staff): Promise<void> {
  await knex('mbr').insert({ mbr_no: s.mbrNo, mbr_nm: `staff ${s.mbrNo}`, mbr_stat_cd: s.mbrStatCd ?? '10', staff_yn: s.staffYn ?? 'Y' });
  if (s.withLimit ?? true)
    await knex('staff_dc_lim').insert({ mbr_no: s.mbrNo, lim_amt: s.limAmt, rmnd_amt: s.rmndAmt, upd_dtm: '2026-01-01 00:00:00' });
}

export async function remainingOf(knex: Knex, mbrNo: string): Promise<number> {
  const row = (await knex<{ mbr_no: string; rmnd_amt: number }>('staff_dc_lim').where({ mbr_no: mbrNo }).first('rmnd_amt'))!;
  return row.rmnd_amt;
}

export interface HistoryRecord {
  hist_no: number;
  mbr_no: string;
  rsrv_use_gb_cd: string;
  req_amt: number;
  aply_amt: number;
  bef_rmnd_amt: number;
  aft_rmnd_amt: number;
  ord_no: string;
  claim_no: string | null;
  ord_fvr_cost_seq: string | null;
  idem_key: string | null;
  reg_dtm: string;
}

export async function historyOf(knex: Knex, mbrNo: string): Promise<HistoryRecord[]> {
  return knex('staff_dc_lim_hist').where({ mbr_no: mbrNo }).orderBy('hist_no');
}

/** Platform local time now, computed here with Intl (not with the service's helpers). */
export const localNow = (): string => new Date().toLocaleString('sv-SE', { timeZone: TIME_ZONE, hourCycle: 'h23' }).replace('T', ' ');

export const change = (mbrNo: string, rsrvUseGbCd: '10' | '20', ocurAmt: number, ordNo = 'O1') => ({ mbrNo, rsrvUseGbCd, ocurAmt, ordNo });

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/**
 * One HTTP request whose socket is bound to `localAddress`, so the service sees that caller
 * address (any 127.x.y.z is loopback on Linux, so an "outside" caller is a config choice).
 */
export function sendFrom(
  server: RunningServer,
  localAddress: string,
  req: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: unknown },
): Promise<RawResponse> {
  const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
  return new Promise((resolve, reject) => {
    const r = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        localAddress,
        method: req.method,
        path: req.path,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...req.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        // JSON parsed; anything else (metrics, the Swagger UI page) as text.
        const json = /json/.test(res.headers['content-type'] ?? '');
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: json && text ? JSON.parse(text) : text }));
      },
    );
    r.on('error', reject);
    r.end(payload);
  });
}

/** Poll until `check` holds (for states another request reaches asynchronously). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
