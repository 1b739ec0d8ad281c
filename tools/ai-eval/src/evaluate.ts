import type { Knex } from '@bo/db';
import { DEMO_SIZE, seedDatabases } from '@bo/data-generator';
import {
  AiRunner,
  autoFill,
  buildMasterIndex,
  loadMasterRows,
  OfflineProvider,
  type AutoFillContext,
  type CategoryThresholds,
  type MasterIndex,
} from '@bo/backoffice/ai-eval-api';
import { brandMaster, checkCases, leafPaths, readHalf, type Half, type LabelledCase } from '../data/check-labels.ts';

export interface EvalOptions {
  thresholds: CategoryThresholds;
  fuzzyMin: number;
  goodsPerLeaf: number;
  /** The halves to score; the test half is for reporting only (never tune on it). */
  halves?: readonly Half[];
}

export interface EvalMiss {
  case: LabelledCase;
  brandNm?: string;
  brandStatus: string;
  brandConfidence: string;
  stdCtgNo?: string;
  top1?: string;
}

export interface SetReport {
  label: Half;
  size: number;
  /** Right brand decisions among the names given a brand or labelled brandless (a wrong brand counts against it). */
  brandPrecision: number;
  /** Names labelled with a brand that got exactly that `brandNo`. */
  brandRecall: number;
  /** In-tree names given a `stdCtgNo`. */
  categoryAcceptance: number;
  /** Accepted categories that are one of the label's leaves (an accepted out-of-tree name is wrong). */
  acceptedPrecision: number;
  /** In-tree names whose leaf is among the five candidates. */
  top5Recall: number;
  /** Out-of-tree names left without `stdCtgNo`. */
  outOfTreeRejection: number;
  p50Ms: number;
  p95Ms: number;
  brandMisses: EvalMiss[];
  categoryMisses: EvalMiss[];
  recallMisses: EvalMiss[];
}

export interface EvalReport {
  brands: number;
  leaves: number;
  goods: number;
  sets: SetReport[];
}

/** The targets of issue 14, met on the test half. */
export const EVAL_TARGETS = {
  brandPrecision: 0.98,
  brandRecall: 0.9,
  acceptedPrecision: 0.95,
  categoryAcceptance: 0.7,
  outOfTreeRejection: 0.9,
  p95Ms: 50,
};

export function targetsMissed(r: SetReport): string[] {
  const t = EVAL_TARGETS;
  return [
    r.brandPrecision < t.brandPrecision && `brand precision ${pct(r.brandPrecision)} < ${pct(t.brandPrecision)}`,
    r.brandRecall < t.brandRecall && `brand recall ${pct(r.brandRecall)} < ${pct(t.brandRecall)}`,
    r.acceptedPrecision < t.acceptedPrecision && `accepted precision ${pct(r.acceptedPrecision)} < ${pct(t.acceptedPrecision)}`,
    r.categoryAcceptance < t.categoryAcceptance && `acceptance ${pct(r.categoryAcceptance)} < ${pct(t.categoryAcceptance)}`,
    r.outOfTreeRejection < t.outOfTreeRejection && `out-of-tree rejection ${pct(r.outOfTreeRejection)} < ${pct(t.outOfTreeRejection)}`,
    r.p95Ms > t.p95Ms && `p95 ${r.p95Ms.toFixed(1)} ms > ${t.p95Ms} ms`,
  ]
    .filter((m): m is string => !!m)
    .map((m) => `${r.label}: ${m}`);
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

/** A fixed last day, so the seeded goods are the same whenever the evaluation runs. */
const DATA_END_DAY = '2026-01-31';

/** The labelled halves, checked against the masters (a broken label stops the evaluation). */
export function readLabelled(halves: readonly Half[]): Map<Half, LabelledCase[]> {
  const errors: string[] = [];
  const all = (['dev', 'test'] as const).flatMap((h) => readHalf(h, errors));
  checkCases(all, errors, []);
  if (errors.length) throw new Error(`labelled sets are invalid: ${errors.slice(0, 5).join('; ')}`);
  return new Map(halves.map((h) => [h, all.filter((c) => c.half === h)]));
}

/**
 * Score the offline auto-fill on the hand-labelled halves (`data/labelled-{dev,test}.tsv`), in
 * the (empty, migrated) database `db`: the demo data (masters and its 2,000 goods; the activity
 * cut to a token amount) is generated into it, the masters are read like the service reads them,
 * and every name goes through the same `autoFill` as a request.
 */
export async function evaluateAutoFill(db: { url: string; knex: Knex }, options: EvalOptions): Promise<EvalReport> {
  const { masters, brands } = await loadEvalMasters(db, options);
  const ctx: AutoFillContext = {
    masters,
    provider: new OfflineProvider(),
    runner: new AiRunner({ concurrency: 1, maxQueue: 0, timeoutMs: 10_000 }),
    thresholds: options.thresholds,
  };
  const halves = readLabelled(options.halves ?? ['dev', 'test']);
  // Warm the JIT so the timings measure steady state, as in a running service.
  for (const c of [...halves.values()].flat().slice(0, 30)) await autoFill(c.name, ctx);
  const sets: SetReport[] = [];
  for (const [half, cases] of halves) sets.push(await scoreSet(half, cases, ctx));
  return { brands, leaves: ctx.masters.categories.size, goods: DEMO_SIZE.goods, sets };
}

/** The demo data generated into `db` (empty, migrated), and the masters read from it as the service reads them. */
export async function loadEvalMasters(
  db: { url: string; knex: Knex },
  options: { fuzzyMin: number; goodsPerLeaf: number },
): Promise<{ masters: MasterIndex; brands: number }> {
  await seedDatabases({ boUrl: db.url, seed: DEMO_SIZE.seed, goods: DEMO_SIZE.goods, days: 1, events: 50, endDate: DATA_END_DAY });
  const rows = await loadMasterRows(db.knex, { goodsPerLeaf: options.goodsPerLeaf });
  return { masters: await buildMasterIndex(rows, { fuzzyMin: options.fuzzyMin, now: Date.now() }), brands: rows.brands.length };
}

async function scoreSet(label: Half, cases: readonly LabelledCase[], ctx: AutoFillContext): Promise<SetReport> {
  const brandNoOf = brandMaster();
  const leafNoOf = leafPaths();
  const times: number[] = [];
  let brandDecisions = 0;
  let brandRight = 0;
  let labelledBrands = 0;
  let brandFound = 0;
  let inTree = 0;
  let accepted = 0;
  let acceptedInTree = 0;
  let acceptedOk = 0;
  let inTop5 = 0;
  let outOfTree = 0;
  let rejected = 0;
  const brandMisses: EvalMiss[] = [];
  const categoryMisses: EvalMiss[] = [];
  const recallMisses: EvalMiss[] = [];
  for (const c of cases) {
    const started = performance.now();
    const res = await autoFill(c.name, ctx);
    times.push(performance.now() - started);
    const miss: EvalMiss = {
      case: c,
      brandNm: res.brandNm,
      brandStatus: res.brandMatchStatus ?? '',
      brandConfidence: res.brandConfidence ?? '',
      stdCtgNo: res.stdCtgNo && res.stdCtgHierarchy,
      top1: res.stdCtgCandidates?.[0]?.stdCtgHierarchy,
    };
    const wantBrand = c.brand ? brandNoOf.get(c.brand)?.brandNo : undefined;
    if (res.brandNo !== undefined || !wantBrand) {
      brandDecisions++;
      if (res.brandNo === wantBrand) brandRight++;
    }
    if (wantBrand) {
      labelledBrands++;
      if (res.brandNo === wantBrand) brandFound++;
    }
    if (res.brandNo !== wantBrand) brandMisses.push(miss);

    const want = new Set(c.categories.map((p) => leafNoOf.get(p)));
    if (want.size === 0) {
      outOfTree++;
      if (!res.stdCtgNo) rejected++;
      else {
        accepted++;
        categoryMisses.push(miss);
      }
      continue;
    }
    inTree++;
    if (res.stdCtgCandidates?.some((x) => want.has(x.stdCtgNo))) inTop5++;
    else recallMisses.push(miss);
    if (res.stdCtgNo) {
      accepted++;
      acceptedInTree++;
      if (want.has(res.stdCtgNo)) acceptedOk++;
      else categoryMisses.push(miss);
    }
  }
  times.sort((a, b) => a - b);
  const ratio = (a: number, b: number) => (b ? a / b : 0);
  return {
    label,
    size: cases.length,
    brandPrecision: ratio(brandRight, brandDecisions),
    brandRecall: ratio(brandFound, labelledBrands),
    categoryAcceptance: ratio(acceptedInTree, inTree),
    acceptedPrecision: ratio(acceptedOk, accepted),
    top5Recall: ratio(inTop5, inTree),
    outOfTreeRejection: ratio(rejected, outOfTree),
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    brandMisses,
    categoryMisses,
    recallMisses,
  };
}
