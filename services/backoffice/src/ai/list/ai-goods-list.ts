import type { Knex } from '@bo/db';
import { addDays, platformToday } from '@bo/db';
import type { AiGoodsListItem, AiGoodsListRequest, ListOf } from '@bo/contracts';
import { AppError } from '@bo/service-kit';
import { listConditions } from './list-conditions.ts';
import { countRecommendedGoods, findRecommendedGoods } from '../data-access/recommended-goods.ts';
import type { AiListRow, SignalWindow } from '../model.ts';

export interface AiListContext {
  knex: Knex;
  timeZone: string;
  now: Date;
  windowDays: number;
  minInflow: number;
  maxConversion: number;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The reasons of one row as a sentence a merchandiser can act on, strongest first. */
export function reasonSentence(row: AiListRow, windowDays: number): string {
  const parts: { weight: number; text: string }[] = [];
  const gaps = [row.gapBrand && '브랜드', row.gapKeyword && '검색 키워드', row.gapSeo && 'SEO 정보', row.gapModel && '모델명'].filter(
    (g): g is string => !!g,
  );
  if (row.lowConversion) {
    parts.push({
      weight: 30,
      text: `최근 ${windowDays}일 상세 조회 ${fmt(row.inflowCnt)}회에 순주문 ${fmt(row.netOrdQty)}개로 구매 전환이 낮습니다.`,
    });
  }
  if (row.stockShort && row.restockWaiting > 0) {
    const state = row.saleStatCd === '20' ? '품절' : '안전재고 이하';
    parts.push({ weight: 25, text: `${state} 상태인데 재입고 알림을 기다리는 요청이 ${fmt(row.restockWaiting)}건 있습니다.` });
  }
  if (row.lowReviewCnt > 0) {
    const avg = row.lowReviewAvg === null ? '' : ` (평균 ${Number(row.lowReviewAvg).toFixed(1)}점)`;
    parts.push({ weight: 20, text: `최근 ${windowDays}일 저평점(2점 이하) 리뷰가 ${fmt(row.lowReviewCnt)}건${avg} 있습니다.` });
  }
  if (gaps.length) {
    parts.push({ weight: 10, text: `${gaps.join(', ')}이(가) 비어 있어 AI 자동 채우기로 보완할 수 있습니다.` });
  }
  return parts
    .sort((a, b) => b.weight - a.weight)
    .map((p) => p.text)
    .join(' ');
}

function toItem(row: AiListRow, windowDays: number): AiGoodsListItem {
  return {
    goodsNo: row.goodsNo,
    goodsNm: row.goodsNm,
    goodsCompCd: row.goodsCompCd,
    goodsTypCd: row.goodsTypCd,
    goodsReason: reasonSentence(row, windowDays),
    entrNm: row.entrNm,
    entrNo: row.entrNo,
    brandNm: row.brandNm,
    saleMethCd: row.saleMethCd,
    saleStatCd: row.saleStatCd,
    saleStatCdNm: row.saleStatCdNm,
    buyTypCd: row.buyTypCd,
    deliProcTypCd: row.deliProcTypCd,
    deliGoodsGbCd: row.deliGoodsGbCd,
    deliWayCd: row.deliWayCd,
    mdNm: row.mdNm,
    dispYn: row.dispYn,
    deliProcTypCdNm: row.deliProcTypCdNm,
    deliGoodsGbCdNm: row.deliGoodsGbCdNm,
    dispDlexAmt: row.dispDlexAmt,
    stdCtgHierarchy: row.stdCtgHierarchy ?? '',
    buyrAgeLmtCd: row.buyrAgeLmtCd,
    buyQtyLmtYn: row.buyQtyLmtYn,
    rglrDeliGoodsYn: row.rglrDeliGoodsYn,
    goodsRegDtm: row.goodsRegDtm,
    salePrc: Number(row.salePrc),
    minLmtQty: row.minLmtQty,
    maxLmtQty: row.maxLmtQty,
    score: Number(row.score),
  };
}

/**
 * Goods the AI recommends for attention: every filter of the request, restricted to the
 * caller's own supplier when the token carries one, each result with at least one reason
 * scored from the data, best first. The window is the last `windowDays` whole days before
 * today: demand is read from the daily and hourly aggregates, which are built for days that
 * are over, so today's partial day is left out of every signal alike.
 */
export async function recommendedGoods(
  request: AiGoodsListRequest,
  scope: { entrNo?: string },
  ctx: AiListContext,
): Promise<ListOf<AiGoodsListItem>> {
  if (scope.entrNo && request.entrNo && request.entrNo !== scope.entrNo) throw new AppError('SUPPLIER_SCOPE');
  const where = listConditions(request, scope);
  const today = platformToday(ctx.timeZone, ctx.now);
  const window: SignalWindow = {
    fromDay: addDays(today, -ctx.windowDays),
    toDay: today,
    minInflow: ctx.minInflow,
    maxConversion: ctx.maxConversion,
  };
  const pageSize = request.pageSize ?? 100;
  const offset = ((request.page ?? 1) - 1) * pageSize;
  const rows = await findRecommendedGoods(ctx.knex, where, window, { offset, limit: pageSize });
  const totalCount = rows.length ? Number(rows[0]!.totalCount) : await countRecommendedGoods(ctx.knex, where, window);
  return { totalCount, payloads: rows.map((r) => toItem(r, ctx.windowDays)) };
}
