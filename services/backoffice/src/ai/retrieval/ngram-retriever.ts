import { BaseRetriever } from '@langchain/core/retrievers';
import { Document } from '@langchain/core/documents';
import { CharNgramEmbeddings, cosine, type SparseVector } from './char-ngram-embeddings.ts';

/**
 * A LangChain retriever over a small in-memory corpus (the document pages of one goods item),
 * ranking by cosine of character n-gram TF-IDF vectors. Each returned document carries its
 * `score` in the metadata; documents that share nothing with the query are not returned.
 */
export class NgramRetriever<M extends Record<string, unknown> = Record<string, unknown>> extends BaseRetriever<M & { score: number }> {
  lc_namespace = ['bo', 'ai', 'retrievers'];
  private readonly embeddings: CharNgramEmbeddings;
  private readonly vectors: SparseVector[];

  constructor(
    private readonly documents: readonly Document<M>[],
    private readonly k: number,
  ) {
    super();
    this.embeddings = new CharNgramEmbeddings(documents.map((d) => d.pageContent));
    this.vectors = documents.map((d) => this.embeddings.sparse(d.pageContent));
  }

  override _getRelevantDocuments(query: string): Promise<Document<M & { score: number }>[]> {
    const q = this.embeddings.sparse(query);
    const found = this.documents
      .map((doc, i) => ({ doc, score: cosine(q, this.vectors[i]!) }))
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, this.k)
      .map(({ doc, score }) => new Document({ pageContent: doc.pageContent, metadata: { ...doc.metadata, score }, id: doc.id }));
    return Promise.resolve(found);
  }
}
