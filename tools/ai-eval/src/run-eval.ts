import { parseCommandLine, usageError } from '@bo/service-kit/command-line';
import type { Half } from '../data/check-labels.ts';
import type { EvalMiss, SetReport } from './evaluate.ts';

/**
 * `pnpm ai:eval [--misses]`: scores the offline auto-fill on the hand-labelled halves
 * (tools/ai-eval/data/labelled-{dev,test}.tsv) in a temporary database that is dropped
 * afterwards. `--misses` lists the misses of the dev half only: the test half is for reporting.
 * Exits 1 when a target is missed on the test half.
 */
const USAGE = `usage: pnpm ai:eval [--misses] [--half dev|test]
  --misses  list the dev half's misses (the test half is for reporting only)
  --half    score one half only (while tuning: --half dev)`;

const values = parseCommandLine(USAGE, { misses: { type: 'boolean' }, half: { type: 'string' } });
if (values.half !== undefined && values.half !== 'dev' && values.half !== 'test') {
  usageError(`--half must be dev or test (got "${values.half}")`, USAGE);
}
const halves: Half[] = values.half ? [values.half] : ['dev', 'test'];
const options = { misses: values.misses ?? false, halves };

// The database, the back office and the scorer load once the options parse: a typo answers at once.
const { boSourceMigrations } = await import('@bo/db');
const { createTestDatabase } = await import('@bo/testing');
const { loadBackofficeConfig, categoryThresholds } = await import('@bo/backoffice/ai-eval-api');
const { EVAL_TARGETS, evaluateAutoFill, pct, targetsMissed } = await import('./evaluate.ts');
const t = EVAL_TARGETS;

function print(r: SetReport): void {
  console.log(`\n[${r.label}] ${r.size} hand-labelled names`);
  console.log(`  brand precision       ${pct(r.brandPrecision)}   (target ≥ ${pct(t.brandPrecision)})`);
  console.log(`  brand recall          ${pct(r.brandRecall)}   (target ≥ ${pct(t.brandRecall)})`);
  console.log(`  category acceptance   ${pct(r.categoryAcceptance)}   (target ≥ ${pct(t.categoryAcceptance)} of in-tree names)`);
  console.log(`  accepted precision    ${pct(r.acceptedPrecision)}   (target ≥ ${pct(t.acceptedPrecision)})`);
  console.log(`  top-5 recall          ${pct(r.top5Recall)}`);
  console.log(`  out-of-tree rejection ${pct(r.outOfTreeRejection)}   (target ≥ ${pct(t.outOfTreeRejection)})`);
  console.log(`  auto-fill latency     p50 ${r.p50Ms.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms   (target p95 ≤ ${t.p95Ms} ms)`);
  if (r.label !== 'dev' || !options.misses) return;
  const show = (m: EvalMiss) =>
    `${m.case.name} | want ${m.case.categories.join(' | ') || '-'} got ${m.stdCtgNo ?? '-'} top-1 ${m.top1 ?? '-'} | ${m.case.kind}`;
  for (const m of r.brandMisses)
    console.log(`  brand miss: ${m.case.name} | want ${m.case.brand || '-'} got ${m.brandNm ?? '-'} ${m.brandStatus} | ${m.case.kind}`);
  for (const m of r.categoryMisses) console.log(`  category miss: ${show(m)}`);
  for (const m of r.recallMisses) console.log(`  not in top 5: ${show(m)}`);
}

const config = loadBackofficeConfig();
const db = await createTestDatabase('ai_eval', boSourceMigrations);
try {
  const report = await evaluateAutoFill(db, {
    thresholds: categoryThresholds(config),
    fuzzyMin: config.AI_BRAND_FUZZY_MIN,
    goodsPerLeaf: config.AI_CATEGORY_GOODS_PER_LEAF,
    halves: options.halves,
  });
  console.log(`demo data: ${report.brands} brands, ${report.leaves} leaf categories, ${report.goods} goods`);
  for (const set of report.sets) print(set);
  const missed = report.sets.filter((s) => s.label === 'test').flatMap(targetsMissed);
  if (!options.halves.includes('test')) {
    console.log('\nthe test half was not scored');
  } else if (missed.length) {
    console.log(`\ntargets missed on the test half: ${missed.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nall targets met on the test half');
  }
} finally {
  await db.drop();
}
