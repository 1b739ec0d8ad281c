import type { Router } from 'express';
import { findOperation, type AiGoodsAutoFillRequest, type AiGoodsDescRequest, type AiGoodsListRequest } from '@bo/contracts';
import { mountOperation } from '@bo/service-kit';
import type { BackofficeDeps } from '../app.ts';
import { createAiComponent } from './ai-component.ts';
import { autoFill } from './autofill/auto-fill.ts';
import { describeGoods } from './description/goods-description.ts';
import { recommendedGoods } from './list/ai-goods-list.ts';

/** The five AI goods operations (spec 4.1); the v1 ones answer like v2 plus deprecation headers. */
export function mountAiRoutes(router: Router, deps: BackofficeDeps): void {
  const ai = createAiComponent(deps);
  const c = deps.config;
  const scopeOf = (auth?: { entrNo?: string }) => ({ entrNo: auth?.entrNo || undefined });
  const describe = (request: AiGoodsDescRequest, auth?: { entrNo?: string }) =>
    describeGoods(request, scopeOf(auth), { knex: deps.knex, masters: ai.masters, provider: ai.provider, runner: ai.runner, maxPages: c.AI_DESC_MAX_PAGES });
  const list = (request: AiGoodsListRequest, auth?: { entrNo?: string }) =>
    recommendedGoods(request, scopeOf(auth), {
      knex: deps.knex,
      timeZone: c.PLATFORM_TIME_ZONE,
      now: deps.clock?.() ?? new Date(),
      windowDays: c.AI_LIST_WINDOW_DAYS,
      minInflow: c.AI_LIST_MIN_INFLOW,
      maxConversion: c.AI_LIST_MAX_CONVERSION,
    });

  mountOperation<unknown, AiGoodsDescRequest>(router, findOperation('getAiGoodsDescV2'), ({ body, auth }) => describe(body, auth));
  mountOperation<AiGoodsDescRequest>(router, findOperation('getAiGoodsDescV1'), ({ query, auth }) => describe(query, auth));
  mountOperation<unknown, AiGoodsAutoFillRequest>(router, findOperation('getAiGoodsAutoFill'), async ({ body }) =>
    autoFill(body.productName, {
      masters: await ai.masters.get(),
      provider: ai.provider,
      runner: ai.runner,
      thresholds: { minScore: c.AI_CATEGORY_MIN_SCORE, minMargin: c.AI_CATEGORY_MIN_MARGIN },
    }),
  );
  mountOperation<AiGoodsListRequest>(router, findOperation('getAiGoodsListV2'), ({ query, auth }) => list(query, auth));
  mountOperation<AiGoodsListRequest>(router, findOperation('getAiGoodsListV1'), ({ query, auth }) => list(query, auth));
}
