import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { createRandom, type Random } from '@bo/data-generator';
import type { Knex } from '@bo/db';
import { arrangeStaff, CHANGE_PATH, STATUS_PATH, type HistoryRecord } from './support.ts';

/**
 * The staff-limit ledger load (issue 10) and its invariants, shared by the one-server test
 * (ledger-under-load.test.ts) and the two-copies-behind-nginx test (tests/system). 100 clients
 * change 20 staff limits for LEDGER_LOAD_SECONDS over real HTTP while readers poll the limits.
 * Every change carries an Idempotency-Key. Some attempts are cut short by the client after a
 * random time (before the server read them, while it holds the row lock, or just after it
 * committed, so the change may or may not have happened) and the client resends the same key
 * until the answer is definitive, as an internal caller with a timeout would.
 *
 * The client keeps its own record: each operation and its definitive answer (200 = applied,
 * replayed or not; 900/6102 = refused). After the run the database is checked against that
 * record, never against the service's arithmetic.
 */

export const SECONDS = Number(process.env.LEDGER_LOAD_SECONDS ?? 30);
if (!(SECONDS > 0)) throw new Error(`LEDGER_LOAD_SECONDS must be a positive number of seconds (got "${process.env.LEDGER_LOAD_SECONDS}")`);
export const CLIENTS = 100;
export const READERS = 10;
/**
 * Each attempt is cut short with this probability, after a time drawn log-uniformly from 1 ms
 * to SHORT_TIMEOUT_MAX_MS, so whatever the server's latency on the day, cuts land before,
 * during and after its transaction.
 */
const TIMEOUT_SHARE = 0.2;
const SHORT_TIMEOUT_MAX_MS = 5_000;
/** An attempt that runs this long is cut too, so a stuck server fails the test instead of hanging it. */
const LONG_TIMEOUT_MS = 15_000;
/** An operation still without a definitive answer after this long is a failure of the service. */
export const SETTLE_LIMIT_MS = 60_000;
/** Share of settled operations sent once more later (a caller that lost the answer). */
const RESEND_SHARE = 0.05;

/**
 * "Open" members have a limit no run can reach, so no increase is ever capped and the client
 * alone can compute their end balance. "Tight" members have a small limit, so increases are
 * capped and decreases refused all the time: the [0, limit] bounds are really pressed there.
 */
const OPEN = { count: 16, limit: 1_000_000_000, start: 50_000, maxAmount: 10_000 };
const TIGHT = { count: 4, limit: 30_000, start: 10_000, maxAmount: 10_000 };

export interface Member {
  mbrNo: string;
  limit: number;
  start: number;
  open: boolean;
}

export interface Operation {
  key: string;
  member: Member;
  body: { mbrNo: string; rsrvUseGbCd: '10' | '20'; ocurAmt: number; ordNo: string };
  outcome?: 'applied' | 'refused';
  timeouts: number;
  /** HTTP attempts sent for this key (each carries X-Request-Id `<key>.<n>`, so a gateway's log shows where each went). */
  sent: number;
}

type Answer = {
  kind: 'answer';
  status: number;
  body: { code?: string; httpStatus?: number; rmndAmt?: number; limAmt?: number } | null;
  replayed: boolean;
  ms: number;
};
type Attempt = Answer | { kind: 'timeout' } | { kind: 'transport'; message: string };

export interface LoadRun {
  seconds: number;
  operations: Operation[];
  /** Answers with a 5xx meaning: an HTTP 5xx, or a declared 900 whose httpStatus is 5xx. */
  serverErrors: string[];
  /** Reads outside [0, limit], or not a 200 limit answer. */
  badReads: string[];
  /** Unexpected answers, transport errors, operations that never got a definitive answer. */
  badAnswers: string[];
  /** Resent keys whose replay differs from the first definitive answer. */
  badReplays: string[];
  changeLatencies: number[];
  readLatencies: number[];
  stats: { attempts: number; timeouts: number; inProgress: number; replays: number; resends: number; reads: number };
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(sample: readonly number[], p: number): number {
  if (!sample.length) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1]!;
}

/** Where the load goes: a base URL, the run's own agent, and the caller address to send from. */
export interface LoadTarget {
  baseUrl: string;
  agent: http.Agent;
  /** The local address the sockets bind to (e.g. an "internal" 127.0.0.2 behind the gateway). */
  localAddress?: string;
}

/**
 * One HTTP attempt over `agent`, aborted by its own AbortController after `timeoutMs`. The run
 * uses its own keep-alive agent rather than fetch's global pool so it can close every socket it
 * opened (an abort can leave one connected without a request, which holds server.close()).
 */
function attempt(
  target: LoadTarget,
  path: string,
  timeoutMs: number,
  headers: Record<string, string> = {},
  body?: object,
): Promise<Attempt> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const payload = body && JSON.stringify(body);
  const started = performance.now();
  return new Promise<Attempt>((resolve) => {
    const req = http.request(
      `${target.baseUrl}${path}`,
      {
        method: payload ? 'POST' : 'GET',
        agent: target.agent,
        ...(target.localAddress ? { localAddress: target.localAddress } : {}),
        signal: controller.signal,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          try {
            resolve({
              kind: 'answer',
              status: res.statusCode ?? 0,
              body: text ? (JSON.parse(text) as Answer['body']) : null,
              replayed: res.headers['idempotent-replayed'] === 'true',
              ms,
            });
          } catch {
            resolve({ kind: 'transport', message: `${res.statusCode} with a body that is not JSON: ${text.slice(0, 200)}` });
          }
        });
        res.on('error', () => undefined); // an abort while reading; the request's error settles it
      },
    );
    req.on('error', (err) => resolve(controller.signal.aborted ? { kind: 'timeout' } : { kind: 'transport', message: String(err) }));
    req.end(payload);
  }).finally(() => clearTimeout(timer));
}

/**
 * 100 clients change `members`' limits through `target` for SECONDS while READERS poll them,
 * each change resent with its key until definitive; returns the client's own record.
 */
export async function runLoad(target: LoadTarget, members: readonly Member[], seed: number): Promise<LoadRun> {
  const random = createRandom(seed);
  const run: LoadRun = {
    seconds: 0,
    operations: [],
    serverErrors: [],
    badReads: [],
    badAnswers: [],
    badReplays: [],
    changeLatencies: [],
    readLatencies: [],
    stats: { attempts: 0, timeouts: 0, inProgress: 0, replays: 0, resends: 0, reads: 0 },
  };
  const { stats } = run;

  const isServerError = (a: Answer, what: string): boolean => {
    if ((a.status >= 500 && a.status < 600) || (a.body?.httpStatus ?? 0) >= 500) {
      run.serverErrors.push(`${what}: ${a.status} ${JSON.stringify(a.body)}`);
      return true;
    }
    return false;
  };

  const sendChange = async (op: Operation, timeoutMs: number): Promise<Attempt> => {
    op.sent += 1;
    const a = await attempt(target, CHANGE_PATH, timeoutMs, { 'Idempotency-Key': op.key, 'X-Request-Id': `${op.key}.${op.sent}` }, op.body);
    if (a.kind === 'answer') {
      run.changeLatencies.push(a.ms);
      if (a.replayed) stats.replays += 1;
    }
    return a;
  };

  /** Send, and resend the same key, until the answer is definitive. */
  const settle = async (op: Operation, rnd: Random): Promise<void> => {
    const giveUpAt = Date.now() + SETTLE_LIMIT_MS;
    while (Date.now() < giveUpAt) {
      stats.attempts += 1;
      const a = await sendChange(
        op,
        rnd.chance(TIMEOUT_SHARE) ? Math.max(1, Math.round(SHORT_TIMEOUT_MAX_MS ** rnd.next())) : LONG_TIMEOUT_MS,
      );
      if (a.kind === 'timeout') {
        stats.timeouts += 1;
        op.timeouts += 1;
      } else if (a.kind === 'transport') {
        run.badAnswers.push(`${op.key}: ${a.message}`);
      } else if (isServerError(a, op.key)) {
        // resent below, as a caller would
      } else if (a.status === 200) {
        op.outcome = 'applied';
        return;
      } else if (a.status === 900 && a.body?.code === '6102' && op.body.rsrvUseGbCd === '20') {
        op.outcome = 'refused';
        return;
      } else if (a.status === 900 && a.body?.code === '6104') {
        stats.inProgress += 1; // an earlier attempt of this key is still running
      } else {
        run.badAnswers.push(`${op.key} ${JSON.stringify(op.body)}: ${a.status} ${JSON.stringify(a.body)}`);
        return;
      }
      await sleep(rnd.int(0, 50));
    }
    run.badAnswers.push(`${op.key}: no definitive answer within ${SETTLE_LIMIT_MS} ms`);
  };

  /** A caller that lost the answer asks again: it must get the same answer, marked as a replay. */
  const resend = async (op: Operation): Promise<void> => {
    stats.resends += 1;
    const a = await sendChange(op, LONG_TIMEOUT_MS);
    if (a.kind !== 'answer') return void run.badAnswers.push(`${op.key} resent: ${a.kind}`);
    if (isServerError(a, `${op.key} resent`)) return;
    const same = op.outcome === 'applied' ? a.status === 200 : a.status === 900 && a.body?.code === '6102';
    if (!same || !a.replayed)
      run.badReplays.push(`${op.key} was ${op.outcome}; resent: ${a.status} ${JSON.stringify(a.body)}, replayed ${a.replayed}`);
  };

  const endAt = Date.now() + SECONDS * 1000;
  const client = async (id: number) => {
    const rnd = random.fork(id);
    for (let seq = 0; Date.now() < endAt; seq++) {
      const m = rnd.pick(members);
      const op: Operation = {
        key: `load-${seed}-${id}-${seq}`,
        member: m,
        body: {
          mbrNo: m.mbrNo,
          rsrvUseGbCd: rnd.chance(0.5) ? '10' : '20',
          ocurAmt: rnd.int(1, (m.open ? OPEN : TIGHT).maxAmount),
          ordNo: `L${id}-${seq}`,
        },
        timeouts: 0,
        sent: 0,
      };
      run.operations.push(op);
      await settle(op, rnd);
      if (op.outcome && rnd.chance(RESEND_SHARE)) await resend(op);
    }
  };

  let writing = true;
  const reader = async (id: number) => {
    const rnd = random.fork(CLIENTS + id);
    while (writing) {
      const m = rnd.pick(members);
      const a = await attempt(target, `${STATUS_PATH}?mbrNo=${m.mbrNo}`, LONG_TIMEOUT_MS);
      stats.reads += 1;
      if (a.kind !== 'answer') {
        run.badReads.push(`${m.mbrNo}: ${a.kind}`);
        continue;
      }
      run.readLatencies.push(a.ms);
      if (isServerError(a, `read ${m.mbrNo}`)) continue;
      const { rmndAmt, limAmt } = a.body ?? {};
      if (a.status !== 200 || limAmt !== m.limit || typeof rmndAmt !== 'number' || rmndAmt < 0 || rmndAmt > m.limit)
        run.badReads.push(`${m.mbrNo} (limit ${m.limit}): ${a.status} ${JSON.stringify(a.body)}`);
    }
  };

  const started = performance.now();
  const readers = Array.from({ length: READERS }, (_, i) => reader(i));
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  run.seconds = (performance.now() - started) / 1000;
  writing = false;
  await Promise.all(readers);
  return run;
}

/** The ledger members of the run, with their limit rows arranged in `knex`'s database. */
export async function arrangeLedgerMembers(knex: Knex): Promise<Member[]> {
  const members: Member[] = [];
  for (const [group, open] of [
    [OPEN, true],
    [TIGHT, false],
  ] as const) {
    for (let i = 0; i < group.count; i++) {
      const m: Member = { mbrNo: `${open ? 'LO' : 'LT'}${i}`, limit: group.limit, start: group.start, open };
      await arrangeStaff(knex, { mbrNo: m.mbrNo, limAmt: m.limit, rmndAmt: m.start });
      members.push(m);
    }
  }
  return members;
}

/** What the run left in the database, read straight from the tables after the run. */
export interface LedgerOutcome {
  run: LoadRun;
  members: Member[];
  applied: Operation[];
  history: HistoryRecord[];
  stored: Map<string, number>;
  keyRecords: Map<string, string>;
}

export async function readLedgerOutcome(knex: Knex, run: LoadRun, members: Member[]): Promise<LedgerOutcome> {
  const history = await knex<HistoryRecord>('staff_dc_lim_hist').orderBy('hist_no');
  const stored = new Map(
    (await knex('staff_dc_lim').select('mbr_no', 'rmnd_amt')).map((r: { mbr_no: string; rmnd_amt: number }) => [r.mbr_no, r.rmnd_amt]),
  );
  const keyRows: { idem_key: string; proc_stat: string; resp_status: number | null }[] = await knex('staff_dc_lim_idem').select(
    'idem_key',
    'proc_stat',
    'resp_status',
  );
  const keyRecords = new Map(keyRows.map((r) => [r.idem_key, `${r.proc_stat} ${r.resp_status}`]));
  return { run, members, applied: run.operations.filter((o) => o.outcome === 'applied'), history, stored, keyRecords };
}

/** The run's figures, for the log line and the README. */
export function ledgerFigures({ run, applied }: LedgerOutcome, seed: number) {
  const { stats } = run;
  return {
    seed,
    seconds: Number(run.seconds.toFixed(1)),
    attempted: run.operations.length,
    applied: applied.length,
    refused: run.operations.filter((o) => o.outcome === 'refused').length,
    timedOutThenRetried: run.operations.filter((o) => o.timeouts > 0).length,
    clientTimeouts: stats.timeouts,
    httpAttempts: stats.attempts + stats.resends,
    inProgress6104: stats.inProgress,
    replays: stats.replays,
    resends: stats.resends,
    reads: stats.reads,
    changeMs: { p50: Math.round(percentile(run.changeLatencies, 50)), p99: Math.round(percentile(run.changeLatencies, 99)) },
    readMs: { p50: Math.round(percentile(run.readLatencies, 50)), p99: Math.round(percentile(run.readLatencies, 99)) },
    opsPerSecond: Math.round(run.operations.filter((o) => o.outcome).length / run.seconds),
  };
}

const first = (items: string[], n = 10) => ({ count: items.length, first: items.slice(0, n) });

/** The ledger's invariants as mocha tests, on the outcome `outcome()` gives once the run is over. */
export function itKeepsTheLedger(outcome: () => LedgerOutcome): void {
  it('when the run is over, then it really ran contended changes, refusals, client timeouts with retries, replays and reads', () => {
    const { run } = outcome();
    const { stats } = run;
    expect(run.operations.length, 'operations').to.be.greaterThan(CLIENTS);
    expect(run.operations.filter((o) => o.outcome === 'refused').length, 'refused decreases').to.be.greaterThan(0);
    expect(run.operations.filter((o) => o.timeouts > 0).length, 'operations retried after a client timeout').to.be.greaterThan(0);
    expect(stats.replays, 'replayed answers').to.be.greaterThan(0);
    expect(stats.reads, 'reads').to.be.greaterThan(READERS);
  });

  it('when any request was answered, then no answer was a 5xx (nor a 900 carrying a 5xx httpStatus)', () => {
    const { run } = outcome();
    expect(first(run.serverErrors)).to.deep.equal(first([]));
  });

  it('when the limits were read during the run, then every read was a 200 within [0, limit]', () => {
    const { run } = outcome();
    expect(first(run.badReads)).to.deep.equal(first([]));
  });

  it('when a key was resent until definitive, then it ended applied (200) or refused (6102), and a later resend replayed the same answer', () => {
    const { run } = outcome();
    expect(first(run.badAnswers), 'unexpected or missing answers').to.deep.equal(first([]));
    expect(run.operations.filter((o) => !o.outcome).map((o) => o.key)).to.deep.equal([]);
    expect(first(run.badReplays), 'replays').to.deep.equal(first([]));
  });

  it('when the client holds a key as applied, then exactly one history row carries it and matches its request; refused keys and unknown keys have none', () => {
    const { run, applied, history } = outcome();
    const rowsByKey = new Map<string | null, HistoryRecord[]>();
    for (const h of history) rowsByKey.set(h.idem_key, [...(rowsByKey.get(h.idem_key) ?? []), h]);
    const mismatches: string[] = [];
    for (const op of run.operations) {
      const rows = rowsByKey.get(op.key) ?? [];
      rowsByKey.delete(op.key);
      const want = op.outcome === 'applied' ? 1 : 0;
      const row = rows[0];
      if (rows.length !== want) mismatches.push(`${op.key} (${op.outcome}, ${op.timeouts} client timeouts): ${rows.length} history rows`);
      else if (
        row &&
        [row.mbr_no, row.rsrv_use_gb_cd, row.req_amt, row.ord_no].join() !==
          [op.body.mbrNo, op.body.rsrvUseGbCd, op.body.ocurAmt, op.body.ordNo].join()
      )
        mismatches.push(`${op.key}: history row ${JSON.stringify(row)} is not its request ${JSON.stringify(op.body)}`);
    }
    for (const [key, rows] of rowsByKey) mismatches.push(`${rows.length} history rows for key ${key}, which no client holds`);
    expect(first(mismatches)).to.deep.equal(first([]));
    expect(history.length, 'history rows = applied operations').to.equal(applied.length);
  });

  it('when the run is over, then each member has as many history rows as the client has applied operations for it', () => {
    const { members, applied, history } = outcome();
    const counts = (keyOf: (m: Member) => number) => Object.fromEntries(members.map((m) => [m.mbrNo, keyOf(m)]));
    expect(counts((m) => history.filter((h) => h.mbr_no === m.mbrNo).length)).to.deep.equal(
      counts((m) => applied.filter((o) => o.member === m).length),
    );
  });

  it('when no increase can reach the limit, then the remaining is start + applied increases − applied decreases from the client record alone', () => {
    const { members, applied, stored } = outcome();
    for (const m of members.filter((x) => x.open)) {
      const mine = applied.filter((o) => o.member === m);
      const sum = (kind: '10' | '20') => mine.filter((o) => o.body.rsrvUseGbCd === kind).reduce((s, o) => s + o.body.ocurAmt, 0);
      expect(m.start + sum('10'), `${m.mbrNo} increases stay below its limit`).to.be.at.most(m.limit);
      expect(stored.get(m.mbrNo), `${m.mbrNo} remaining`).to.equal(m.start + sum('10') - sum('20'));
    }
  });

  it('when increases are capped and decreases refused, then each history is one chain from the start to the stored remaining, every link the rule within [0, limit]', () => {
    const { members, history, stored } = outcome();
    for (const m of members) {
      let balance = m.start;
      for (const h of history.filter((x) => x.mbr_no === m.mbrNo)) {
        const after = h.rsrv_use_gb_cd === '10' ? Math.min(m.limit, balance + h.req_amt) : balance - h.req_amt;
        expect([h.bef_rmnd_amt, h.aft_rmnd_amt, h.aply_amt], `${m.mbrNo} history row ${h.hist_no} (before, after, applied)`).to.deep.equal([
          balance,
          after,
          Math.abs(after - balance),
        ]);
        expect(after, `${m.mbrNo} history row ${h.hist_no}`).to.be.within(0, m.limit);
        balance = after;
      }
      expect(stored.get(m.mbrNo), `${m.mbrNo} remaining = end of its history`).to.equal(balance);
    }
  });

  it('when every key settled, then its Idempotency-Key record is DONE with the answer the client got', () => {
    const { run, keyRecords } = outcome();
    const wrong = run.operations
      .filter((o) => keyRecords.get(o.key) !== `DONE ${o.outcome === 'applied' ? 200 : 900}`)
      .map((o) => `${o.key} ${o.outcome}: ${keyRecords.get(o.key)}`);
    expect(first(wrong)).to.deep.equal(first([]));
  });
}
