import type { BackofficeDeps } from '../deps.ts';
import { MasterCache } from './autofill/master-cache.ts';
import { AiRunner } from './provider/ai-runner.ts';
import { OfflineProvider } from './provider/offline-provider.ts';
import { ChatModelProvider } from './provider/chat-model-provider.ts';
import type { AiProvider } from './provider/types.ts';
import { SharedReads } from '@bo/service-kit';
import type { AiScoredRow } from './model.ts';
import { GoodsSplit } from './data-access/goods-split.ts';

/** The long-lived parts of the AI component, built once per app from the config. */
export interface AiComponent {
  provider: AiProvider;
  runner: AiRunner;
  masters: MasterCache;
  /** The recommended list's scorings of the same conditions arriving together share one read. */
  listReads: SharedReads<AiScoredRow[]>;
  /** The middle goods number, where the list's scoring splits the catalogue for two connections. */
  listSplit: GoodsSplit;
}

export function createAiComponent(deps: BackofficeDeps): AiComponent {
  const c = deps.config;
  const provider: AiProvider = c.AI_BASE_URL
    ? new ChatModelProvider({
        provider: c.AI_PROVIDER,
        baseURL: c.AI_BASE_URL,
        apiKey: c.AI_API_KEY,
        model: c.AI_MODEL,
        timeoutMs: c.AI_TIMEOUT_MS,
        maxRetries: c.AI_MAX_RETRIES,
        method: c.AI_STRUCTURED_METHOD,
      })
    : new OfflineProvider();
  return {
    provider,
    runner: new AiRunner({
      concurrency: c.AI_MAX_CONCURRENCY,
      maxQueue: c.AI_MAX_QUEUE,
      timeoutMs: c.AI_TIMEOUT_MS,
      logger: deps.logger,
      // Only a model endpoint can be down; the offline provider needs no breaker.
      halfOpenAfterMs: c.AI_BASE_URL ? c.AI_BREAKER_HALF_OPEN_MS : undefined,
    }),
    masters: new MasterCache(deps.knex, {
      refreshMs: c.AI_MASTER_REFRESH_MS,
      fuzzyMin: c.AI_BRAND_FUZZY_MIN,
      goodsPerLeaf: c.AI_CATEGORY_GOODS_PER_LEAF,
      logger: deps.logger,
    }),
    listReads: new SharedReads<AiScoredRow[]>(),
    listSplit: new GoodsSplit(deps.knex, c.AI_MASTER_REFRESH_MS),
  };
}
