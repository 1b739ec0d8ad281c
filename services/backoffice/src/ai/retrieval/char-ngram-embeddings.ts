import { Embeddings } from '@langchain/core/embeddings';
import { ngramCounts } from '../text/char-ngrams.ts';

/** A sparse, L2-normalised vector: n-gram → weight. */
export type SparseVector = Map<string, number>;

/**
 * TF-IDF over character n-grams of unspaced text, as a LangChain `Embeddings`: the offline
 * provider and the model provider retrieve through the same vectors. The vocabulary and IDF come
 * from the corpus it is fitted on; n-grams outside it carry no weight (they cannot tell corpus
 * entries apart). `sparse()` is the fast path for in-process scoring; `embedQuery` and
 * `embedDocuments` give the same vectors densely over the vocabulary. A large corpus may be
 * given as n-gram counts already made (`counted`), which `weigh()` turns into vectors without
 * counting again.
 */
export class CharNgramEmbeddings extends Embeddings {
  private readonly idf = new Map<string, number>();
  private readonly index = new Map<string, number>();

  constructor(corpus: readonly string[], counted: readonly ReadonlyMap<string, number>[] = []) {
    super({});
    const df = new Map<string, number>();
    for (const counts of [...corpus.map((text) => ngramCounts(text)), ...counted]) {
      for (const gram of counts.keys()) df.set(gram, (df.get(gram) ?? 0) + 1);
    }
    const n = corpus.length + counted.length;
    for (const [gram, count] of df) {
      this.idf.set(gram, Math.log((n + 1) / (count + 1)) + 1);
      this.index.set(gram, this.index.size);
    }
  }

  get dimensions(): number {
    return this.index.size;
  }

  /** Sublinear TF × IDF, normalised. */
  sparse(text: string): SparseVector {
    return this.weigh(ngramCounts(text));
  }

  /** The vector of n-gram counts made with `ngramCounts`. */
  weigh(counts: ReadonlyMap<string, number>): SparseVector {
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [gram, count] of counts) {
      const idf = this.idf.get(gram);
      if (idf === undefined) continue;
      const w = (1 + Math.log(count)) * idf;
      vector.set(gram, w);
      norm += w * w;
    }
    return normalise(vector, Math.sqrt(norm));
  }

  embedDocuments(documents: string[]): Promise<number[][]> {
    return Promise.resolve(documents.map((d) => this.dense(this.sparse(d))));
  }

  embedQuery(document: string): Promise<number[]> {
    return Promise.resolve(this.dense(this.sparse(document)));
  }

  private dense(vector: SparseVector): number[] {
    const out = new Array<number>(this.index.size).fill(0);
    for (const [gram, w] of vector) out[this.index.get(gram)!] = w;
    return out;
  }
}

function normalise(vector: SparseVector, norm: number): SparseVector {
  if (norm > 0) for (const [k, v] of vector) vector.set(k, v / norm);
  return vector;
}

/** Cosine of two normalised sparse vectors. */
export function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [k, v] of small) {
    const w = large.get(k);
    if (w !== undefined) dot += v * w;
  }
  return dot;
}
