import { guarded, type BenchContext } from '../context.ts';
import type { MainDataset } from '../dataset/main-dataset.ts';
import { startCaptureApp, type CaptureApp, type HttpCall } from '../infra/capture-app.ts';
import { firstByteUnderLoad } from '../infra/first-byte.ts';
import { failures, runLoad, statusText } from '../infra/http-load.ts';
import { median, summarise } from '../infra/percentiles.ts';
import type { QueryScript } from '../infra/sql-capture.ts';
import { createLimitedPool, createPool, isStatementTimeout, replayUnderLoad, timeRuns, type Pool } from '../infra/sql-replay.ts';
import { count, measuredRow, ms, NotAvailable, round, times, type BenchRow } from '../report/rows.ts';
import { responseNetTotal, runNaive } from './naive-statistics.ts';
import { CACHED_FAMILIES, caseTitle, firstByteTargetOf, p95TargetOf, statisticsCases, type StatCase } from './statistics-cases.ts';

export const CLIENTS = 8;

export const statTarget = (p95: number) => `p95 ≤ ${p95} ms; ≤ 1.3× bare SQL (p50); ≥ 20× faster than naive (both alone)`;

/** The HTTP call of a case: query string for GET, JSON body for POST. */
export function httpCall(c: StatCase, auth: string): HttpCall {
  if (c.op.method === 'POST') return { method: 'POST', path: c.op.path, body: JSON.stringify(c.params), auth };
  return { method: 'GET', path: `${c.op.path}?${new URLSearchParams(c.params).toString()}`, auth };
}

interface NaiveFigure {
  ms: number;
  netTotal: number | undefined;
  /** The server stopped it at the limit: `ms` is a lower bound. */
  stopped: boolean;
}

interface Shared {
  ctx: BenchContext;
  ds: MainDataset;
  serviceUrl: string;
  /** The back-office with the answer cache on (warm figures of the cached lists). */
  cachingUrl: string;
  capture: CaptureApp;
  bare: Pool;
  naivePool: Pool;
  naive: Map<string, NaiveFigure>;
}

export interface StatFigure {
  p50: number;
  p95: number;
}

interface PlanRow {
  table: string | null;
  type: string | null;
  key: string | null;
  rows: number | null;
  Extra?: string | null;
}

/** Where the time of a slow case goes: its slowest statement run alone, and that statement's plan. */
async function slowestStatement(pool: Pool, script: QueryScript): Promise<{ sql: string; ms: number; plan: string }> {
  let worst: { q: QueryScript[number][number]; ms: number } | undefined;
  for (const q of script.flat()) {
    const [t] = await timeRuns(1, () => pool.query(q.sql, q.bindings));
    if (!worst || t! > worst.ms) worst = { q, ms: t! };
  }
  if (!worst) return { sql: '', ms: 0, plan: 'no SQL' };
  const [plan] = (await pool.query(`EXPLAIN ${worst.q.sql}`, worst.q.bindings)) as unknown as [PlanRow[]];
  return {
    sql: worst.q.sql.replace(/\s+/g, ' ').slice(0, 400),
    ms: worst.ms,
    plan: plan.map((r) => `${r.table}: ${r.type}${r.key ? ` ${r.key}` : ''}, ${r.rows} rows${r.Extra ? ` (${r.Extra})` : ''}`).join('; '),
  };
}

interface FirstByteCheck {
  text: string;
  check: { label: string; ok: boolean };
  figures: Record<string, number | null>;
}

/** For a case with a first-byte target: the same request under 8 clients again, timing when each answer starts. */
async function firstByte(
  s: Shared,
  c: StatCase,
  baseUrl: string,
  extraHeaders: Record<string, string> = {},
): Promise<FirstByteCheck | undefined> {
  const target = firstByteTargetOf(c);
  if (target === undefined) return undefined;
  const call = httpCall(c, s.ctx.adminBearer);
  const r = await firstByteUnderLoad({
    url: `${baseUrl}${call.path}`,
    method: call.method,
    headers: { authorization: call.auth, 'content-type': 'application/json', ...extraHeaders },
    ...(call.body !== undefined ? { body: call.body } : {}),
    clients: CLIENTS,
    amount: s.ctx.scale.statRequests,
    maxSeconds: s.ctx.scale.caseSeconds,
  });
  return {
    text: `; first byte p50 ${ms(r.firstByte.p50)} / p95 ${ms(r.firstByte.p95)} (${r.firstByte.count} req)`,
    check: {
      label: `first byte p95 ≤ ${target} ms${r.failures ? ` (${r.failures} failed)` : ''}`,
      ok: r.firstByte.p95 <= target && !r.failures,
    },
    figures: { firstByteRequests: r.firstByte.count, firstByteP50Ms: round(r.firstByte.p50), firstByteP95Ms: round(r.firstByte.p95) },
  };
}

/** HTTP p50/p95 under 8 clients, the same SQL replayed bare under 8 loops, and the naive run. */
async function measureCase(s: Shared, c: StatCase): Promise<BenchRow> {
  const { ctx } = s;
  const call = httpCall(c, ctx.adminBearer);
  const probe = await fetch(`${s.serviceUrl}${call.path}`, {
    method: call.method,
    headers: { authorization: call.auth, 'content-type': 'application/json' },
    ...(call.body !== undefined ? { body: call.body } : {}),
  });
  const probeText = await probe.text();
  if (probe.status === 404) throw new NotAvailable(`${c.op.method} /api/bo${c.op.path} is not mounted yet (404)`);
  if (probe.status !== 200) throw new Error(`answered ${probe.status}: ${probeText.slice(0, 200)}`);

  const captured = await s.capture.capture(call);
  if (captured.status !== 200) throw new Error(`in-process capture answered ${captured.status}`);

  // One client alone: the like-for-like figure for the naive run, which also runs alone.
  const solo = await timeRuns(ctx.scale.warmup ? 2 : 1, async () => {
    const res = await fetch(`${s.serviceUrl}${call.path}`, {
      method: call.method,
      headers: { authorization: call.auth, 'content-type': 'application/json' },
      ...(call.body !== undefined ? { body: call.body } : {}),
    });
    await res.arrayBuffer();
  });
  const soloMs = median(solo);

  const cap = ctx.scale.caseSeconds;
  const load = {
    url: `${s.serviceUrl}${call.path}`,
    method: call.method,
    headers: { authorization: call.auth },
    ...(call.body !== undefined ? { body: call.body } : {}),
    connections: CLIENTS,
    maxSeconds: cap,
  };
  if (ctx.scale.warmup) await runLoad({ ...load, amount: CLIENTS });
  const http = await runLoad({ ...load, amount: ctx.scale.statRequests });
  // A report that collapses under load (timeouts, 500s) is a measured miss, not a broken row.
  const failed = failures(http);
  const start = await firstByte(s, c, s.serviceUrl);

  if (ctx.scale.warmup) await replayUnderLoad(s.bare, captured.script, CLIENTS, CLIENTS, cap);
  const bare = summarise(await replayUnderLoad(s.bare, captured.script, ctx.scale.statRequests, CLIENTS, cap));

  let naive = s.naive.get(c.naiveKey);
  if (!naive) {
    let netTotal: number | undefined;
    try {
      const runs = await timeRuns(ctx.scale.naiveRuns, async () => {
        netTotal = (await runNaive(s.naivePool, c.op.family, c.conditions)).netTotal;
      });
      naive = { ms: median(runs), netTotal, stopped: false };
    } catch (err) {
      if (!isStatementTimeout(err)) throw err;
      naive = { ms: ctx.scale.naiveLimitSeconds * 1000, netTotal: undefined, stopped: true };
    }
    s.naive.set(c.naiveKey, naive);
  }

  const target = p95TargetOf(c);
  const slow = http.latency.p95 > target ? await slowestStatement(s.bare, captured.script) : undefined;
  const sqlRatio = http.latency.p50 / bare.p50;
  const naiveSpeedup = naive.ms / soloMs;
  const served = responseNetTotal(captured.body);
  const agrees = c.op.topN || served === undefined || naive.netTotal === undefined ? undefined : served === naive.netTotal;
  const naiveText = `${naive.stopped ? '> ' : ''}${ms(naive.ms)}`;
  return measuredRow({
    section: 'statistics',
    hotPath: caseTitle(c),
    measured: `p50 ${ms(http.latency.p50)} / p95 ${ms(http.latency.p95)} (${http.latency.count} req)${start?.text ?? ''}`,
    reference: `bare SQL ${ms(bare.p50)} / ${ms(bare.p95)} (${captured.statements} stmt); naive ${naiveText} vs ${ms(soloMs)} alone`,
    ratio: `${times(sqlRatio)} SQL; ${naive.stopped ? '> ' : ''}${times(naiveSpeedup)} faster than naive`,
    target: statTarget(target),
    checks: [
      { label: `p95 ≤ ${target} ms`, ok: http.latency.p95 <= target },
      ...(start ? [start.check] : []),
      ...(failed ? [{ label: `every response 200 (${statusText(http)})`, ok: false }] : []),
      { label: '≤ 1.3× SQL', ok: sqlRatio <= 1.3 },
      { label: '≥ 20× naive', ok: naiveSpeedup >= 20 },
      ...(agrees === false ? [{ label: `net amount ${served} ≠ naive ${naive.netTotal}`, ok: false }] : []),
    ],
    figures: {
      operationId: c.op.operationId,
      family: c.op.family,
      range: c.range,
      filter: c.filterLabel,
      requests: http.latency.count,
      failedResponses: failed,
      p50Ms: round(http.latency.p50),
      p95Ms: round(http.latency.p95),
      p99Ms: round(http.latency.p99),
      ...start?.figures,
      soloMs: round(soloMs),
      bareRuns: bare.count,
      bareP50Ms: round(bare.p50),
      bareP95Ms: round(bare.p95),
      statements: captured.statements,
      naiveMs: round(naive.ms),
      naiveStoppedAtLimit: naive.stopped,
      ratioToSqlP50: round(sqlRatio, 3),
      naiveSpeedup: round(naiveSpeedup, 1),
      netAmountAgreesWithNaive: agrees ?? null,
      ...(slow ? { slowestStatementMs: round(slow.ms), slowestStatement: slow.sql, slowestStatementPlan: slow.plan } : {}),
    },
    ...(slow ? { note: `slowest statement ${ms(slow.ms)} alone; EXPLAIN ${slow.plan}` } : {}),
  });
}

const warmTarget = (p95: number) => `p95 ≤ ${p95} ms from the answer cache; same answer as computed`;

/** What a browser (the back-office UI) sends: the warm figures are the ones its users see. */
const BROWSER_ACCEPT_ENCODING = { 'accept-encoding': 'gzip, deflate, br, zstd' };
const wireText = (wire: { bytes: number; encoding: string }) =>
  `${wire.bytes < 10_240 ? (wire.bytes / 1024).toFixed(1) : count(Math.round(wire.bytes / 1024))} KB ${wire.encoding === 'identity' ? 'plain' : wire.encoding} to a browser`;

/**
 * The same request to the back-office with the answer cache on, after one request has filled it:
 * the figure of a merchandiser opening a list someone opened since the last build, asked as a
 * browser asks (long answers come gzipped; fetch unpacks them for the comparison).
 */
async function measureWarm(s: Shared, c: StatCase): Promise<BenchRow> {
  const { ctx } = s;
  const call = httpCall(c, ctx.adminBearer);
  const send = async (base: string) => {
    const res = await fetch(`${base}${call.path}`, {
      method: call.method,
      headers: { authorization: call.auth, 'content-type': 'application/json', ...BROWSER_ACCEPT_ENCODING },
      ...(call.body !== undefined ? { body: call.body } : {}),
    });
    if (res.status !== 200) throw new Error(`answered ${res.status}`);
    // The length and encoding on the wire (fetch unpacks the body).
    const wire = { bytes: Number(res.headers.get('content-length')), encoding: res.headers.get('content-encoding') ?? 'identity' };
    return { body: await res.json(), wire };
  };
  const computed = await send(s.serviceUrl);
  await send(s.cachingUrl);
  // The write to Redis is not awaited by the first answer.
  await new Promise((r) => setTimeout(r, 200));
  const kept = await send(s.cachingUrl);
  const same = JSON.stringify(kept.body) === JSON.stringify(computed.body);
  const load = {
    url: `${s.cachingUrl}${call.path}`,
    method: call.method,
    headers: { authorization: call.auth, ...BROWSER_ACCEPT_ENCODING },
    ...(call.body !== undefined ? { body: call.body } : {}),
    connections: CLIENTS,
    maxSeconds: ctx.scale.caseSeconds,
  };
  const http = await runLoad({ ...load, amount: ctx.scale.statRequests });
  const failed = failures(http);
  const start = await firstByte(s, c, s.cachingUrl, BROWSER_ACCEPT_ENCODING);
  const target = p95TargetOf(c);
  return measuredRow({
    section: 'statistics',
    hotPath: `${caseTitle(c)} · warm`,
    measured: `p50 ${ms(http.latency.p50)} / p95 ${ms(http.latency.p95)} (${http.latency.count} req), answer cache, ${wireText(kept.wire)}${start?.text ?? ''}`,
    reference: 'the cold row above (no cache)',
    ratio: '—',
    target: warmTarget(target),
    checks: [
      { label: `p95 ≤ ${target} ms`, ok: http.latency.p95 <= target },
      ...(start ? [start.check] : []),
      ...(failed ? [{ label: `every response 200 (${statusText(http)})`, ok: false }] : []),
      { label: 'cached answer = computed answer', ok: same },
    ],
    figures: {
      operationId: c.op.operationId,
      family: c.op.family,
      range: c.range,
      filter: c.filterLabel,
      cache: 'warm',
      requests: http.latency.count,
      failedResponses: failed,
      p50Ms: round(http.latency.p50),
      p95Ms: round(http.latency.p95),
      p99Ms: round(http.latency.p99),
      ...start?.figures,
      wireBytes: kept.wire.bytes,
      wireEncoding: kept.wire.encoding,
      sameAsComputed: same,
    },
  });
}

/** Every statistics case as its own row; a missing operation or a failing one does not stop the others. */
export async function measureStatistics(ctx: BenchContext, ds: MainDataset): Promise<Map<string, StatFigure>> {
  const service = await ctx.backoffice();
  const caching = await ctx.cachingBackoffice();
  const capture = await startCaptureApp(ds.url);
  const shared: Shared = {
    ctx,
    ds,
    serviceUrl: service.baseUrl,
    cachingUrl: caching.baseUrl,
    capture,
    bare: createPool(ds.url, 10),
    naivePool: createLimitedPool(ds.url, ctx.scale.naiveLimitSeconds),
    naive: new Map(),
  };
  const figures = new Map<string, StatFigure>();
  const cases = statisticsCases(ds.lastDay, ds.samples);
  ctx.log(`  statistics: ${cases.length} cases × ${count(ctx.scale.statRequests)} requests, ${CLIENTS} clients`);
  try {
    for (const c of cases) {
      await guarded(ctx, 'statistics', caseTitle(c), statTarget(p95TargetOf(c)), async () => {
        const row = await measureCase(shared, c);
        figures.set(caseTitle(c), { p50: Number(row.figures.p50Ms), p95: Number(row.figures.p95Ms) });
        return [row];
      });
      if (CACHED_FAMILIES.has(c.op.family))
        await guarded(ctx, 'statistics', `${caseTitle(c)} · warm`, warmTarget(p95TargetOf(c)), async () => [await measureWarm(shared, c)]);
    }
  } finally {
    await capture.close();
    await shared.bare.end();
    await shared.naivePool.end();
  }
  return figures;
}
