import {
  analyseName,
  confidenceFeatures,
  FEATURE_NAMES,
  probability,
  type CategoryCalibration,
  type CategoryThresholds,
  type ConfidenceFeatures,
  type MasterIndex,
} from '@bo/backoffice/ai-eval-api';
import { leafPaths, type LabelledCase } from '../data/check-labels.ts';

/** One listed candidate of one labelled name: its features and whether it is one of the name's leaves. */
export interface CandidateRow {
  name: string;
  /** 0 for the top candidate (the one the confidence test accepts or not). */
  rank: number;
  inTree: boolean;
  features: ConfidenceFeatures;
  right: boolean;
}

/** The rows of the labelled names, candidates as auto-fill lists them (after the candidate floor). */
export function candidateRows(cases: readonly LabelledCase[], masters: MasterIndex, thresholds: CategoryThresholds): CandidateRow[] {
  const leafNoOf = leafPaths();
  const rows: CandidateRow[] = [];
  for (const c of cases) {
    const want = new Set(c.categories.map((p) => leafNoOf.get(p)));
    const { candidates } = analyseName(c.name, masters, thresholds);
    candidates.forEach((cand, i) => {
      rows.push({
        name: c.name,
        rank: i,
        inTree: want.size > 0,
        features: confidenceFeatures(candidates, i),
        right: want.has(cand.stdCtgNo),
      });
    });
  }
  return rows;
}

const vector = (f: ConfidenceFeatures): number[] => [1, ...FEATURE_NAMES.map((n) => f[n])];

/**
 * Logistic regression by Newton's method (IRLS) with a small L2 penalty `l2` on the coefficients
 * (not the intercept), so a feature that never varies in the data stays at 0.
 */
export function fitLogistic(rows: readonly { features: ConfidenceFeatures; right: boolean }[], l2 = 1): CategoryCalibration {
  const d = FEATURE_NAMES.length + 1;
  let beta = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 100; iter++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    for (const r of rows) {
      const x = vector(r.features);
      const p = 1 / (1 + Math.exp(-x.reduce((s, xi, i) => s + xi * beta[i]!, 0)));
      const y = r.right ? 1 : 0;
      for (let i = 0; i < d; i++) {
        grad[i]! += (p - y) * x[i]!;
        for (let j = 0; j < d; j++) hess[i]![j]! += p * (1 - p) * x[i]! * x[j]!;
      }
    }
    for (let i = 1; i < d; i++) {
      grad[i]! += l2 * beta[i]!;
      hess[i]![i]! += l2;
    }
    const step = solve(hess, grad);
    beta = beta.map((b, i) => b - step[i]!);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    intercept: round(beta[0]!),
    coefficients: Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, round(beta[i + 1]!)])) as CategoryCalibration['coefficients'],
  };
}

/** Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let k = col; k <= n; k++) m[r]![k]! -= f * m[col]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

export interface Bin {
  from: number;
  to: number;
  n: number;
  meanP: number;
  rate: number;
}

/** Reliability bins: rows grouped by predicted probability, the mean prediction next to the observed rate. */
export function reliability(rows: readonly { p: number; right: boolean }[], edges = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001]): Bin[] {
  const bins: Bin[] = [];
  for (let i = 0; i + 1 < edges.length; i++) {
    const inBin = rows.filter((r) => r.p >= edges[i]! && r.p < edges[i + 1]!);
    if (!inBin.length) continue;
    bins.push({
      from: edges[i]!,
      to: Math.min(1, edges[i + 1]!),
      n: inBin.length,
      meanP: inBin.reduce((s, r) => s + r.p, 0) / inBin.length,
      rate: inBin.filter((r) => r.right).length / inBin.length,
    });
  }
  return bins;
}

/** The decision at a probability threshold over the names' top candidates: acceptance of in-tree names, precision, out-of-tree rejection. */
export function decisionAt(
  tops: readonly { p: number; right: boolean; inTree: boolean }[],
  inTreeNames: number,
  outOfTreeNames: number,
  threshold: number,
): { acceptance: number; precision: number; outOfTreeRejection: number } {
  const accepted = tops.filter((t) => t.p >= threshold);
  return {
    acceptance: accepted.filter((t) => t.inTree).length / inTreeNames,
    precision: accepted.length ? accepted.filter((t) => t.right).length / accepted.length : 1,
    outOfTreeRejection: 1 - accepted.filter((t) => !t.inTree).length / outOfTreeNames,
  };
}

export { probability };

/**
 * Out-of-fold predictions: the names go to `folds` folds by their position in the labelled file
 * (`names`, every name of the half, with or without candidates); each fold is scored by a model
 * fitted on the others.
 */
export function outOfFold(
  rows: readonly CandidateRow[],
  names: readonly string[],
  folds: number,
): { p: number; right: boolean; inTree: boolean; rank: number }[] {
  const foldOf = new Map(names.map((n, i) => [n, i % folds]));
  const out: { p: number; right: boolean; inTree: boolean; rank: number }[] = [];
  for (let k = 0; k < folds; k++) {
    const m = fitLogistic(rows.filter((r) => foldOf.get(r.name) !== k));
    for (const r of rows.filter((x) => foldOf.get(x.name) === k))
      out.push({ p: probability(r.features, m), right: r.right, inTree: r.inTree, rank: r.rank });
  }
  return out;
}

/**
 * The acceptance threshold: the lowest probability (in hundredths, from 0.30) whose out-of-fold
 * accepted precision on the rows' names reaches `precision`; undefined when none does.
 */
export function chooseThreshold(
  rows: readonly CandidateRow[],
  cases: readonly LabelledCase[],
  options: { folds: number; precision: number },
): number | undefined {
  const tops = outOfFold(
    rows,
    cases.map((c) => c.name),
    options.folds,
  ).filter((r) => r.rank === 0);
  const inTree = cases.filter((c) => c.categories.length > 0).length;
  for (let h = 30; h <= 99; h++) {
    if (decisionAt(tops, inTree, cases.length - inTree, h / 100).precision >= options.precision) return h / 100;
  }
  return undefined;
}
