/** The dashboard component's shapes: who sees which goods, and the rows its counts are read as. */

/** How many rows the dashboard lists show (restock goods, newest questions): a dashboard widget, not a page. */
export const DASHBOARD_LIST_SIZE = 10;

/** Which goods a dashboard count may see; built from the token by `dashboard-scope.ts`. */
export interface GoodsScope {
  entrNo?: string;
  /** Set when goods are limited to this user's mapped standard categories and everything below them. */
  mdUserId?: string;
}

export interface SaleStatusCountRow {
  saleStatCd: string;
  cnt: number;
  /** Of `cnt`: stock-managed goods at or below their safety stock. */
  lowStockCnt: number;
}

export interface RestockGoodsRow {
  goodsNo: string;
  goodsNm: string;
  cnt: number;
}

export interface QuestionRow {
  questNo: number;
  siteNo: string;
  mbrNo: string;
  goodsNo: string;
  entrNo: string;
  questTypCd: string | null;
  questTitle: string | null;
  questCont: string | null;
  questDtm: string;
  procStatCd: string;
  procStatDtm: string | null;
  questTypCdNm: string | null;
  procStatCdNm: string | null;
}

export interface ReviewCounts {
  total: number;
  high: number;
  low: number;
}

export interface DashboardScope {
  goods: GoodsScope;
  /** Standard categories mapped to the effective user (`mdMatchedStdCtgCount`, `stdCtgNoCntByUserId`). */
  mappedCategoryCount: number;
}
