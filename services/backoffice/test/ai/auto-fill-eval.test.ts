import { expect } from 'chai';
import { boSourceMigrations } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/db/testing';
import { loadBackofficeConfig } from '../../src/index.ts';
import { EVAL_TARGETS, evaluateAutoFill, type EvalReport } from '../../src/ai/eval/evaluate.ts';

/**
 * The auto-fill evaluation (`ai:eval`) at a reduced size: labelled noisy names from the demo
 * masters, scored with the default thresholds. Latency is printed, not asserted (timings on a
 * shared machine are the benchmark's business; `ai:eval` checks p95).
 */
describe('AI auto-fill evaluation on labelled names from the demo masters', () => {
  let db: TestDatabase;
  let report: EvalReport;

  before(async () => {
    db = await createTestDatabase('ai_eval_test', boSourceMigrations);
    const config = loadBackofficeConfig({ NODE_ENV: 'test' });
    report = await evaluateAutoFill(db.knex, {
      size: 150,
      seed: 8101,
      thresholds: { minScore: config.AI_CATEGORY_MIN_SCORE, minMargin: config.AI_CATEGORY_MIN_MARGIN },
      fuzzyMin: config.AI_BRAND_FUZZY_MIN,
    });
    console.log(`      (eval: brand ${report.brandAccuracy.toFixed(3)}, acceptance ${report.categoryAcceptance.toFixed(3)}, precision ${report.acceptedPrecision.toFixed(3)}, top-5 ${report.top5Recall.toFixed(3)}, p50 ${report.p50Ms.toFixed(1)} ms, p95 ${report.p95Ms.toFixed(1)} ms)`);
  });
  after(() => db.drop());

  it('when 150 noisy names are auto-filled, then the brand is right for at least 95 %', () => {
    expect(report.size).to.equal(150);
    expect(report.brandAccuracy).to.be.at.least(EVAL_TARGETS.brandAccuracy);
  });

  it('when categories are accepted, then at least 70 % are, and at least 90 % of those are right', () => {
    expect(report.categoryAcceptance).to.be.at.least(EVAL_TARGETS.categoryAcceptance);
    expect(report.acceptedPrecision).to.be.at.least(EVAL_TARGETS.acceptedPrecision);
  });

  it('when the five candidates are listed, then the true leaf is among them for at least 95 %', () => {
    expect(report.top5Recall).to.be.at.least(EVAL_TARGETS.top5Recall);
  });
});
