import { platformNow, platformNowMillis, type Knex } from '@bo/db';
import { LIMIT_CHANGE_PROCEDURE } from '@bo/member/migrations';
import type { BenchContext } from '../context.ts';
import { ensureStaff, planStaffOps, resetStaff, STAFF_START_REMAINING, type StaffOp } from '../dataset/staff-fixture.ts';
import { freePort } from '@bo/testing';
import { spawnService } from '../infra/child-service.ts';
import { memberMigrations, openMigrated } from '../infra/databases.ts';
import { runLoad, statusText } from '../infra/http-load.ts';
import { elapsedMs, summarise } from '../infra/percentiles.ts';
import { createPool, type Pool } from '../infra/sql-replay.ts';
import { count, measuredRow, ms, NotAvailable, round, times, type BenchRow } from '../report/rows.ts';

export const STAFF_TARGET = '≥ 1,500 ops/s, p99 ≤ 50 ms, ≥ 0.5× bare loop, no invariant broken';
const CLIENTS = 50;
/** The bare loop gets the pool size the service runs with by default (DB_POOL_MAX). */
const POOL = 10;
const PATH = '/v1/staff/dcLimIncDec';
/** The service runs as in production, which asks for the caller ranges and an access token. */
const ACCESS_TOKEN = 'bench-member-access-token';
/**
 * The service is loaded this long before it is measured, then the members are reset: a fresh
 * process runs its request path unoptimised for its first few thousand requests, which a
 * running service has long done (the 6,000 calls of the small run were mostly that).
 */
const WARMUP_SECONDS = 3;

const TIME_ZONE = 'Asia/Seoul';
const platformStamp = (at = new Date()) => platformNow(TIME_ZONE, at);

type Send = (pool: Pool, op: StaffOp) => Promise<boolean>;

/** The reference: the conditional UPDATE each operation needs; true when it changed the balance. */
const bareUpdate: Send = async (pool, op) => {
  const [res] =
    op.rsrvUseGbCd === '10'
      ? await pool.query('UPDATE staff_dc_lim SET rmnd_amt = LEAST(lim_amt, rmnd_amt + ?), upd_dtm = ? WHERE mbr_no = ?', [
          op.ocurAmt,
          platformStamp(),
          op.mbrNo,
        ])
      : await pool.query('UPDATE staff_dc_lim SET rmnd_amt = rmnd_amt - ?, upd_dtm = ? WHERE mbr_no = ? AND rmnd_amt >= ?', [
          op.ocurAmt,
          platformStamp(),
          op.mbrNo,
          op.ocurAmt,
        ]);
  return (res as { affectedRows: number }).affectedRows > 0;
};

/**
 * The service's own limit: the limit-change procedure it calls (history row, natural key,
 * balance, one transaction), called the way the service calls it, without an Idempotency-Key.
 */
const bareProcedure: Send = async (pool, op) => {
  // One instant for both stamps, as the service takes them (history in ms, balance in seconds).
  const at = new Date();
  const [results] = await pool.query(`CALL ${LIMIT_CHANGE_PROCEDURE}(?, ?, ?, ?, NULL, NULL, NULL, NULL, ?, ?)`, [
    op.mbrNo,
    op.rsrvUseGbCd,
    op.ocurAmt,
    op.ordNo,
    platformNowMillis(TIME_ZONE, at),
    platformStamp(at),
  ]);
  return (results as [{ outcome: string }[]])[0][0]?.outcome === 'APPLIED';
};

/** `ops` from 50 loops on a plain pool of the service's size. */
async function bareLoop(url: string, ops: readonly StaffOp[], send: Send): Promise<{ opsPerSecond: number; p99: number; applied: number }> {
  const pool = createPool(url, POOL);
  const latencies: number[] = [];
  let next = 0;
  let applied = 0;
  const start = process.hrtime.bigint();
  try {
    const loop = async () => {
      while (next < ops.length) {
        const op = ops[next++]!;
        const t = process.hrtime.bigint();
        if (await send(pool, op)) applied += 1;
        latencies.push(elapsedMs(t));
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, loop));
  } finally {
    await pool.end();
  }
  return { opsPerSecond: (ops.length / elapsedMs(start)) * 1000, p99: summarise(latencies).p99, applied };
}

interface HistRow {
  mbr_no: string;
  bef_rmnd_amt: number;
  aft_rmnd_amt: number;
}

/**
 * What must hold after the concurrent run: every remaining amount within [0, limit]; one history
 * row per accepted call; per member the history chains (each "before" is the previous "after",
 * starting from the reset amount and ending at the stored amount).
 */
async function brokenInvariants(knex: Knex, numbers: readonly string[], accepted: number, start: number): Promise<string[]> {
  const problems: string[] = [];
  const limits: { mbr_no: string; lim_amt: number; rmnd_amt: number }[] = await knex('staff_dc_lim')
    .whereIn('mbr_no', numbers)
    .select('mbr_no', 'lim_amt', 'rmnd_amt');
  const outOfRange = limits.filter((l) => l.rmnd_amt < 0 || l.rmnd_amt > l.lim_amt);
  if (outOfRange.length) problems.push(`${outOfRange.length} members outside [0, limit]`);
  const hist: HistRow[] = await knex('staff_dc_lim_hist')
    .whereIn('mbr_no', numbers)
    .orderBy('hist_no')
    .select('mbr_no', 'bef_rmnd_amt', 'aft_rmnd_amt');
  if (hist.length !== accepted) problems.push(`${hist.length} history rows for ${accepted} accepted calls`);
  const last = new Map<string, number>();
  let breaks = 0;
  for (const h of hist) {
    if (Number(h.bef_rmnd_amt) !== (last.get(h.mbr_no) ?? start)) breaks += 1;
    last.set(h.mbr_no, Number(h.aft_rmnd_amt));
  }
  if (breaks) problems.push(`${breaks} history rows whose "before" is not the previous "after"`);
  const drift = limits.filter((l) => Number(l.rmnd_amt) !== (last.get(l.mbr_no) ?? start)).length;
  if (drift) problems.push(`${drift} members whose amount differs from their last history row`);
  return problems;
}

export async function measureStaffLimit(ctx: BenchContext): Promise<BenchRow[]> {
  const { scale, options } = ctx;
  const knex = await openMigrated(ctx.memberUrl, memberMigrations, 4);
  const port = await freePort();
  const member = await spawnService({
    name: 'member',
    script: 'services/member/src/main.ts',
    env: {
      MEMBER_DATABASE_URL: ctx.memberUrl,
      MEMBER_PORT: String(port),
      INTERNAL_CIDRS: '127.0.0.0/8',
      MEMBER_ACCESS_TOKEN: ACCESS_TOKEN,
      LOG_LEVEL: options.serviceLogLevel,
      REDIS_PREFIX: `${options.dbPrefix}-bench`,
    },
    port,
    prefix: '/api/member',
    healthPath: '/health',
  });
  try {
    const numbers = await ensureStaff(knex, scale.staffMembers);
    const ops = planStaffOps(options.seed, numbers, scale.staffOps);
    const probe = await fetch(`${member.baseUrl}${PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ACCESS_TOKEN}` },
      body: JSON.stringify(ops[0]),
    });
    if (probe.status === 404) throw new NotAvailable(`POST /api/member${PATH} is not mounted yet (404)`);

    const post = (next: () => StaffOp) => ({
      url: `${member.baseUrl}${PATH}`,
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ACCESS_TOKEN}` },
      connections: CLIENTS,
      setupRequest: (req: { body?: unknown }) => ({ ...req, body: JSON.stringify(next()) }),
    });
    if (scale.warmup) {
      // Another seed (other members and amounts); what they change is reset below.
      const warmOps = planStaffOps(options.seed + 1, numbers, scale.staffOps);
      let w = 0;
      await runLoad({ ...post(() => warmOps[w++ % warmOps.length]!), durationSeconds: WARMUP_SECONDS });
    }

    await resetStaff(knex, numbers);
    ctx.log(`  staff limit: bare conditional UPDATE loop, ${ops.length} ops`);
    const bare = await bareLoop(ctx.memberUrl, ops, bareUpdate);

    await resetStaff(knex, numbers);
    ctx.log(`  staff limit: bare procedure loop, ${ops.length} ops`);
    const procedure = await bareLoop(ctx.memberUrl, ops, bareProcedure);

    await resetStaff(knex, numbers);
    ctx.log(`  staff limit: service, ${ops.length} ops from ${CLIENTS} clients`);
    let i = 0;
    const load = await runLoad({ ...post(() => ops[i++ % ops.length]!), amount: ops.length });
    const accepted = load.statusCounts[200] ?? 0;
    const refused = load.statusCounts[900] ?? 0;
    const unexpected = load.latency.count - accepted - refused + load.errors;
    const problems = await brokenInvariants(knex, numbers, accepted, STAFF_START_REMAINING);
    if (unexpected) problems.push(`unexpected responses: ${statusText(load)}`);
    const ratio = load.requestsPerSecond / bare.opsPerSecond;
    return [
      measuredRow({
        section: 'staff-limit',
        hotPath: `increase/decrease: ${count(ops.length)} mixed calls, ${CLIENTS} clients, ${count(numbers.length)} staff`,
        measured: `${count(load.requestsPerSecond)} ops/s, p99 ${ms(load.latency.p99)} (${count(accepted)} applied, ${count(refused)} refused 6102)`,
        reference: `bare UPDATE loop ${count(bare.opsPerSecond)} ops/s, p99 ${ms(bare.p99)}; the limit-change procedure from bare loops ${count(procedure.opsPerSecond)} ops/s, p99 ${ms(procedure.p99)} (service ${times(load.requestsPerSecond / procedure.opsPerSecond)} it)`,
        ratio: `${times(ratio)} bare`,
        target: STAFF_TARGET,
        checks: [
          { label: 'ops/s ≥ 1,500', ok: load.requestsPerSecond >= 1500 },
          { label: 'p99 ≤ 50 ms', ok: load.latency.p99 <= 50 },
          { label: '≥ 0.5× bare', ok: ratio >= 0.5 },
          { label: problems.length ? `invariants: ${problems.join('; ')}` : 'invariants hold', ok: problems.length === 0 },
        ],
        figures: {
          opsPerSecond: round(load.requestsPerSecond),
          p50Ms: round(load.latency.p50),
          p99Ms: round(load.latency.p99),
          applied: accepted,
          refused6102: refused,
          bareOpsPerSecond: round(bare.opsPerSecond),
          bareP99Ms: round(bare.p99),
          bareApplied: bare.applied,
          procedureOpsPerSecond: round(procedure.opsPerSecond),
          procedureP99Ms: round(procedure.p99),
          procedureApplied: procedure.applied,
          ratioToProcedure: round(load.requestsPerSecond / procedure.opsPerSecond, 3),
          ratioToBare: round(ratio, 3),
          invariantsHold: problems.length === 0,
        },
        ...(problems.length ? { note: problems.join('; ') } : {}),
      }),
    ];
  } finally {
    await member.stop();
    await knex.destroy();
  }
}
