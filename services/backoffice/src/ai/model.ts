/** The AI component's shapes: master rows for the in-memory indexes, goods facts and pages, the AI list rows. */

export interface BrandRow {
  brandNo: string;
  brandNm: string;
  brandEngNm: string | null;
}
export interface BrandAliasRow {
  brandNo: string;
  aliasNm: string;
}
export interface CategoryRow {
  stdCtgNo: string;
  uprStdCtgNo: string | null;
  stdCtgNm: string;
  depth: number;
  leafYn: string;
  mdId: string | null;
  goodsNotiLisartCd: string | null;
  safeCertiNeedYn: string;
  safeCertiTgtYn: string;
  szGdeUseYn: string;
  szGdeRegMethCd: string | null;
  szGdeCd: string | null;
}
export interface CategoryAttRow {
  stdCtgNo: string;
  attCd: string;
  attNm: string;
  attValTypCd: string;
  dispSeq: number;
}
export interface NoticeItemRow {
  goodsNotiLisartCd: string;
  goodsNotiItemCd: string;
  notiItemNm: string;
  dispSeq: number;
}
export interface UserRow {
  userId: string;
  userNm: string;
}
export interface CodeRow {
  grpCd: string;
  cd: string;
  cdNm: string;
}

/** An existing goods item as an example of its leaf category. */
export interface GoodsSampleRow {
  goodsNo: string;
  stdCtgNo: string;
  goodsNm: string;
  brandNo: string | null;
}

export interface MasterRows {
  brands: BrandRow[];
  aliases: BrandAliasRow[];
  categories: CategoryRow[];
  attributes: CategoryAttRow[];
  noticeItems: NoticeItemRow[];
  mds: UserRow[];
  codes: CodeRow[];
  goodsSamples: GoodsSampleRow[];
}

export interface GoodsFacts {
  goodsNo: string;
  goodsNm: string;
  entrNo: string;
  brandNm: string | null;
  stdCtgNo: string;
  modlNm: string | null;
  mfcoNm: string | null;
  homeNm: string | null;
}

export interface DocPageRow {
  fileNm: string;
  pageNo: number;
  pageText: string;
}

/** A goods condition of the AI list as SQL over `goods g`, with its bindings. */
export interface SqlCondition {
  sql: string;
  bindings: (string | number)[];
}

export interface SignalWindow {
  /** Half-open `[fromDay, toDay)` platform-local days (`yyyy-MM-dd`) of the inflow/order/review window. */
  fromDay: string;
  toDay: string;
  /** AI_LIST_WINDOW_DAYS: `fromDay` is `toDay` minus this many days. */
  days: number;
  minInflow: number;
  maxConversion: number;
  /** Least score of a recommended goods. */
  minScore: number;
}

/** The display columns of a recommended goods item (names from its masters and codes). */
export interface AiListGoodsRow {
  goodsNo: string;
  goodsNm: string;
  goodsCompCd: string | null;
  goodsTypCd: string | null;
  entrNm: string | null;
  entrNo: string;
  brandNm: string | null;
  saleMethCd: string | null;
  saleStatCd: string;
  saleStatCdNm: string | null;
  buyTypCd: string | null;
  deliProcTypCd: string | null;
  deliGoodsGbCd: string | null;
  deliWayCd: string | null;
  mdNm: string | null;
  dispYn: string;
  deliProcTypCdNm: string | null;
  deliGoodsGbCdNm: string | null;
  dispDlexAmt: string | null;
  stdCtgHierarchy: string | null;
  buyrAgeLmtCd: string | null;
  buyQtyLmtYn: string;
  rglrDeliGoodsYn: string;
  goodsRegDtm: string;
  salePrc: number;
  minLmtQty: number | null;
  maxLmtQty: number | null;
}

/** A goods item's score and the signals behind it, as scored in one statement. */
export interface AiScoredRow {
  goodsNo: string;
  /** Read with the signals, so the reason's 품절 and the stock signal agree. */
  saleStatCd: string;
  gapBrand: number;
  gapKeyword: number;
  gapSeo: number;
  gapModel: number;
  inflowCnt: number;
  netOrdQty: number;
  lowConversion: number;
  stockShort: number;
  restockWaiting: number;
  lowReviewCnt: number;
  lowReviewAvg: number | null;
  score: number;
}

export type AiListRow = AiListGoodsRow & AiScoredRow;
