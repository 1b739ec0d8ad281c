import type { Knex } from '@bo/db';
import { buildCatalog, createRandom, DEMO_SIZE, seedDatabases } from '@bo/data-generator';
import {
  AiRunner,
  autoFill,
  buildMasterIndex,
  loadMasterRows,
  OfflineProvider,
  type AutoFillContext,
  type CategoryThresholds,
  type MasterRows,
} from '@bo/backoffice/ai-eval-api';
import { noisyGoodsNames, type EvalGoods } from './goods-names.ts';
import { labelledNames, type LabelledName } from './labelled-names.ts';

export interface EvalOptions {
  /** Names of the first set (generated from the leaf names). */
  size: number;
  /** Goods of the second set (the demo goods' own names, held out); at most the demo's goods. */
  goodsSize: number;
  /** Seed of the noise; the data is always the demo set (DEMO_SIZE.seed). */
  seed: number;
  thresholds: CategoryThresholds;
  fuzzyMin: number;
  goodsPerLeaf: number;
}

export interface EvalMiss {
  name: LabelledName;
  brandNo?: string;
  brandStatus: string;
  stdCtgNo?: string;
  top1?: string;
}

export interface SetReport {
  label: string;
  size: number;
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

export interface EvalReport {
  brands: number;
  leaves: number;
  goods: number;
  sets: SetReport[];
}

/** The targets of the AI issue; each set must meet all of them. */
export const EVAL_TARGETS = { brandAccuracy: 0.95, acceptedPrecision: 0.9, categoryAcceptance: 0.7, top5Recall: 0.95, p95Ms: 50 };

export function targetsMissed(r: SetReport): string[] {
  const t = EVAL_TARGETS;
  return [
    r.brandAccuracy < t.brandAccuracy && `brand accuracy ${pct(r.brandAccuracy)} < ${pct(t.brandAccuracy)}`,
    r.acceptedPrecision < t.acceptedPrecision && `accepted precision ${pct(r.acceptedPrecision)} < ${pct(t.acceptedPrecision)}`,
    r.categoryAcceptance < t.categoryAcceptance && `acceptance ${pct(r.categoryAcceptance)} < ${pct(t.categoryAcceptance)}`,
    r.top5Recall < t.top5Recall && `top-5 recall ${pct(r.top5Recall)} < ${pct(t.top5Recall)}`,
    r.p95Ms >= t.p95Ms && `p95 ${r.p95Ms.toFixed(1)} ms >= ${t.p95Ms} ms`,
  ]
    .filter((m): m is string => !!m)
    .map((m) => `${r.label}: ${m}`);
}

export const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;

/** Folds of the goods set: each goods item is scored by an index built without its fold. */
const FOLDS = 5;
/** A fixed last day, so the seeded goods are the same whenever the evaluation runs. */
const DATA_END_DAY = '2026-01-31';

/**
 * Score the offline auto-fill on two labelled sets, in the (empty, migrated) database at `url`:
 * the demo data is generated into it (masters and the demo's 2,000 goods; the activity is cut to
 * a token amount), the masters and goods sample are read like the service reads them, and every
 * name goes through the same `autoFill` as a request.
 *
 * 1. `leaf names`: noisy names built around the leaf names themselves, the set the issue asked
 *    for; it flatters a classifier that indexes those names.
 * 2. `demo goods (held out)`: the generator's own goods names with noise, each scored by an
 *    index built without its fold of goods (5-fold), so no name meets itself in the goods index.
 */
export async function evaluateAutoFill(db: { url: string; knex: Knex }, options: EvalOptions): Promise<EvalReport> {
  const catalog = buildCatalog(DEMO_SIZE.seed);
  await seedDatabases({ boUrl: db.url, seed: DEMO_SIZE.seed, goods: DEMO_SIZE.goods, days: 1, events: 50, endDate: DATA_END_DAY });
  const rows = await loadMasterRows(db.knex, { goodsPerLeaf: options.goodsPerLeaf });
  const goods = (await db.knex('goods').orderBy('goods_no').select({
    goodsNo: 'goods_no',
    goodsNm: 'goods_nm',
    brandNo: 'brand_no',
    stdCtgNo: 'std_ctg_no',
  })) as EvalGoods[];
  const contextOf = async (r: MasterRows): Promise<AutoFillContext> => ({
    masters: await buildMasterIndex(r, { fuzzyMin: options.fuzzyMin, now: Date.now() }),
    provider: new OfflineProvider(),
    runner: new AiRunner({ concurrency: 1, maxQueue: 0, timeoutMs: 10_000 }),
    thresholds: options.thresholds,
  });

  const leafNames = labelledNames(catalog, options.size, options.seed);
  const full = await contextOf(rows);
  // Warm the JIT so the timings measure steady state, as in a running service.
  for (const n of leafNames.slice(0, 20)) await autoFill(n.productName, full);
  const leafSet = await scoreSet(
    'leaf names',
    leafNames.map((name) => ({ name, ctx: full })),
  );

  const r = createRandom(options.seed + 1);
  const chosen = goods
    .map((g) => ({ g, key: r.next() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, options.goodsSize)
    .map((x) => x.g);
  const named = noisyGoodsNames(chosen, catalog, options.seed + 2);
  const cases: { name: LabelledName; ctx: AutoFillContext }[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const held = named.filter((_, i) => i % FOLDS === fold);
    const heldNos = new Set(held.map((n) => n.goodsNo));
    const ctx = await contextOf({ ...rows, goodsSamples: rows.goodsSamples.filter((s) => !heldNos.has(s.goodsNo)) });
    for (const name of held) cases.push({ name, ctx });
  }
  const goodsSet = await scoreSet('demo goods (held out)', cases);

  return {
    brands: rows.brands.length,
    leaves: full.masters.categories.size,
    goods: goods.length,
    sets: [leafSet, goodsSet],
  };
}

async function scoreSet(label: string, cases: readonly { name: LabelledName; ctx: AutoFillContext }[]): Promise<SetReport> {
  const times: number[] = [];
  let brandOk = 0;
  let accepted = 0;
  let acceptedOk = 0;
  let inTop5 = 0;
  const brandMisses: EvalMiss[] = [];
  const categoryMisses: EvalMiss[] = [];
  const recallMisses: EvalMiss[] = [];
  for (const { name, ctx } of cases) {
    const started = performance.now();
    const res = await autoFill(name.productName, ctx);
    times.push(performance.now() - started);
    const miss: EvalMiss = {
      name,
      brandNo: res.brandNo,
      brandStatus: res.brandMatchStatus ?? '',
      stdCtgNo: res.stdCtgNo,
      top1: res.stdCtgCandidates?.[0]?.stdCtgNo,
    };
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
  const n = cases.length;
  return {
    label,
    size: n,
    brandAccuracy: brandOk / n,
    categoryAcceptance: accepted / n,
    acceptedPrecision: accepted ? acceptedOk / accepted : 0,
    top5Recall: inTop5 / n,
    p50Ms: quantile(times, 0.5),
    p95Ms: quantile(times, 0.95),
    brandMisses,
    categoryMisses,
    recallMisses,
  };
}
