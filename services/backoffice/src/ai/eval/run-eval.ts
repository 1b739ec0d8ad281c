import { boSourceMigrations } from '@bo/db';
import { createTestDatabase } from '@bo/db/testing';
import { loadBackofficeConfig } from '../../config.ts';
import { evaluateAutoFill, pct, targetsMissed } from './evaluate.ts';

/**
 * `pnpm --filter @bo/backoffice ai:eval [--size N] [--seed S] [--misses]`: scores the offline
 * auto-fill on labelled names generated from the demo masters, in a temporary database that
 * is dropped afterwards. Exits 1 when a target of the AI issue is missed.
 */
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};

const config = loadBackofficeConfig();
const db = await createTestDatabase('ai_eval', boSourceMigrations);
try {
  const report = await evaluateAutoFill(db.knex, {
    size: arg('size', 400),
    seed: arg('seed', 20260512),
    thresholds: { minScore: config.AI_CATEGORY_MIN_SCORE, minMargin: config.AI_CATEGORY_MIN_MARGIN },
    fuzzyMin: config.AI_BRAND_FUZZY_MIN,
  });
  console.log(`labelled names        ${report.size} (masters: ${report.brands} brands in use, ${report.leaves} leaf categories)`);
  console.log(`brand accuracy        ${pct(report.brandAccuracy)}   (target ≥ 95 %)`);
  console.log(`category acceptance   ${pct(report.categoryAcceptance)}   (target ≥ 70 %; min score ${config.AI_CATEGORY_MIN_SCORE}, min margin ${config.AI_CATEGORY_MIN_MARGIN})`);
  console.log(`top-1 among accepted  ${pct(report.acceptedPrecision)}   (target ≥ 90 %)`);
  console.log(`top-5 recall          ${pct(report.top5Recall)}   (target ≥ 95 %)`);
  console.log(`auto-fill latency     p50 ${report.p50Ms.toFixed(2)} ms, p95 ${report.p95Ms.toFixed(2)} ms   (target p95 < 50 ms)`);
  if (process.argv.includes('--misses')) {
    for (const m of report.brandMisses) console.log(`brand miss: ${m.name.productName} | want ${m.name.brandNo} got ${m.brandNo} ${m.brandStatus} | ${m.name.noise.join(',')}`);
    for (const m of report.categoryMisses) console.log(`category miss: ${m.name.productName} | want ${m.name.stdCtgNo} got ${m.stdCtgNo}`);
    for (const m of report.recallMisses) console.log(`not in top 5: ${m.name.productName} | want ${m.name.stdCtgNo} top-1 ${m.top1 ?? '-'}`);
  }
  const missed = targetsMissed(report);
  if (missed.length) {
    console.log(`targets missed: ${missed.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('all targets met');
  }
} finally {
  await db.drop();
}
