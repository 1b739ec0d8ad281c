import type { Knex } from '@bo/db';
import { Document } from '@langchain/core/documents';
import {
  AI_DESC_CONTENT_SCHEMAS,
  AI_DESC_OPTIONS,
  compileValidator,
  createAjv,
  type AiDescOutput,
  type AiGoodsDescRequest,
  type AiGoodsDescResponse,
} from '@bo/contracts';
import { AppError, fieldError } from '@bo/service-kit';
import type { MasterCache } from '../autofill/master-cache.ts';
import type { AiRunner } from '../provider/ai-runner.ts';
import type { AiProvider, DescPage } from '../provider/types.ts';
import { NgramRetriever } from '../retrieval/ngram-retriever.ts';
import { descOptionsInUse, findDescOption, findDocPages, findGoodsFacts } from '../data-access/goods-facts.ts';
import { verifiedCitations } from './citations.ts';

export interface DescriptionContext {
  knex: Knex;
  masters: MasterCache;
  provider: AiProvider;
  runner: AiRunner;
  maxPages: number;
}

const ajv = createAjv();
const contentValidators = Object.fromEntries(
  Object.entries(AI_DESC_CONTENT_SCHEMAS).map(([kind, schema]) => [kind, compileValidator(ajv, schema)]),
) as Record<AiDescOutput, ReturnType<typeof compileValidator>>;

/** The output kind of a PR050 option; an option in cm_cd this build does not know is detail text. */
/** The output shape of a PR050 option; undefined for a code added to PR050 without a known shape. */
const kindOf = (option: string): AiDescOutput | undefined => (AI_DESC_OPTIONS as Record<string, { output: AiDescOutput }>)[option]?.output;

/**
 * A goods description for one PR050 option, grounded in the goods' document pages: the pages
 * most similar to the request are retrieved, the provider writes from them, the content is
 * checked against the option's schema, and the citations are the pages the content really used.
 */
export async function describeGoods(
  request: AiGoodsDescRequest,
  scope: { entrNo?: string },
  ctx: DescriptionContext,
): Promise<AiGoodsDescResponse> {
  const [option, goods] = await Promise.all([
    findDescOption(ctx.knex, request.option),
    findGoodsFacts(ctx.knex, request.goodsNo, scope.entrNo),
  ]);
  if (!option) {
    const inUse = (await descOptionsInUse(ctx.knex)).map((o) => `"${o.cd}" (${o.cdNm})`).join(', ');
    throw fieldError('option', `must be one of ${inUse || 'the PR050 options in use (none is)'} (got ${JSON.stringify(request.option)})`);
  }
  if (!goods) throw new AppError('GOODS_NOT_FOUND', { message: `No goods with goods number ${request.goodsNo}` });
  const kind = kindOf(option.cd);
  // A code added to PR050 without an output shape is not answered as plain text by guess.
  if (!kind) {
    throw fieldError(
      'option',
      `PR050 option ${option.cd} (${option.cdNm}) has no known output shape; known options: ${Object.keys(AI_DESC_OPTIONS).join(', ')}`,
    );
  }
  const masters = await ctx.masters.get();
  const hierarchy = masters.hierarchyOf(goods.stdCtgNo) || undefined;
  const query = [goods.goodsNm, option.cdNm, request.additionalInfo].filter(Boolean).join(' ');
  const pages = await relevantPages(ctx.knex, goods.goodsNo, query, ctx.maxPages);

  // The content is checked inside the run, so a draft that does not fit is logged by the runner.
  const draft = await ctx.runner.run(async (signal) => {
    const written = await ctx.provider.describe(
      {
        kind,
        optionName: option.cdNm,
        goods: {
          goodsNo: goods.goodsNo,
          goodsNm: goods.goodsNm,
          brandNm: goods.brandNm ?? undefined,
          hierarchy,
          modlNm: goods.modlNm ?? undefined,
          mfcoNm: goods.mfcoNm ?? undefined,
          homeNm: goods.homeNm ?? undefined,
        },
        pages,
        additionalInfo: request.additionalInfo,
        query,
      },
      signal,
    );
    const checked = contentValidators[kind](written.content);
    if (!checked.ok) {
      const detail = `the ${kind} content does not fit its schema: ${checked.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`;
      throw new AppError('AI_BAD_OUTPUT', { cause: new Error(detail), isOperational: true });
    }
    return written;
  });
  return {
    result: 'SUCCESS',
    content: typeof draft.content === 'string' ? draft.content : JSON.stringify(draft.content),
    citations: verifiedCitations(draft.content, pages, draft.sources, [goods.goodsNm, goods.brandNm ?? '']),
  };
}

/**
 * Up to `max` pages of the goods, the ones most similar to the request first. Pages that share
 * nothing with the request follow in document order while there is room: every page of a
 * goods is about that goods, and the writer ranks the sentences again.
 */
async function relevantPages(knex: Knex, goodsNo: string, query: string, max: number): Promise<DescPage[]> {
  const rows = await findDocPages(knex, goodsNo);
  if (rows.length === 0) return [];
  const docs = rows.map((r) => new Document({ pageContent: r.pageText, metadata: { fileName: r.fileNm, pageNumber: r.pageNo } }));
  const found = await new NgramRetriever(docs, max).invoke(query);
  const key = (d: Document) => `${String(d.metadata.fileName)}#${String(d.metadata.pageNumber)}`;
  const foundKeys = new Set(found.map(key));
  const chosen = [...found, ...docs.filter((d) => !foundKeys.has(key(d)))].slice(0, max);
  return chosen.map((d, i) => ({
    id: `P${i + 1}`,
    fileName: String(d.metadata.fileName),
    pageNumber: Number(d.metadata.pageNumber),
    text: d.pageContent,
  }));
}
