import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import * as ai from './ai.ts';
import * as st from './statistics.ts';
import * as db from './dashboard.ts';
import * as mb from './member.ts';

export type ServiceName = 'backoffice' | 'member';

/** One operation of the spec: what the router mounts, what validation checks, what OpenAPI lists. */
export interface OperationSpec {
  service: ServiceName;
  method: 'get' | 'post';
  /** Path below the service prefix, exactly as in the spec. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  query?: TObject;
  body?: TObject;
  /** Query fields that the spec marks R beyond the schema's own `required` (documentation only). */
  response: TSchema | 'excel' | 'empty';
  /** The success body and the failure body are the result envelope. */
  envelope?: boolean;
  deprecated?: { successor: string };
  /** bearer: back-office JWT; internal: member service, internal callers only. */
  auth: 'bearer' | 'internal';
  /** Request headers the operation reads. */
  headers?: { name: string; description: string }[];
  /** Headers of the success answer. */
  responseHeaders?: { name: string; description: string; type: 'string' | 'integer' }[];
}

/** Headers of a successful `dcLimIncDec` (its body stays empty, as the spec has it). */
export const APPLIED_AMOUNT_HEADER = 'X-Applied-Amount';
export const REMAINING_AMOUNT_HEADER = 'X-Remaining-Amount';

const bo = (o: Omit<OperationSpec, 'service' | 'auth'>): OperationSpec => ({ ...o, service: 'backoffice', auth: 'bearer' });

const periodSummary = 'Order (01) or sales (02) status by day or month';
const hourlySummary = 'Order (01) or sales (02) status of the 24 hours of one day';

export const OPERATIONS: readonly OperationSpec[] = [
  // 4.1 AI goods
  bo({
    method: 'post',
    path: '/v2/goods/ai/getAiGoodsDesc',
    operationId: 'getAiGoodsDescV2',
    tag: 'AI goods',
    summary: 'Generate a goods detail description with citations',
    body: ai.AiGoodsDescRequest,
    response: ai.AiGoodsDescResponse,
  }),
  bo({
    method: 'post',
    path: '/v2/goods/ai/getAiGoodsAutoFill',
    operationId: 'getAiGoodsAutoFill',
    tag: 'AI goods',
    summary: 'Auto-fill registration fields from a product name (nothing is saved)',
    body: ai.AiGoodsAutoFillRequest,
    response: ai.AiGoodsAutoFillEnvelope,
    envelope: true,
  }),
  bo({
    method: 'get',
    path: '/v2/goods/ai/getAiGoodsList',
    operationId: 'getAiGoodsListV2',
    tag: 'AI goods',
    summary: 'Goods the AI recommends for attention, with reasons',
    query: ai.AiGoodsListRequest,
    response: ai.AiGoodsListEnvelope,
    envelope: true,
  }),
  bo({
    method: 'get',
    path: '/v1/goods/ai/getAiGoodsList',
    operationId: 'getAiGoodsListV1',
    tag: 'AI goods',
    summary: 'Goods the AI recommends (deprecated: use v2)',
    query: ai.AiGoodsListRequest,
    response: ai.AiGoodsListEnvelope,
    envelope: true,
    deprecated: { successor: '/v2/goods/ai/getAiGoodsList' },
  }),
  bo({
    method: 'get',
    path: '/v1/goods/ai/getAiGoodsDesc',
    operationId: 'getAiGoodsDescV1',
    tag: 'AI goods',
    summary: 'Generate a goods detail description (deprecated: use POST v2)',
    query: ai.AiGoodsDescRequest,
    response: ai.AiGoodsDescResponse,
    deprecated: { successor: '/v2/goods/ai/getAiGoodsDesc' },
  }),
  // 4.2 graph data
  bo({
    method: 'post',
    path: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusGraphData',
    operationId: 'getPeriodBasedStatusGraphData',
    tag: 'Statistics',
    summary: `${periodSummary}: totals and comparison with the previous period`,
    body: st.PeriodStatusRequest,
    response: st.OrderStatusRow,
  }),
  bo({
    method: 'post',
    path: '/v1/statistics/hourBasedStatus/getHourBasedStatusGraphData',
    operationId: 'getHourBasedStatusGraphData',
    tag: 'Statistics',
    summary: `${hourlySummary}: totals and comparison with the day before`,
    body: st.HourlyStatusRequest,
    response: st.OrderStatusRow,
  }),
  bo({
    method: 'get',
    path: '/v2/statistics/period/sales-status/graph-data',
    operationId: 'getPeriodSalesStatusGraphData',
    tag: 'Statistics',
    summary: `${periodSummary}: graph data (GET)`,
    query: st.PeriodStatusRequest,
    response: st.OrderStatusRow,
  }),
  bo({
    method: 'get',
    path: '/v2/statistics/period/hourly/sales-status/graph-data',
    operationId: 'getHourlySalesStatusGraphData',
    tag: 'Statistics',
    summary: `${hourlySummary}: graph data (GET)`,
    query: st.HourlyStatusRequest,
    response: st.OrderStatusRow,
  }),
  // 4.3 lists and downloads
  bo({
    method: 'get',
    path: '/v2/statistics/category/sales-status',
    operationId: 'getCategorySalesStatusTop',
    tag: 'Statistics',
    summary: 'TOP-N standard categories by net amount (no paging; supplier tokens: 403)',
    query: st.CategoryStatusRequest,
    response: st.CategoryTopList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/periodBasedStatus/getPeriodBasedStatusList',
    operationId: 'getPeriodBasedStatusList',
    tag: 'Statistics',
    summary: `${periodSummary}: grid list`,
    query: st.PeriodStatusRequest,
    response: st.OrderStatusList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/periodBasedStatus/downloadPeriodBasedStatusExcel',
    operationId: 'downloadPeriodBasedStatusExcel',
    tag: 'Statistics',
    summary: `${periodSummary}: Excel download`,
    query: st.PeriodStatusRequest,
    response: 'excel',
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/payWayStatus/getPayWayStatusList',
    operationId: 'getPayWayStatusList',
    tag: 'Statistics',
    summary: 'Status by payment method: grid list (supplier tokens: 403)',
    query: st.PayWayStatusRequest,
    response: st.PayWayStatusList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/payWayStatus/payWayStatusExcelDownload',
    operationId: 'payWayStatusExcelDownload',
    tag: 'Statistics',
    summary: 'Status by payment method: Excel download (supplier tokens: 403)',
    query: st.PayWayStatusRequest,
    response: 'excel',
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/hourBasedStatus/getHourBasedStatusList',
    operationId: 'getHourBasedStatusList',
    tag: 'Statistics',
    summary: `${hourlySummary}: grid list`,
    query: st.HourlyStatusRequest,
    response: st.OrderStatusList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/hourBasedStatus/downloadHourBasedStatusExcel',
    operationId: 'downloadHourBasedStatusExcel',
    tag: 'Statistics',
    summary: `${hourlySummary}: Excel download`,
    query: withRequired(st.HourlyStatusRequest, 'fileName'),
    response: 'excel',
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/goodsStatus/getGoodsStatusList',
    operationId: 'getGoodsStatusList',
    tag: 'Statistics',
    summary: 'Status by goods: grid list',
    query: st.GoodsStatusRequest,
    response: st.GoodsStatusList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/goodsStatus/downloadGoodsStatusExcel',
    operationId: 'downloadGoodsStatusExcel',
    tag: 'Statistics',
    summary: 'Status by goods: Excel download',
    query: withRequired(st.GoodsStatusRequest, 'fileName'),
    response: 'excel',
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/enterpriseStatus/getEnterpriseStatusList',
    operationId: 'getEnterpriseStatusList',
    tag: 'Statistics',
    summary: 'Status by supplier: grid list',
    query: st.EnterpriseStatusRequest,
    response: st.EnterpriseStatusList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/enterpriseStatus/downloadEnterpriseStatusExcel',
    operationId: 'downloadEnterpriseStatusExcel',
    tag: 'Statistics',
    summary: 'Status by supplier: Excel download',
    query: withRequired(st.EnterpriseStatusRequest, 'fileName'),
    response: 'excel',
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/categoryStatus/getCategoryStatusList',
    operationId: 'getCategoryStatusList',
    tag: 'Statistics',
    summary: 'Status by standard category: grid list (supplier tokens: 403)',
    query: st.CategoryStatusRequest,
    response: st.CategoryStatusList,
  }),
  bo({
    method: 'get',
    path: '/v1/statistics/categoryStatus/categoryStatusExcelDownload',
    operationId: 'categoryStatusExcelDownload',
    tag: 'Statistics',
    summary: 'Status by standard category: Excel download (supplier tokens: 403)',
    query: st.CategoryStatusRequest,
    response: 'excel',
  }),
  // 4.4 dashboard
  bo({
    method: 'get',
    path: '/v2/dashboard/goods/sale-stock-status',
    operationId: 'getGoodsSaleStockStatus',
    tag: 'Dashboard',
    summary: 'Goods counts by sale status',
    query: db.SaleStockStatusRequest,
    response: db.SaleStockStatus,
  }),
  bo({
    method: 'get',
    path: '/v2/dashboard/goods/restock-notice-status',
    operationId: 'getRestockNoticeStatus',
    tag: 'Dashboard',
    summary: 'Restock-notice requests waiting, most requested goods first',
    query: db.RestockNoticeStatusRequest,
    response: db.RestockNoticeStatus,
  }),
  bo({
    method: 'get',
    path: '/v2/dashboard/goods/qna-answer-status',
    operationId: 'getQnaAnswerStatus',
    tag: 'Dashboard',
    summary: 'Goods questions and the newest ten',
    query: db.QnaAnswerStatusRequest,
    response: db.QnaAnswerStatus,
  }),
  bo({
    method: 'get',
    path: '/v2/dashboard/goods/goods-review-status',
    operationId: 'getGoodsReviewStatus',
    tag: 'Dashboard',
    summary: 'Reviews of the last 7 days: new, high-rated, low-rated',
    query: db.GoodsReviewStatusRequest,
    response: db.GoodsReviewStatus,
  }),
  // 4.5 member
  {
    service: 'member',
    auth: 'internal',
    method: 'post',
    path: '/v1/staff/dcLimIncDec',
    operationId: 'dcLimIncDec',
    tag: 'Staff discount limit',
    summary: 'Increase (10) or decrease (20) the remaining staff discount limit',
    body: mb.StaffDcLimIncDecRequest,
    response: 'empty',
    headers: [
      {
        name: 'Idempotency-Key',
        description:
          'optional, 1-200 visible ASCII characters (an sf-string in quotes or bare), unique across the member service; a retry with the same key and body returns the first outcome (success, 6101, 6102 or 6105) without applying again and with `Idempotent-Replayed: true`; the same key with another body answers 900 with httpStatus 422 (6103); a retry while the first is still running answers 900 with httpStatus 409 (6104); kept IDEMPOTENCY_KEY_TTL_HOURS (at least 24 h). Without a key a change is still applied at most once per natural key: member, rsrvUseGbCd, ordNo, claimNo and ordFvrCostSeq (absent and empty alike); a repeat with the same amount returns the first outcome with `Idempotent-Replayed: true`, one with another amount answers 900 with httpStatus 409 (6105)',
      },
    ],
    responseHeaders: [
      {
        name: APPLIED_AMOUNT_HEADER,
        type: 'integer',
        description:
          'the amount this change applied: ocurAmt, or less for an increase that stopped at the limit (rule 3); on a replay, what the first request applied',
      },
      {
        name: REMAINING_AMOUNT_HEADER,
        type: 'integer',
        description: 'the remaining amount right after the change (on a replay: right after the first request)',
      },
      {
        name: 'Idempotent-Replayed',
        type: 'string',
        description: '`true` when the answer is that of an earlier request, not applied again',
      },
    ],
  },
  {
    service: 'member',
    auth: 'internal',
    method: 'get',
    path: '/v1/staff/getDsctLmtStatBO',
    operationId: 'getDsctLmtStatBO',
    tag: 'Staff discount limit',
    summary: 'Read the staff discount limit of a member',
    query: mb.StaffDcLimStatRequest,
    response: mb.StaffDcLimStat,
  },
];

/** The same query object with `fileName` required (the Excel downloads that need it). */
function withRequired(schema: TObject, field: 'fileName'): TObject {
  const id = (schema as TObject & { $id?: string }).$id;
  return Type.Object(
    {
      ...schema.properties,
      [field]: Type.String({ minLength: 1, maxLength: 200, description: 'Excel file name (.xlsx is added when missing)' }),
    },
    { $id: `${id}WithFileName` },
  );
}

export const operationsOf = (service: ServiceName): OperationSpec[] => OPERATIONS.filter((o) => o.service === service);

export const findOperation = (operationId: string): OperationSpec => {
  const op = OPERATIONS.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`unknown operation ${operationId}`);
  return op;
};
