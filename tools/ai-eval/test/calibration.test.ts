import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { boSourceMigrations } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/testing';
import { CATEGORY_CALIBRATION, categoryThresholds, FEATURE_NAMES, loadBackofficeConfig } from '@bo/backoffice/ai-eval-api';
import { candidateRows, chooseThreshold, fitLogistic, type CandidateRow } from '../src/calibration.ts';
import { loadEvalMasters, readLabelled } from '../src/evaluate.ts';
import type { LabelledCase } from '../data/check-labels.ts';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The model as the README writes it: `P(leaf right) = σ(−3.22 + 2.659·similarity + …)`. */
function readmeModel(): { intercept: number; coefficients: Record<string, number> } {
  const formula = /`P\(leaf right\) = σ\(([^`]*)\)`/.exec(README)?.[1];
  expect(formula, 'the README states the fitted model').to.be.a('string');
  const terms = formula!
    .replace(/−/g, '-')
    .replace(/\s+/g, '')
    .match(/[+-]?[0-9.]+(·[A-Za-z]+)?/g)!;
  const coefficients: Record<string, number> = {};
  let intercept = NaN;
  for (const t of terms) {
    const [value, feature] = t.split('·');
    if (feature) coefficients[feature] = Number(value);
    else intercept = Number(value);
  }
  return { intercept, coefficients };
}

/** σ(b₀ + Σ bᵢ·xᵢ), written again here rather than taken from the code under test. */
const predict = (r: CandidateRow, m: { intercept: number; coefficients: Record<string, number> }): number =>
  1 /
  (1 +
    Math.exp(-(m.intercept + Object.entries(m.coefficients).reduce((s, [k, b]) => s + b * r.features[k as keyof typeof r.features], 0))));

/** |mean prediction − observed rate| per bin of predictions (bins of a tenth … fifth), with the bin sizes. */
function bins(rows: readonly { p: number; right: boolean }[]): { n: number; gap: number }[] {
  const edges = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001];
  return edges.slice(0, -1).map((from, i) => {
    const inBin = rows.filter((r) => r.p >= from && r.p < edges[i + 1]!);
    const mean = inBin.reduce((s, r) => s + r.p, 0) / (inBin.length || 1);
    const rate = inBin.filter((r) => r.right).length / (inBin.length || 1);
    return { n: inBin.length, gap: Math.abs(mean - rate) };
  });
}

describe('category calibration (fitted on the dev half)', () => {
  let db: TestDatabase;
  let dev: LabelledCase[];
  let rows: CandidateRow[];

  before(async function () {
    this.timeout(120_000);
    db = await createTestDatabase('ai_calibration', boSourceMigrations);
    const config = loadBackofficeConfig({ NODE_ENV: 'test' });
    const { masters } = await loadEvalMasters(db, { fuzzyMin: config.AI_BRAND_FUZZY_MIN, goodsPerLeaf: config.AI_CATEGORY_GOODS_PER_LEAF });
    dev = readLabelled(['dev']).get('dev')!;
    rows = candidateRows(dev, masters, categoryThresholds(config));
  });
  after(() => db.drop());

  it('when the README states the model, then its intercept and coefficients are the code’s', () => {
    const m = readmeModel();
    expect(m.intercept).to.equal(CATEGORY_CALIBRATION.intercept);
    expect(m.coefficients).to.deep.equal(CATEGORY_CALIBRATION.coefficients);
    expect(Object.keys(m.coefficients).sort()).to.deep.equal([...FEATURE_NAMES].sort());
  });

  it('when the model is refitted on the dev half, then the coefficients in the code come out (it was fitted there)', () => {
    const refit = fitLogistic(rows);
    expect(refit.intercept).to.be.closeTo(CATEGORY_CALIBRATION.intercept, 0.002);
    for (const f of FEATURE_NAMES) expect(refit.coefficients[f], f).to.be.closeTo(CATEGORY_CALIBRATION.coefficients[f], 0.002);
  });

  it('when the dev candidates are binned by probability, then each bin of 30 or more is within 0.15 of its observed rate, and the tops within 0.08 on average', () => {
    const model = readmeModel();
    const all = rows.map((r) => ({ p: predict(r, model), right: r.right }));
    const tops = rows.filter((r) => r.rank === 0).map((r) => ({ p: predict(r, model), right: r.right }));
    for (const set of [all, tops]) for (const b of bins(set).filter((x) => x.n >= 30)) expect(b.gap).to.be.at.most(0.15);
    // Expected calibration error of the top candidates (the probability the acceptance reads).
    const ece = bins(tops).reduce((s, b) => s + b.n * b.gap, 0) / tops.length;
    expect(ece).to.be.at.most(0.08);
    // Overall, the probabilities add up to the right answers (within 5 %).
    const expected = all.reduce((s, r) => s + r.p, 0);
    const observed = all.filter((r) => r.right).length;
    expect(expected).to.be.closeTo(observed, observed * 0.05);
  });

  it('when the threshold is chosen by 5-fold cross-validation on dev (out-of-fold precision ≥ 95.5 %), then it is the default AI_CATEGORY_MIN_CONFIDENCE', () => {
    const config = loadBackofficeConfig({ NODE_ENV: 'test' });
    expect(chooseThreshold(rows, dev, { folds: 5, precision: 0.955 })).to.equal(config.AI_CATEGORY_MIN_CONFIDENCE);
  });
});
