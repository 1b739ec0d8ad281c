import { CATEGORY_WEIGHTS, type CategoryCandidate, type CategoryThresholds } from './category-classifier.ts';

/**
 * What the calibration reads of one candidate, next to the others of the same name:
 * - `similarity`: the leaf's similarity (0..1);
 * - `lead`: its similarity minus the best other candidate's (negative below the top; siblings
 *   ruled out by this leaf's distinguishing words are not rivals);
 * - `siblingTie`: 1 when a sibling leaf (same parent) is within the sibling window and no word
 *   tells them apart;
 * - `categoryWords`: how many words of the name are words of the leaf's category names, at most 2.
 *
 * The sibling rule acts through `lead` and `siblingTie`: a leaf chosen by its distinguishing
 * words has no tie and leads the rivals it did not rule out. (A feature for the choice itself was
 * tried: on the demo catalogue, whose goods names carry no model lines, the rule never fires on
 * the dev half, so its weight would be a guess.)
 */
export interface ConfidenceFeatures {
  similarity: number;
  lead: number;
  siblingTie: number;
  categoryWords: number;
}

export const FEATURE_NAMES = ['similarity', 'lead', 'siblingTie', 'categoryWords'] as const satisfies readonly (keyof ConfidenceFeatures)[];

/** A logistic model: P(leaf right) = σ(intercept + Σ coefficient·feature). */
export interface CategoryCalibration {
  intercept: number;
  coefficients: Record<keyof ConfidenceFeatures, number>;
}

/**
 * Fitted by `pnpm --filter @bo/ai-eval fit-calibration` (tools/ai-eval/src/fit-calibration.ts) on
 * the dev half only (tools/ai-eval/data/labelled-dev.tsv) over the demo data: one row per listed
 * candidate (up to five per name, above the candidate floor), labelled 1 when the candidate is one
 * of the name's leaves; out-of-tree names give only 0 rows. The README (*AI goods assistance*)
 * repeats these numbers; a test checks that they are equal.
 */
export const CATEGORY_CALIBRATION: CategoryCalibration = {
  intercept: -3.22,
  coefficients: { similarity: 2.659, lead: 4.812, siblingTie: -0.757, categoryWords: 1.146 },
};

const parentOf = (hierarchy: string): string => hierarchy.slice(0, Math.max(0, hierarchy.lastIndexOf(' > ')));

/** The features of candidate `i` among `candidates` (ranked, before the candidate floor drops any). */
export function confidenceFeatures(candidates: readonly CategoryCandidate[], i: number): ConfidenceFeatures {
  const c = candidates[i]!;
  const rivals = candidates.filter((o, j) => j !== i && !(c.siblingWords && o.ruledOut));
  const best = Math.max(0, ...rivals.map((o) => o.similarity));
  const parent = parentOf(c.stdCtgHierarchy);
  const tie =
    !c.siblingWords &&
    !c.ruledOut &&
    candidates.some(
      (o, j) =>
        j !== i &&
        !o.ruledOut &&
        parentOf(o.stdCtgHierarchy) === parent &&
        Math.abs(o.similarity - c.similarity) < CATEGORY_WEIGHTS.siblingWindow,
    );
  return {
    similarity: c.similarity,
    lead: c.similarity - best,
    siblingTie: tie ? 1 : 0,
    categoryWords: Math.min(2, c.categoryWords ?? 0),
  };
}

export const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

export function probability(f: ConfidenceFeatures, model: CategoryCalibration = CATEGORY_CALIBRATION): number {
  let z = model.intercept;
  for (const name of FEATURE_NAMES) z += model.coefficients[name] * f[name];
  return sigmoid(z);
}

/** Each candidate's `score` becomes its calibrated probability (4 decimals); `similarity` keeps the raw score. */
export function calibrate(
  candidates: readonly CategoryCandidate[],
  model: CategoryCalibration = CATEGORY_CALIBRATION,
): CategoryCandidate[] {
  return candidates.map((c, i) => ({ ...c, score: Math.round(probability(confidenceFeatures(candidates, i), model) * 10000) / 10000 }));
}

/**
 * The confidence test; a model's choice never bypasses it. With `minConfidence` the top candidate
 * is accepted when its calibrated probability (`score`) reaches it; otherwise the similarity rule:
 * similar enough (`minScore`) and ahead of the best rival by `minMargin` (a sibling ruled out by
 * the top leaf's distinguishing words is no rival).
 */
export function acceptCategory(candidates: readonly CategoryCandidate[], t: CategoryThresholds): CategoryCandidate | undefined {
  const top = candidates[0];
  if (!top) return undefined;
  if (t.minConfidence !== undefined) return top.score >= t.minConfidence ? top : undefined;
  if (top.similarity < t.minScore) return undefined;
  return confidenceFeatures(candidates, 0).lead < t.minMargin ? undefined : top;
}
