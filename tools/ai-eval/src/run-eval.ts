import { boSourceMigrations } from '@bo/db';
import { createTestDatabase } from '@bo/testing';
import { loadBackofficeConfig } from '@bo/backoffice/ai-eval-api';
import { evaluateAutoFill, pct, targetsMissed, type SetReport } from './evaluate.ts';

/**
 * `pnpm ai:eval -- [--size N] [--goods N] [--seed S] [--misses]`: scores the offline auto-fill
 * on two labelled sets (names built from the leaf names; the demo goods' own names, held out of
 * the goods index), in a temporary database that is dropped afterwards.
 * Exits 1 when a target of the AI issue is missed on either set.
 */
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

function print(r: SetReport): void {
  console.log(`\n[${r.label}] ${r.size} labelled names`);
  console.log(`  brand accuracy        ${pct(r.brandAccuracy)}   (target ≥ 95 %)`);
  console.log(`  category acceptance   ${pct(r.categoryAcceptance)}   (target ≥ 70 %)`);
  console.log(`  top-1 among accepted  ${pct(r.acceptedPrecision)}   (target ≥ 90 %)`);
  console.log(`  top-5 recall          ${pct(r.top5Recall)}   (target ≥ 95 %)`);
  console.log(`  auto-fill latency     p50 ${r.p50Ms.toFixed(2)} ms, p95 ${r.p95Ms.toFixed(2)} ms   (target p95 < 50 ms)`);
  if (!process.argv.includes('--misses')) return;
  const show = (m: SetReport['brandMisses'][number]) =>
    `${m.name.productName} | want ${m.name.stdCtgNo} got ${m.stdCtgNo ?? '-'} top-1 ${m.top1 ?? '-'} | ${m.name.noise.join(',')}`;
  for (const m of r.brandMisses)
    console.log(
      `  brand miss: ${m.name.productName} | want ${m.name.brandNo} got ${m.brandNo} ${m.brandStatus} | ${m.name.noise.join(',')}`,
    );
  for (const m of r.categoryMisses) console.log(`  category miss: ${show(m)}`);
  for (const m of r.recallMisses) console.log(`  not in top 5: ${show(m)}`);
}

const config = loadBackofficeConfig();
const db = await createTestDatabase('ai_eval', boSourceMigrations);
try {
  const report = await evaluateAutoFill(db, {
    size: arg('size', 400),
    goodsSize: arg('goods', 2000),
    seed: arg('seed', 20260512),
    thresholds: { minScore: config.AI_CATEGORY_MIN_SCORE, minMargin: config.AI_CATEGORY_MIN_MARGIN },
    fuzzyMin: config.AI_BRAND_FUZZY_MIN,
    goodsPerLeaf: config.AI_CATEGORY_GOODS_PER_LEAF,
  });
  console.log(`demo data: ${report.brands} brands in use, ${report.leaves} leaf categories, ${report.goods} goods`);
  console.log(
    `confidence test: min score ${config.AI_CATEGORY_MIN_SCORE}, min margin ${config.AI_CATEGORY_MIN_MARGIN}; goods per leaf ${config.AI_CATEGORY_GOODS_PER_LEAF}`,
  );
  for (const set of report.sets) print(set);
  const missed = report.sets.flatMap(targetsMissed);
  if (missed.length) {
    console.log(`\ntargets missed: ${missed.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('\nall targets met on both sets');
  }
} finally {
  await db.drop();
}
