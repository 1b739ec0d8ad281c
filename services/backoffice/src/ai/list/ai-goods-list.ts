import { josa } from 'es-hangul';
import type { Knex } from '@bo/db';
import { addDays, platformToday } from '@bo/db';
import type { AiGoodsListItem, AiGoodsListRequest, ListOf } from '@bo/contracts';
import { AppError, type SharedReads } from '@bo/service-kit';
import { listConditions } from './list-conditions.ts';
import { demandSource, recommendedGoodsColumns, scoreRecommendedGoods } from '../data-access/recommended-goods.ts';
import type { GoodsSplit } from '../data-access/goods-split.ts';
import type { AiListRow, AiScoredRow, SignalWindow } from '../model.ts';

export interface AiListContext {
  knex: Knex;
  timeZone: string;
  now: Date;
  windowDays: number;
  minInflow: number;
  maxConversion: number;
  minScore: number;
  /** Scorings of the same conditions and window arriving together run once (the app's one instance). */
  sharedReads: SharedReads<AiScoredRow[]>;
  /** Where the scoring splits the catalogue into two halves read at once. */
  split: GoodsSplit;
}

const fmt = (n: number): string => n.toLocaleString('en-US');

/** A clause of the reason: its form inside the sentence (…고) and as the last clause (…어). */
interface Clause {
  weight: number;
  mid: string;
  last: string;
}

/** `브랜드, 검색 키워드와 SEO 정보`: a list with the particle chosen by the last word before 와/과. */
function listed(items: readonly string[]): string {
  if (items.length < 2) return items[0] ?? '';
  const head = items.slice(0, -1);
  return `${head.join(', ')}${josa.pick(head.at(-1)!, '와/과')} ${items.at(-1)!}`;
}

/**
 * The reasons of one row as one Korean sentence a merchandiser can act on, strongest first,
 * with the figures behind each and the score: `최근 30일 상세 조회 200회에 순주문 1개로 구매
 * 전환이 낮고, 모델명이 비어 있어 추천 점수 40점입니다.` Particles by es-hangul `josa`.
 */
export function reasonSentence(row: AiListRow, windowDays: number): string {
  const clauses: Clause[] = [];
  const gaps = [row.gapBrand && '브랜드', row.gapKeyword && '검색 키워드', row.gapSeo && 'SEO 정보', row.gapModel && '모델명'].filter(
    (g): g is string => !!g,
  );
  if (row.lowConversion) {
    const text = `최근 ${windowDays}일 상세 조회 ${fmt(row.inflowCnt)}회에 순주문 ${fmt(row.netOrdQty)}개로 구매 전환이`;
    clauses.push({ weight: 30, mid: `${text} 낮고`, last: `${text} 낮아` });
  }
  if (row.stockShort && row.restockWaiting > 0) {
    const state = row.saleStatCd === '20' ? '품절' : '안전재고 이하';
    const text = `${state}인데 재입고 알림을 기다리는 요청이 ${fmt(row.restockWaiting)}건`;
    clauses.push({ weight: 25, mid: `${text} 있고`, last: `${text} 있어` });
  }
  if (row.lowReviewCnt > 0) {
    const avg = row.lowReviewAvg === null ? '' : `(평균 ${Number(row.lowReviewAvg).toFixed(1)}점)`;
    const text = `최근 ${windowDays}일 저평점(2점 이하) 리뷰가 ${fmt(row.lowReviewCnt)}건${avg}`;
    clauses.push({ weight: 20, mid: `${text} 있고`, last: `${text} 있어` });
  }
  if (gaps.length) {
    const text = `${listed(gaps)}${josa.pick(gaps.at(-1)!, '이/가')} 비어`;
    clauses.push({ weight: 10, mid: `${text} 있고`, last: `${text} 있어` });
  }
  clauses.sort((a, b) => b.weight - a.weight);
  const body = clauses.map((c, i) => (i === clauses.length - 1 ? c.last : c.mid)).join(', ');
  return `${body ? `${body} ` : ''}추천 점수 ${fmt(Number(row.score))}점입니다.`;
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
  const where = listConditions(request, scope, ctx.timeZone);
  const today = platformToday(ctx.timeZone, ctx.now);
  const window: SignalWindow = {
    fromDay: addDays(today, -ctx.windowDays),
    toDay: today,
    days: ctx.windowDays,
    minInflow: ctx.minInflow,
    maxConversion: ctx.maxConversion,
    minScore: ctx.minScore,
  };
  const pageSize = request.pageSize ?? 100;
  const offset = ((request.page ?? 1) - 1) * pageSize;
  // Every page of the same conditions and window (the caller's supplier scope is among the
  // conditions) shares the ranking of requests that arrive together; only the page's columns are read apart.
  const key = JSON.stringify({ where, window });
  const ranking = await ctx.sharedReads.run(key, async () => {
    const [demand, split] = await Promise.all([demandSource(ctx.knex, window), ctx.split.key()]);
    return scoreRecommendedGoods(ctx.knex, where, window, demand, split);
  });
  const slice = ranking.slice(offset, offset + pageSize);
  const pageGoods = await recommendedGoodsColumns(
    ctx.knex,
    slice.map((r) => r.goodsNo),
  );
  const columns = new Map(pageGoods.map((g) => [g.goodsNo, g]));
  // A goods deleted between the two reads has no columns left to show: it drops from the page.
  const rows = slice.flatMap((r) => {
    const goods = columns.get(r.goodsNo);
    return goods ? [{ ...goods, ...r }] : [];
  });
  const totalCount = ranking.length;
  return { totalCount, payloads: rows.map((r) => toItem(r, ctx.windowDays)) };
}
