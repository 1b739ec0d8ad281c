import { CharNgramEmbeddings, type SparseVector } from '../retrieval/char-ngram-embeddings.ts';
import { ngramCounts } from '../text/char-ngrams.ts';
import { words } from '../text/normalise.ts';
import { mapInSlices } from './in-slices.ts';

/** A node of the standard category tree on a leaf's path. */
export interface PathNode {
  stdCtgNo: string;
  name: string;
}

export interface LeafCategory {
  stdCtgNo: string;
  /** Nodes from the root down to the leaf. */
  path: readonly PathNode[];
}

/** An existing goods item of a leaf: its name cleaned for category scoring, and its brand. */
export interface GoodsExample {
  stdCtgNo: string;
  text: string;
  brandNo: string | null;
}

export interface CategoryCandidate {
  stdCtgNo: string;
  stdCtgHierarchy: string;
  /** Estimated probability that this leaf is right (`category-confidence.ts`); the similarity until calibrated. */
  score: number;
  /** The raw similarity 0..1 the leaf was ranked by. */
  similarity: number;
  /** The words of the name this leaf matched, in its category names or its nearest goods name. */
  reason?: string;
  /** How many words of the name the reason finds in the leaf's category names. */
  categoryWords?: number;
  /**
   * When the leading leaves were siblings within the window: the words of the name found in this
   * leaf's goods or category names and in none of the tied siblings' (set on the leaf they chose).
   */
  siblingWords?: string[];
  /** A tied sibling that the other sibling's distinguishing words ruled out. */
  ruledOut?: boolean;
  /** The leading leaves are siblings within the window and no word tells them apart. */
  siblingTie?: boolean;
}

export interface CategoryThresholds {
  /** Similarity rule: least similarity of the top leaf… */
  minScore: number;
  /** …and least lead over the best rival. */
  minMargin: number;
  /** When set, the probability rule instead: least calibrated probability (`score`) of the top leaf. */
  minConfidence?: number;
  /** Candidates below this similarity are not listed at all. */
  candidateFloor: number;
}

/** How the evidence is weighed; see `CategoryClassifier`. */
export interface CategoryWeights {
  /** Weight of a name match at each level, leaf first (leaf, parent, grandparent, root). */
  levels: readonly number[];
  /** Share of the weaker of path and goods similarity in the score (the stronger has the rest). */
  goods: number;
  /** Most the brand's own goods can add, for a leaf holding all of them. */
  brand: number;
  /** Sibling leaves whose similarity is within this of the top one are tied (the sibling rule looks at them). */
  siblingWindow: number;
  /** A word tells siblings apart only when the goods or category names of at most this many leaves in the whole tree carry it. */
  siblingWordLeaves: number;
}

export const CATEGORY_WEIGHTS: CategoryWeights = {
  levels: [1, 0.85, 0.55, 0.3],
  goods: 0.4,
  brand: 0.1,
  siblingWindow: 0.1,
  siblingWordLeaves: 2,
};

export const hierarchyText = (path: readonly string[]): string => path.join(' > ');

interface LeafEntry {
  leaf: LeafCategory;
  hierarchy: string;
  /** Indexes into `nodes`, leaf first. */
  nodes: number[];
}

/**
 * Ranks leaf categories for a product name, from the platform's own data:
 *
 * - **path**: how much of each category name on the leaf's path the name contains (character
 *   n-gram TF-IDF, the share of the category name's weight found in the name, tempered by
 *   cosine so a one-syllable name matching inside a longer word counts little), weighted by
 *   level (leaf > parent > grandparent > root), the best level deciding: `운동화` in a name
 *   points at every leaf under 운동화 and at none of the other 운동화-looking leaves;
 * - **goods**: cosine to the leaf's most similar existing goods name (cleaned the same way),
 *   which knows the words sellers really use (`갤럭시 버즈` is listed under 무선이어폰); n-gram
 *   weights count leaves, so product-line words shared by many leaves weigh little;
 * - **brand**: a small prior from where the matched brand's existing goods are listed.
 *
 * The stronger of path and goods leads the score, the weaker adds its share; the score stays in
 * [0, 1], so the confidence test's threshold and margin keep their meaning.
 */
export class CategoryClassifier {
  private readonly embeddings: CharNgramEmbeddings;
  private readonly leafIndex = new Map<string, number>();
  /** Per node, its name's alternatives (`샌들/슬리퍼` is 샌들 or 슬리퍼): vector and unspaced key. */
  private readonly nodes: { vector: SparseVector; key: string }[][] = [];
  private readonly leaves: LeafEntry[] = [];
  /** n-gram → (example index, weight): the most similar goods without comparing every example. */
  private readonly postings = new Map<string, { i: number; w: number }[]>();
  private readonly exampleLeaf: number[] = [];
  /** Words of each indexed goods name (cleaned), to say which of them a candidate matched. */
  private readonly exampleWords: string[][] = [];
  /** brand → node → number of the brand's goods under that node, and the brand's total. */
  private readonly brandCounts = new Map<string, Map<number, number>>();
  private readonly brandTotals = new Map<string, number>();
  /** word (2+ characters) → the leaves whose goods names or own category name carry it. */
  private readonly wordLeaves = new Map<string, Set<number>>();

  /** Build the classifier; the goods names are counted and indexed in slices (see `mapInSlices`). */
  static async build(leaves: readonly LeafCategory[], examples: readonly GoodsExample[] = []): Promise<CategoryClassifier> {
    const leafNos = new Set(leaves.map((l) => l.stdCtgNo));
    const known = examples.filter((e) => leafNos.has(e.stdCtgNo) && e.text.trim());
    const counts = await mapInSlices(known, (e) => ngramCounts(e.text));
    // Document frequency counts leaves, not goods: a word found in the goods of many leaves (a
    // product-line word such as 프리미엄) tells leaves apart no better than a common syllable.
    const perLeaf = new Map<string, Map<string, number>>();
    known.forEach((e, i) => {
      let grams = perLeaf.get(e.stdCtgNo);
      if (!grams) perLeaf.set(e.stdCtgNo, (grams = new Map<string, number>()));
      for (const gram of counts[i]!.keys()) grams.set(gram, 1);
    });
    const classifier = new CategoryClassifier(leaves, [...perLeaf.values()]);
    await mapInSlices(known, (e, i) => classifier.addExample(e, counts[i]!));
    return classifier;
  }

  private constructor(leaves: readonly LeafCategory[], leafGrams: readonly ReadonlyMap<string, number>[]) {
    const nodeIndex = new Map<string, number>();
    const nodeNames: string[] = [];
    const indexOf = (node: PathNode): number => {
      let i = nodeIndex.get(node.stdCtgNo);
      if (i === undefined) {
        i = nodeNames.length;
        nodeIndex.set(node.stdCtgNo, i);
        nodeNames.push(node.name);
      }
      return i;
    };
    for (const leaf of leaves) {
      this.leafIndex.set(leaf.stdCtgNo, this.leaves.length);
      this.leaves.push({ leaf, hierarchy: hierarchyText(leaf.path.map((p) => p.name)), nodes: [...leaf.path].reverse().map(indexOf) });
    }
    // The vocabulary and IDF come from the category names and the goods names together.
    this.embeddings = new CharNgramEmbeddings(
      nodeNames.flatMap((n) => n.split('/')),
      leafGrams,
    );
    this.leaves.forEach((entry, li) => {
      for (const part of entry.leaf.path.at(-1)!.name.split('/')) this.noteWord(words(part).join(''), li);
    });
    for (const name of nodeNames) {
      this.nodes.push(
        name
          .split('/')
          .map((part) => ({ vector: this.embeddings.sparse(part), key: words(part).join('') }))
          .filter((p) => p.key),
      );
    }
  }

  private addExample(e: GoodsExample, counts: ReadonlyMap<string, number>): void {
    const i = this.exampleLeaf.length;
    const leaf = this.leafIndex.get(e.stdCtgNo)!;
    this.exampleLeaf.push(leaf);
    this.exampleWords.push(words(e.text));
    for (const w of this.exampleWords[i]!) this.noteWord(w, leaf);
    for (const [gram, w] of this.embeddings.weigh(counts)) {
      let list = this.postings.get(gram);
      if (!list) this.postings.set(gram, (list = []));
      list.push({ i, w });
    }
    if (!e.brandNo) return;
    let brandCounts = this.brandCounts.get(e.brandNo);
    if (!brandCounts) this.brandCounts.set(e.brandNo, (brandCounts = new Map<number, number>()));
    for (const node of this.leaves[leaf]!.nodes) brandCounts.set(node, (brandCounts.get(node) ?? 0) + 1);
    this.brandTotals.set(e.brandNo, (this.brandTotals.get(e.brandNo) ?? 0) + 1);
  }

  private noteWord(word: string, leaf: number): void {
    if (word.length < 2) return;
    let set = this.wordLeaves.get(word);
    if (!set) this.wordLeaves.set(word, (set = new Set<number>()));
    set.add(leaf);
  }

  get size(): number {
    return this.leaves.length;
  }

  /** Goods names indexed for the nearest-goods signal. */
  get exampleCount(): number {
    return this.exampleLeaf.length;
  }

  /** The `k` best leaves, best first (ties by number, so answers are stable). */
  rank(text: string, k = 5, brandNo?: string): CategoryCandidate[] {
    const q = this.embeddings.sparse(text);
    if (q.size === 0) return [];
    const w = CATEGORY_WEIGHTS;
    // A category name written as a word of the name is a full match, however short (`배`).
    const written = new Set(words(text));
    const nodeMatch = this.nodes.map((parts) => Math.max(0, ...parts.map((p) => (written.has(p.key) ? 1 : match(q, p.vector)))));
    const { best: nearest, example } = this.nearestByLeaf(q);
    // With no goods at all to learn from (a new platform), the category names decide alone.
    const withGoods = this.exampleLeaf.length > 0;
    const brandCounts = brandNo ? this.brandCounts.get(brandNo) : undefined;
    const brandTotal = brandNo ? (this.brandTotals.get(brandNo) ?? 0) : 0;

    const scored: { li: number; similarity: number }[] = [];
    this.leaves.forEach((entry, li) => {
      let path = 0;
      entry.nodes.forEach((node, level) => {
        path = Math.max(path, (w.levels[level] ?? 0) * nodeMatch[node]!);
      });
      // A leaf without goods, or with goods unlike the name, keeps 1 − w.goods of its path score.
      const goods = nearest.get(li) ?? 0;
      let score = withGoods ? (1 - w.goods) * Math.max(path, goods) + w.goods * Math.min(path, goods) : path;
      if (brandCounts && brandTotal && score > 0) {
        // The share of the brand's goods in the leaf, under its parent and under its grandparent:
        // the brand's usual corner of the tree, never enough alone to pass the confidence test.
        const share = entry.nodes.slice(0, 3).reduce((s, node) => s + (brandCounts.get(node) ?? 0), 0) / (3 * brandTotal);
        score = Math.min(1, score + w.brand * share);
      }
      if (score > 0) scored.push({ li, similarity: Math.round(score * 10000) / 10000 });
    });
    const ranked = scored.sort(
      (a, b) => b.similarity - a.similarity || this.leaves[a.li]!.leaf.stdCtgNo.localeCompare(this.leaves[b.li]!.leaf.stdCtgNo),
    );
    const sibling = this.siblingRule(ranked, [...written]);
    return sibling.order.slice(0, k).map(({ li, similarity }) => {
      const found = this.reasonOf(li, [...written], example.get(li));
      const reason =
        sibling.chosen === li ? `${found.reason}; 같은 상위 분류의 다른 분류와 구별하는 말: ${sibling.words!.join(', ')}` : found.reason;
      const categoryWords = found.inPath;
      const c: CategoryCandidate = {
        stdCtgNo: this.leaves[li]!.leaf.stdCtgNo,
        stdCtgHierarchy: this.leaves[li]!.hierarchy,
        score: similarity,
        similarity,
        reason,
        categoryWords,
      };
      if (sibling.chosen === li) c.siblingWords = sibling.words;
      if (sibling.ruledOut.has(li)) c.ruledOut = true;
      if (sibling.tie && li === sibling.order[0]!.li) c.siblingTie = true;
      return c;
    });
  }

  /**
   * The sibling rule: when the leaves within `siblingWindow` of the top one include siblings of
   * it (same parent: 러닝화 and 스니커즈 under 운동화), the path cannot tell them apart. A word of
   * the name that the goods or category names of exactly one of those siblings carry, and of few
   * leaves in the whole tree (a product-line word such as 에어맥스, not 에어 or 프리미엄), decides:
   * that leaf goes first and the other tied siblings are ruled out. Words for two of them, or for
   * none, leave the tie as it is (`tie`).
   */
  private siblingRule(
    ranked: readonly { li: number; similarity: number }[],
    nameWords: readonly string[],
  ): { order: { li: number; similarity: number }[]; chosen?: number; words?: string[]; ruledOut: Set<number>; tie: boolean } {
    const none = { order: [...ranked], ruledOut: new Set<number>(), tie: false };
    const top = ranked[0];
    if (!top) return none;
    const parentOf = (li: number) => this.leaves[li]!.nodes[1];
    const parent = parentOf(top.li);
    if (parent === undefined) return none;
    const group = ranked.filter((c) => top.similarity - c.similarity < CATEGORY_WEIGHTS.siblingWindow && parentOf(c.li) === parent);
    if (group.length < 2) return none;
    const members = new Set(group.map((c) => c.li));
    const distinct = group.map((c) => ({
      c,
      words: nameWords.filter((w) => {
        const leaves = this.wordLeaves.get(w);
        if (!leaves?.has(c.li) || leaves.size > CATEGORY_WEIGHTS.siblingWordLeaves) return false;
        for (const other of members) if (other !== c.li && leaves.has(other)) return false;
        return true;
      }),
    }));
    const withWords = distinct.filter((d) => d.words.length > 0);
    if (withWords.length !== 1) return { ...none, tie: true };
    const chosen = withWords[0]!;
    const ruledOut = new Set([...members].filter((li) => li !== chosen.c.li));
    return { order: [chosen.c, ...ranked.filter((c) => c !== chosen.c)], chosen: chosen.c.li, words: chosen.words, ruledOut, tie: false };
  }

  /** `일치한 말: 러닝화 (분류명), 쿠셔닝 (비슷한 상품명)`: the name's words this leaf matched, by where. */
  private reasonOf(li: number, nameWords: readonly string[], nearestExample: number | undefined): { reason: string; inPath: number } {
    const pathKeys = this.leaves[li]!.nodes.flatMap((node) => this.nodes[node]!.map((p) => p.key));
    const inPath = nameWords.filter(
      (w) => w.length >= 1 && pathKeys.some((k) => k === w || (w.length >= 2 && (k.includes(w) || w.includes(k)))),
    );
    const goodsWords = nearestExample === undefined ? [] : this.exampleWords[nearestExample]!;
    const inGoods = nameWords.filter((w) => w.length >= 2 && !inPath.includes(w) && goodsWords.includes(w));
    const parts = [...inPath.map((w) => `${w} (분류명)`), ...inGoods.map((w) => `${w} (비슷한 상품명)`)];
    return { reason: parts.length ? `일치한 말: ${parts.join(', ')}` : '글자 조각이 비슷합니다', inPath: inPath.length };
  }

  /** Per leaf, the cosine of its goods name most similar to the query, and which goods name that is (leaves sharing nothing are absent). */
  private nearestByLeaf(q: SparseVector): { best: Map<number, number>; example: Map<number, number> } {
    const dots = new Map<number, number>();
    for (const [gram, qw] of q) {
      const list = this.postings.get(gram);
      if (list) for (const { i, w } of list) dots.set(i, (dots.get(i) ?? 0) + qw * w);
    }
    const best = new Map<number, number>();
    const example = new Map<number, number>();
    for (const [i, dot] of dots) {
      const leaf = this.exampleLeaf[i]!;
      if (dot > (best.get(leaf) ?? 0)) {
        best.set(leaf, dot);
        example.set(leaf, i);
      }
    }
    return { best, example };
  }
}

/**
 * How well a product name (`q`) contains a category name (`n`), both normalised: the share of
 * the category name's weight present in the name, times the cosine's square root, so a short
 * name found inside a longer, different word scores low.
 */
function match(q: SparseVector, n: SparseVector): number {
  let covered = 0;
  let dot = 0;
  for (const [gram, nw] of n) {
    const qw = q.get(gram);
    if (qw === undefined) continue;
    covered += nw * nw;
    dot += nw * qw;
  }
  return covered * Math.sqrt(dot);
}
