import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchContext } from '../context.ts';
import type { MainDataset } from '../dataset/main-dataset.ts';
import { startCaptureApp } from '../infra/capture-app.ts';
import { freePort } from '@bo/testing';
import { spawnService } from '../infra/child-service.ts';
import { failures, runLoad, statusText, type LoadResult } from '../infra/http-load.ts';
import { elapsedMs, median } from '../infra/percentiles.ts';
import { count, measuredRow, ms, NotAvailable, round, times, type BenchRow } from '../report/rows.ts';

export const OVERHEAD_TARGET = '≥ 0.6× the bare server';
const CONNECTIONS = 16;
/**
 * Each side is loaded this long before it is measured. A fresh service process runs its request
 * path unoptimised for its first few thousand requests (1.3 ms CPU per request instead of 0.6 on
 * the payment-method list): after the 64 requests once used here, a 3 s measurement was mostly
 * V8 warming up, which a running service has long done; the bare server has little to warm.
 */
const WARMUP_SECONDS = 3;

/** Authenticated reads that may be the cheapest; the one with the lowest median is measured. */
function candidates(ds: MainDataset): { label: string; path: string }[] {
  const day = ds.lastDay;
  return [
    { label: 'dashboard goods review status', path: `/v2/dashboard/goods/goods-review-status?siteNo=${ds.samples.siteNo}` },
    { label: 'dashboard restock-notice status', path: '/v2/dashboard/goods/restock-notice-status' },
    { label: 'dashboard goods sale/stock status', path: '/v2/dashboard/goods/sale-stock-status' },
    { label: 'dashboard QnA status', path: '/v2/dashboard/goods/qna-answer-status' },
    {
      label: 'payment-method list, one day',
      path: `/v1/statistics/payWayStatus/getPayWayStatusList?startDate=${day}&endDate=${day}&agrtGb=01`,
    },
    {
      label: 'supplier list, one supplier, one day',
      path: `/v1/statistics/enterpriseStatus/getEnterpriseStatusList?startDate=${day}&endDate=${day}&agrtGb=01&entrNo=${ds.samples.entrNo}`,
    },
  ];
}

/**
 * Requests per second of the cheapest authenticated read (routing, JWT, validation, envelope,
 * logging, metrics and the SQL) against a bare node:http process running the same SQL.
 */
export async function measureOverhead(ctx: BenchContext, ds: MainDataset): Promise<BenchRow[]> {
  const service = await ctx.backoffice();
  const timed: { label: string; path: string; medianMs: number }[] = [];
  for (const c of candidates(ds)) {
    const samples: number[] = [];
    let status = 0;
    for (let i = 0; i < 20 && status !== 404; i++) {
      const start = process.hrtime.bigint();
      const res = await fetch(`${service.baseUrl}${c.path}`, { headers: { authorization: ctx.adminBearer } });
      await res.arrayBuffer();
      status = res.status;
      if (status === 200) samples.push(elapsedMs(start));
    }
    if (samples.length === 20) timed.push({ ...c, medianMs: median(samples) });
  }
  if (!timed.length) throw new NotAvailable('no authenticated read answers 200 yet (dashboard and statistics lists)');
  const cheapest = timed.sort((a, b) => a.medianMs - b.medianMs)[0]!;

  const capture = await startCaptureApp(ds.url);
  let script;
  try {
    ({ script } = await capture.capture({ method: 'GET', path: cheapest.path, auth: ctx.adminBearer }));
  } finally {
    await capture.close();
  }

  const dir = mkdtempSync(join(tmpdir(), 'bench-bare-'));
  const scriptFile = join(dir, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  const bareServer = async (framework: 'node' | 'express', prepared = false) => {
    const port = await freePort();
    return spawnService({
      name: `bare ${framework}${prepared ? ' prepared' : ''}`,
      script: 'bench/src/bare-server.ts',
      env: {
        BARE_DB_URL: ds.url,
        BARE_PORT: String(port),
        BARE_SCRIPT_FILE: scriptFile,
        BARE_POOL: '10',
        BARE_FRAMEWORK: framework,
        BARE_PREPARED: prepared ? '1' : '0',
      },
      port,
      prefix: '/bare',
      healthPath: '/health',
    });
  };
  const bare = await bareServer('node');
  const bareExpress = await bareServer('express');
  // The service sends its compiled reads as prepared statements, which saves the database a parse
  // per request: this side shows how much of its ratio to the text reference that is.
  const barePrepared = await bareServer('node', true);
  try {
    const { overheadRounds: rounds, overheadSeconds: seconds } = ctx.scale;
    const headers = { authorization: ctx.adminBearer };
    ctx.log(
      `  overhead: "${cheapest.label}" (median ${ms(cheapest.medianMs)} of ${timed.length} candidates), ${rounds} alternating rounds of ${seconds} s per side, ${CONNECTIONS} connections`,
    );
    const sides = [
      { name: 'service', url: `${service.baseUrl}${cheapest.path}`, headers },
      { name: 'bare', url: `${bare.baseUrl}/read`, headers: {} },
      { name: 'bare Express', url: `${bareExpress.baseUrl}/read`, headers: {} },
      { name: 'bare prepared', url: `${barePrepared.baseUrl}/read`, headers: {} },
    ] as const;
    // The smoke test (no warm-up) only proves the row is measured.
    const warm = ctx.scale.warmup ? { durationSeconds: WARMUP_SECONDS } : { amount: CONNECTIONS * 4 };
    for (const side of sides) await runLoad({ url: side.url, headers: side.headers, connections: CONNECTIONS, ...warm });
    // This machine's speed drifts by tens of percent within a minute: sides measured one after
    // the other compared different machines. Short rounds alternate them (each round starting
    // with another side) and the ratio is the median of the rounds' ratios.
    const results: LoadResult[][] = sides.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < sides.length; k++) {
        const i = (round + k) % sides.length;
        const side = sides[i]!;
        results[i]!.push(await runLoad({ url: side.url, headers: side.headers, connections: CONNECTIONS, durationSeconds: seconds }));
      }
    }
    const [svcRuns, refRuns, floorRuns, preparedRuns] = results as [LoadResult[], LoadResult[], LoadResult[], LoadResult[]];
    const failed = sides.map((side, i) => `${side.name} ${results[i]!.map(statusText).join(', ')}`);
    if (results.flat().some((r) => failures(r) > 0)) throw new Error(`failed responses: ${failed.join('; ')}`);
    const rate = (runs: LoadResult[]) => median(runs.map((r) => r.requestsPerSecond));
    const p50 = (runs: LoadResult[]) => median(runs.map((r) => r.latency.p50));
    const ratios = svcRuns.map((r, i) => r.requestsPerSecond / refRuns[i]!.requestsPerSecond);
    const ratio = median(ratios);
    const ofExpress = median(svcRuns.map((r, i) => r.requestsPerSecond / floorRuns[i]!.requestsPerSecond));
    const expressToNode = median(floorRuns.map((r, i) => r.requestsPerSecond / refRuns[i]!.requestsPerSecond));
    const ofPrepared = median(svcRuns.map((r, i) => r.requestsPerSecond / preparedRuns[i]!.requestsPerSecond));
    const range = `${times(Math.min(...ratios))}–${times(Math.max(...ratios))}`;
    return [
      measuredRow({
        section: 'overhead',
        hotPath: `cheapest authenticated read: ${cheapest.label} (${script.flat().length} SQL statements)`,
        measured: `${count(rate(svcRuns))} req/s (p50 ${ms(p50(svcRuns))}; medians of ${rounds} rounds)`,
        reference: `bare node:http + same SQL ${count(rate(refRuns))} req/s (p50 ${ms(p50(refRuns))}); bare Express + same SQL ${count(rate(floorRuns))} req/s (service ${times(ofExpress)} it); bare node:http + same SQL prepared ${count(rate(preparedRuns))} req/s (service ${times(ofPrepared)} it)`,
        ratio: `${times(ratio)} bare (rounds ${range})`,
        target: OVERHEAD_TARGET,
        checks: [{ label: '≥ 0.6× bare', ok: ratio >= 0.6 }],
        figures: {
          operation: cheapest.label,
          path: cheapest.path.split('?')[0]!,
          statements: script.flat().length,
          requestsPerSecond: round(rate(svcRuns)),
          bareRequestsPerSecond: round(rate(refRuns)),
          ratio: round(ratio, 3),
          roundRatios: ratios.map((r) => r.toFixed(3)).join(' '),
          bareExpressRequestsPerSecond: round(rate(floorRuns)),
          ratioToBareExpress: round(ofExpress, 3),
          bareExpressToBareNode: round(expressToNode, 3),
          barePreparedRequestsPerSecond: round(rate(preparedRuns)),
          ratioToBarePrepared: round(ofPrepared, 3),
          connections: CONNECTIONS,
          rounds,
          seconds,
        },
      }),
    ];
  } finally {
    await bare.stop();
    await bareExpress.stop();
    await barePrepared.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
