import type { Router } from 'express';
import {
  findOperation,
  type GoodsReviewStatusRequest,
  type QnaAnswerStatusRequest,
  type RestockNoticeStatusRequest,
  type SaleStockStatusRequest,
} from '@bo/contracts';
import { AppError, mountOperation, type AuthPrincipal } from '@bo/service-kit';
import type { BackofficeDeps } from '../deps.ts';
import { resolveDashboardScope } from './dashboard-scope.ts';
import { qnaAnswerStatus } from './qna-answer-status.ts';
import { restockNoticeStatus } from './restock-notice-status.ts';
import { reviewStatus } from './review-status.ts';
import { saleStockStatus } from './sale-stock-status.ts';

/** Bearer auth runs before every operation; this only narrows the type. */
const principal = (auth: AuthPrincipal | undefined): AuthPrincipal => {
  if (!auth) throw new AppError('UNAUTHENTICATED');
  return auth;
};

/** Dashboard goods counts (spec 4.4), each scoped by the caller's token. */
export function mountDashboardRoutes(router: Router, deps: BackofficeDeps): void {
  const { knex } = deps;
  const now = deps.clock ?? (() => new Date());

  mountOperation<SaleStockStatusRequest>(router, findOperation('getGoodsSaleStockStatus'), async ({ query, auth }) =>
    saleStockStatus(knex, await resolveDashboardScope(knex, principal(auth), query)),
  );

  mountOperation<RestockNoticeStatusRequest>(router, findOperation('getRestockNoticeStatus'), async ({ query, auth }) =>
    restockNoticeStatus(knex, await resolveDashboardScope(knex, principal(auth), query), query.siteNo),
  );

  mountOperation<QnaAnswerStatusRequest>(router, findOperation('getQnaAnswerStatus'), async ({ query, auth }) =>
    qnaAnswerStatus(knex, await resolveDashboardScope(knex, principal(auth), query), query.procStatCd),
  );

  mountOperation<GoodsReviewStatusRequest>(router, findOperation('getGoodsReviewStatus'), async ({ query, auth }) =>
    reviewStatus(knex, await resolveDashboardScope(knex, principal(auth), query), query.siteNo, now(), deps.config.PLATFORM_TIME_ZONE),
  );
}
