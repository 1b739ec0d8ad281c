import { blend, CharNgramEmbeddings, cosine, type SparseVector } from '../retrieval/char-ngram-embeddings.ts';

export interface LeafCategory {
  stdCtgNo: string;
  /** Names from the root down to the leaf. */
  path: readonly string[];
}

export interface CategoryCandidate {
  stdCtgNo: string;
  stdCtgHierarchy: string;
  score: number;
}

export interface CategoryThresholds {
  minScore: number;
  minMargin: number;
}

/** How much each level of the path counts, leaf first: the leaf name says the most. */
const LEVEL_WEIGHTS = [1, 0.35, 0.2, 0.1];

export const hierarchyText = (path: readonly string[]): string => path.join(' > ');

/**
 * Ranks leaf categories by similarity to a product name: cosine of character n-gram TF-IDF
 * vectors, a leaf being its own name blended with its ancestors' names.
 */
export class CategoryClassifier {
  private readonly embeddings: CharNgramEmbeddings;
  private readonly leaves: { leaf: LeafCategory; hierarchy: string; vector: SparseVector }[];

  constructor(leaves: readonly LeafCategory[]) {
    this.embeddings = new CharNgramEmbeddings(leaves.map((l) => l.path.join(' ')));
    this.leaves = leaves.map((leaf) => {
      const fromLeaf = [...leaf.path].reverse();
      return {
        leaf,
        hierarchy: hierarchyText(leaf.path),
        vector: blend(fromLeaf.map((name, i) => ({ vector: this.embeddings.sparse(name), weight: LEVEL_WEIGHTS[i] ?? 0.05 }))),
      };
    });
  }

  get size(): number {
    return this.leaves.length;
  }

  /** The `k` most similar leaves, best first (ties by number, so answers are stable). */
  rank(text: string, k = 5): CategoryCandidate[] {
    const q = this.embeddings.sparse(text);
    if (q.size === 0) return [];
    const scored: CategoryCandidate[] = [];
    for (const { leaf, hierarchy, vector } of this.leaves) {
      const score = cosine(q, vector);
      if (score > 0) scored.push({ stdCtgNo: leaf.stdCtgNo, stdCtgHierarchy: hierarchy, score });
    }
    return scored
      .sort((a, b) => b.score - a.score || a.stdCtgNo.localeCompare(b.stdCtgNo))
      .slice(0, k)
      .map((c) => ({ ...c, score: Math.round(c.score * 10000) / 10000 }));
  }
}

/**
 * The confidence test: the top candidate is accepted only when it is similar enough and clearly
 * ahead of the second. A model's choice never bypasses it.
 */
export function acceptCategory(candidates: readonly CategoryCandidate[], t: CategoryThresholds): CategoryCandidate | undefined {
  const [top, second] = candidates;
  if (!top || top.score < t.minScore) return undefined;
  if (second && top.score - second.score < t.minMargin) return undefined;
  return top;
}
