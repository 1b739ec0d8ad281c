import type { BenchContext } from '../context.ts';
import type { MainDataset } from '../dataset/main-dataset.ts';
import { prepareDataset } from '../dataset/prepare.ts';
import { freePort } from '@bo/testing';
import { spawnService, type ChildService } from '../infra/child-service.ts';
import { extraDatabase } from '../infra/databases.ts';
import { failures, runLoad, statusText } from '../infra/http-load.ts';
import { measuredRow, ms, round, times, type BenchRow } from '../report/rows.ts';
import { scaledDataset } from '../scales.ts';
import { loadRebuild, readyForReads } from './aggregation.ts';
import { caseTitle, statisticsCases, type StatCase } from './statistics-cases.ts';
import { CLIENTS, httpCall } from './statistics.ts';

export const SCALING_TARGET = 'flat: largest ≤ 1.5× smallest p95 (every report reads aggregates for built days)';
const FLAT = 1.5;

/** One case per report, unfiltered, over its widest range: where data volume shows first. */
function scalingCases(ds: MainDataset): StatCase[] {
  const wanted = new Set([
    'period list · 12 months',
    'period list · 31 days',
    'hourly list · one day',
    'category list · 12 months',
    'payment-method list · 12 months',
    'goods list · 12 months',
    'supplier list · 12 months',
  ]);
  return statisticsCases(ds.lastDay, ds.samples).filter((c) => c.filterLabel === 'no filter' && wanted.has(`${c.op.label} · ${c.range}`));
}

const label = (events: number) => (events >= 1_000_000 ? `${events / 1_000_000} M` : `${events / 1_000} k`);

/**
 * The statistics p95 on data sets that differ only in the number of events: the main one and
 * smaller ones generated (and aggregated) with the same seed and period.
 */
export async function measureScaling(ctx: BenchContext): Promise<BenchRow[]> {
  const main = ctx.dataset;
  if ('unavailable' in main) throw new Error(`no data set: ${main.unavailable}`);
  const worker = await loadRebuild();
  const points = [...ctx.scale.scalingEvents].sort((a, b) => a - b);
  const p95: Map<string, (number | null)[]> = new Map();
  const cases = scalingCases(main);
  for (const c of cases) p95.set(caseTitle(c), []);

  for (const events of points) {
    const isMain = events === main.size.events;
    const ds = isMain
      ? main
      : await prepareDataset(
          ctx.options,
          extraDatabase.scaling(ctx.options, events),
          scaledDataset(main.size, events),
          ctx.log,
          main.lastDay,
        );
    let own: ChildService | undefined;
    try {
      await readyForReads(ctx, ds, worker, `  scaling: aggregating the ${label(events)} data set`);
      let service: ChildService;
      if (isMain) service = await ctx.backoffice();
      else {
        const port = await freePort();
        own = await spawnService({
          name: `backoffice (${label(events)})`,
          script: 'services/backoffice/src/main.ts',
          env: ctx.backofficeEnv(ds.url, port),
          port,
          prefix: '/api/bo',
          healthPath: '/health',
        });
        service = own;
      }
      ctx.log(`  scaling: ${label(events)} events, ${cases.length} reports`);
      // The same requests on every point: the main data set's dates and filter values.
      for (const c of cases) {
        const call = httpCall(c, ctx.adminBearer);
        const spec = {
          url: `${service.baseUrl}${call.path}`,
          method: call.method,
          headers: { authorization: call.auth },
          ...(call.body !== undefined ? { body: call.body } : {}),
          connections: CLIENTS,
          maxSeconds: ctx.scale.caseSeconds,
        };
        if (ctx.scale.warmup) await runLoad({ ...spec, amount: CLIENTS });
        const r = await runLoad({ ...spec, amount: ctx.scale.statRequests });
        p95.get(caseTitle(c))!.push(failures(r) ? null : r.latency.p95);
        if (failures(r)) ctx.log(`    ${caseTitle(c)}: ${statusText(r)}`);
      }
    } finally {
      await own?.stop();
      if (!isMain) await ds.knex.destroy();
    }
  }

  return cases.map((c) => {
    const series = p95.get(caseTitle(c))!;
    const firstP95 = series[0] ?? Number.NaN;
    const lastP95 = series[series.length - 1] ?? Number.NaN;
    const growth = lastP95 / firstP95;
    return measuredRow({
      section: 'scaling',
      hotPath: `${c.op.label} · ${c.range} (p95)`,
      measured: points
        .map((e, i) => `${label(e)}: ${series[i] === null || series[i] === undefined ? 'failed' : ms(series[i])}`)
        .join(' · '),
      reference: `same request on ${label(points[0]!)} events`,
      ratio: `${times(growth)} from ${label(points[0]!)} to ${label(points[points.length - 1]!)}`,
      target: `flat: ≤ ${FLAT}× growth`,
      checks: [{ label: `≤ ${FLAT}× growth`, ok: growth <= FLAT }],
      figures: {
        family: c.op.family,
        growth: round(growth, 3),
        ...Object.fromEntries(
          points.map((e, i) => [`p95Ms_${e}`, series[i] === null || series[i] === undefined ? null : round(series[i])]),
        ),
      },
    });
  });
}
