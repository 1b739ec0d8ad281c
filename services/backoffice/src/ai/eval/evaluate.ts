import type { Knex } from '@bo/db';
import { buildCatalog, insertMasters } from '@bo/db';
import { createLogger } from '@bo/service-kit';
import { autoFill } from '../autofill/auto-fill.ts';
import type { CategoryThresholds } from '../autofill/category-classifier.ts';
import { MasterCache } from '../autofill/master-cache.ts';
import { AiRunner } from '../provider/ai-runner.ts';
import { OfflineProvider } from '../provider/offline-provider.ts';
import { labelledNames, type LabelledName } from './labelled-names.ts';

export interface EvalOptions {
  size: number;
  seed: number;
  thresholds: CategoryThresholds;
  fuzzyMin: number;
}

export interface EvalMiss {
  name: LabelledName;
  brandNo?: string;
  brandStatus: string;
  stdCtgNo?: string;
  top1?: string;
}

export interface EvalReport {
  size: number;
  brands: number;
  leaves: number;
  brandAccuracy: number;
  categoryAcceptance: number;
  acceptedPrecision: number;
  top5Recall: number;
  p50Ms: number;
  p95Ms: number;
  brandMisses: EvalMiss[];
  categoryMisses: EvalMiss[];
  /** Names whose true leaf is not among the five candidates. */
  recallMisses: EvalMiss[];
}

/** The targets of the AI issue. */
export const EVAL_TARGETS = { brandAccuracy: 0.95, acceptedPrecision: 0.9, categoryAcceptance: 0.7, top5Recall: 0.95, p95Ms: 50 };

export function targetsMissed(r: EvalReport): string[] {
  const t = EVAL_TARGETS;
  return [
    r.brandAccuracy < t.brandAccuracy && `brand accuracy ${pct(r.brandAccuracy)} < ${pct(t.brandAccuracy)}`,
    r.acceptedPrecision < t.acceptedPrecision && `accepted precision ${pct(r.acceptedPrecision)} < ${pct(t.acceptedPrecision)}`,
    r.categoryAcceptance < t.categoryAcceptance && `acceptance ${pct(r.categoryAcceptance)} < ${pct(t.categoryAcceptance)}`,
    r.top5Recall < t.top5Recall && `top-5 recall ${pct(r.top5Recall)} < ${pct(t.top5Recall)}`,
    r.p95Ms >= t.p95Ms && `p95 ${r.p95Ms.toFixed(1)} ms >= ${t.p95Ms} ms`,
  ].filter((m): m is string => !!m);
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

/**
 * Score the offline auto-fill on labelled names generated from the demo masters of `seed`:
 * the masters are inserted into the (empty) database behind `knex`, loaded through the same
 * cache the service uses, and every name goes through the same `autoFill` as a request.
 */
export async function evaluateAutoFill(knex: Knex, options: EvalOptions): Promise<EvalReport> {
  const catalog = buildCatalog(options.seed);
  await insertMasters(knex, catalog.masters);
  const logger = createLogger('ai-eval', 'error');
  const masters = await new MasterCache(knex, { refreshMs: 3_600_000, fuzzyMin: options.fuzzyMin, logger }).reload();
  const ctx = {
    masters,
    provider: new OfflineProvider(),
    runner: new AiRunner({ concurrency: 1, maxQueue: 0, timeoutMs: 10_000 }),
    thresholds: options.thresholds,
  };
  const names = labelledNames(catalog, options.size, options.seed);
  // Warm the JIT so the timings measure steady state, as in a running service.
  for (const n of names.slice(0, 20)) await autoFill(n.productName, ctx);

  const times: number[] = [];
  let brandOk = 0;
  let accepted = 0;
  let acceptedOk = 0;
  let inTop5 = 0;
  const brandMisses: EvalMiss[] = [];
  const categoryMisses: EvalMiss[] = [];
  const recallMisses: EvalMiss[] = [];
  for (const name of names) {
    const started = performance.now();
    const res = await autoFill(name.productName, ctx);
    times.push(performance.now() - started);
    const miss: EvalMiss = { name, brandNo: res.brandNo, brandStatus: res.brandMatchStatus ?? '', stdCtgNo: res.stdCtgNo, top1: res.stdCtgCandidates?.[0]?.stdCtgNo };
    if ((res.brandNo ?? null) === name.brandNo) brandOk++;
    else brandMisses.push(miss);
    if (res.stdCtgCandidates?.some((c) => c.stdCtgNo === name.stdCtgNo)) inTop5++;
    else recallMisses.push(miss);
    if (res.stdCtgNo) {
      accepted++;
      if (res.stdCtgNo === name.stdCtgNo) acceptedOk++;
      else categoryMisses.push(miss);
    }
  }
  times.sort((a, b) => a - b);
  return {
    size: names.length,
    brands: catalog.masters.brand.filter((b) => b.use_yn === 'Y').length,
    leaves: catalog.leaves.length,
    brandAccuracy: brandOk / names.length,
    categoryAcceptance: accepted / names.length,
    acceptedPrecision: accepted ? acceptedOk / accepted : 0,
    top5Recall: inTop5 / names.length,
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    brandMisses,
    categoryMisses,
    recallMisses,
  };
}
