import {
  AGRT_GB,
  type AgrtGb,
  type CategoryStatusRow,
  type EnterpriseStatusRow,
  type GoodsStatusRow,
  type OrderStatusRow,
  type PayWayStatusRow,
} from '@bo/contracts';
import type { ExcelColumn } from './excel-writer.ts';

/**
 * The columns of each grid, in the grid's order, with the headers the back-office UI shows.
 * Order status (`01`) speaks of orders and cancellations, sales status (`02`) of sales and returns.
 */

type Cell = string | number | null | undefined;
const col = <R>(header: string, value: (row: R) => Cell): ExcelColumn<R> => ({ header, value });
/** Amounts, quantities and counts: `#,##0`. */
const num = <R>(header: string, value: (row: R) => Cell): ExcelColumn<R> => ({ header, value, format: 'number' });

const words = (agrtGb: AgrtGb) => (agrtGb === AGRT_GB.SALES ? { occ: '매출', cncl: '반품' } : { occ: '주문', cncl: '취소' });

interface MeasureRow {
  dcAmt2nd: number;
  dcAmt3rd: number;
  ordAmt: number;
  cnclAmt: number;
  ordQty: number;
  cnclQty: number;
}

function measureColumns<R extends MeasureRow>(agrtGb: AgrtGb, netAmt: (r: R) => Cell, netQty: (r: R) => Cell): ExcelColumn<R>[] {
  const w = words(agrtGb);
  return [
    num<R>('2차 할인금액', (r) => r.dcAmt2nd),
    num<R>('3차 할인금액', (r) => r.dcAmt3rd),
    num<R>(`${w.occ}금액`, (r) => r.ordAmt),
    num<R>(`${w.cncl}금액`, (r) => r.cnclAmt),
    num<R>(`순${w.occ}금액`, netAmt),
    num<R>(`${w.occ}수량`, (r) => r.ordQty),
    num<R>(`${w.cncl}수량`, (r) => r.cnclQty),
    num<R>(`순${w.occ}수량`, netQty),
  ];
}

/** Period grid: the bucket, the discounts and their total, the measures, the inflow count. */
export const periodColumns = (agrtGb: AgrtGb, calendarType: 'date' | 'month'): ExcelColumn<OrderStatusRow>[] => {
  const [dc2, dc3, ...rest] = measureColumns<OrderStatusRow>(
    agrtGb,
    (r) => r.finalOrdAmt,
    (r) => r.finalOrdQty,
  );
  return [
    { header: calendarType === 'month' ? '월' : '일자', value: (r) => r.agrtDt, format: calendarType === 'month' ? 'month' : 'day' },
    dc2!,
    dc3!,
    num('할인금액', (r) => r.dcAmt),
    ...rest,
    num('상품상세 유입수', (r) => r.infCnt),
  ];
};

export const hourlyColumns = (agrtGb: AgrtGb): ExcelColumn<OrderStatusRow>[] => [
  col('시간대', (r) => r.agrtDt),
  ...measureColumns<OrderStatusRow>(
    agrtGb,
    (r) => r.finalOrdAmt,
    (r) => r.finalOrdQty,
  ),
  num('상품상세 유입수', (r) => r.infCnt),
];

export const categoryColumns = (agrtGb: AgrtGb): ExcelColumn<CategoryStatusRow>[] => [
  col('표준카테고리번호', (r) => r.stdCtgNo),
  col('표준카테고리명', (r) => r.stdCtgNm),
  col('사이트명', (r) => r.siteNm),
  col('MD ID', (r) => r.mdId),
  col('MD명', (r) => r.mdNm),
  ...measureColumns<CategoryStatusRow>(
    agrtGb,
    (r) => r.finalOrdAmt,
    (r) => r.finalOrdQty,
  ),
];

export const payWayColumns = (agrtGb: AgrtGb): ExcelColumn<PayWayStatusRow>[] => [
  col('사이트번호', (r) => r.siteNo),
  col('집계기간', (r) => r.agrtDt),
  col('집계구분', (r) => r.agrtGb),
  col('결제수단코드', (r) => r.payWayCd),
  col('결제수단명', (r) => r.payWayNm),
  col('사이트명', (r) => r.siteNm),
  ...measureColumns<PayWayStatusRow>(
    agrtGb,
    (r) => r.finalOrdAmt,
    (r) => r.finalOrdQty,
  ),
];

export const goodsColumns = (agrtGb: AgrtGb): ExcelColumn<GoodsStatusRow>[] => [
  col('이미지경로', (r) => r.imgPath),
  col('상품번호', (r) => r.goodsNo),
  col('상품명', (r) => r.goodsNm),
  col('공급사번호', (r) => r.entrNo),
  col('공급사명', (r) => r.entrNm),
  col('사이트명', (r) => r.siteNm),
  ...measureColumns<GoodsStatusRow>(
    agrtGb,
    (r) => r.realOrdAmt,
    (r) => r.realOrdQty,
  ),
];

export const enterpriseColumns = (agrtGb: AgrtGb): ExcelColumn<EnterpriseStatusRow>[] => [
  col('공급사번호', (r) => r.entrNo),
  col('공급사명', (r) => r.entrNm),
  col('사이트명', (r) => r.siteNm),
  ...measureColumns<EnterpriseStatusRow>(
    agrtGb,
    (r) => r.finalOrdAmt,
    (r) => r.finalOrdQty,
  ),
];
