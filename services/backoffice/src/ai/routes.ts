import type { RequestHandler, Router } from 'express';
import {
  findOperation,
  type AiGoodsAutoFillRequest,
  type AiGoodsAutoFillResponse,
  type AiGoodsDescRequest,
  type AiGoodsListRequest,
  type EnvelopeOf,
  type OperationSpec,
} from '@bo/contracts';
import { mountOperation, redisRateLimit, type OperationHandler } from '@bo/service-kit';
import type { BackofficeDeps } from '../deps.ts';
import { createAiComponent } from './ai-component.ts';
import { categoryThresholds } from './ai-config.ts';
import { autoFillAnswer } from './autofill/auto-fill.ts';
import { describeGoods } from './description/goods-description.ts';
import { recommendedGoods } from './list/ai-goods-list.ts';

/**
 * One budget per user (the token's `sub`) over the five AI operations, counted in Redis so
 * that every copy of the service shares it. Off at AI_RATE_LIMIT_PER_MINUTE=0 or without Redis.
 */
function aiRateLimit(deps: BackofficeDeps): RequestHandler | undefined {
  const perMinute = deps.config.AI_RATE_LIMIT_PER_MINUTE;
  if (perMinute === 0 || !deps.redis) return undefined;
  return redisRateLimit({
    redis: deps.redis,
    keyPrefix: `${deps.config.REDIS_PREFIX}:ai-rate`,
    points: perMinute,
    windowSeconds: 60,
    keyOf: (req) => req.auth?.userId,
    logger: deps.logger,
  });
}

/** The five AI goods operations (spec 4.1); the v1 ones answer like v2 plus deprecation headers. */
export function mountAiRoutes(router: Router, deps: BackofficeDeps): void {
  const ai = createAiComponent(deps);
  const c = deps.config;
  const limit = aiRateLimit(deps);
  // The limit runs ahead of the operation, after the guards: the caller is known, the request not yet validated.
  const mount = <Q = unknown, B = unknown>(op: OperationSpec, handler: OperationHandler<Q, B>) =>
    mountOperation<Q, B>(router, op, handler, { before: limit ? [limit] : [] });
  const scopeOf = (auth?: { entrNo?: string }) => ({ entrNo: auth?.entrNo || undefined });
  const describe = (request: AiGoodsDescRequest, auth?: { entrNo?: string }) =>
    describeGoods(request, scopeOf(auth), {
      knex: deps.knex,
      masters: ai.masters,
      provider: ai.provider,
      runner: ai.runner,
      maxPages: c.AI_DESC_MAX_PAGES,
    });
  const list = (request: AiGoodsListRequest, auth?: { entrNo?: string }) =>
    recommendedGoods(request, scopeOf(auth), {
      knex: deps.knex,
      timeZone: c.PLATFORM_TIME_ZONE,
      now: deps.clock?.() ?? new Date(),
      windowDays: c.AI_LIST_WINDOW_DAYS,
      minInflow: c.AI_LIST_MIN_INFLOW,
      maxConversion: c.AI_LIST_MAX_CONVERSION,
      minScore: c.AI_LIST_MIN_SCORE,
      sharedReads: ai.listReads,
      split: ai.listSplit,
    });

  mount<unknown, AiGoodsDescRequest>(findOperation('getAiGoodsDescV2'), ({ body, auth }) => describe(body, auth));
  mount<AiGoodsDescRequest>(findOperation('getAiGoodsDescV1'), ({ query, auth }) => describe(query, auth));
  mount<unknown, AiGoodsAutoFillRequest>(findOperation('getAiGoodsAutoFill'), async ({ body, res }) => {
    const answer = await autoFillAnswer(body.productName, {
      masters: await ai.masters.get(),
      provider: ai.provider,
      runner: ai.runner,
      thresholds: categoryThresholds(c),
    });
    if (!answer.message) return answer.payload;
    // A fallback is still a success; its envelope says where the answer came from.
    const envelope: EnvelopeOf<AiGoodsAutoFillResponse> = {
      timestamp: new Date().toISOString(),
      code: '0000',
      message: answer.message,
      isProcess: true,
      payload: answer.payload,
      error: false,
      errors: [],
    };
    res.json(envelope);
    return undefined;
  });
  mount<AiGoodsListRequest>(findOperation('getAiGoodsListV2'), ({ query, auth }) => list(query, auth));
  mount<AiGoodsListRequest>(findOperation('getAiGoodsListV1'), ({ query, auth }) => list(query, auth));
}
