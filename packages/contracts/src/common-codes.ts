/** Common-code groups (`cm_cd.grp_cd`) this product reads. */
export const CODE_GROUPS = {
  AI_DESC_OPTION: 'PR050',
  ATTRIBUTE_VALUE_TYPE: 'PR043',
  REVIEW_DISPLAY_STATUS: 'PR022',
  PAYMENT_METHOD: 'OM013',
  EARN_USE_CLASS: 'ME016',
  SALE_STATUS: 'SALE_STAT',
  QNA_TYPE: 'QNA_TYP',
  QNA_STATUS: 'QNA_STAT',
  DELI_PROC_TYPE: 'DELI_PROC',
  DELI_GOODS_GB: 'DELI_GB',
} as const;

/** Sale statuses of the dashboard, in display order, with their names. */
export const SALE_STATUSES = [
  { saleStatCd: '00', saleStatCdNm: '재고부족' },
  { saleStatCd: '02', saleStatCdNm: '승인대기' },
  { saleStatCd: '03', saleStatCdNm: '반려' },
  { saleStatCd: '10', saleStatCdNm: '판매중' },
  { saleStatCd: '20', saleStatCdNm: '품절' },
] as const;

/** Review states of the dashboard review counts. */
export const REVIEW_STATES = [
  { revStateCd: '10', revState: '신규 리뷰' },
  { revStateCd: '20', revState: '고평점 리뷰' },
  { revStateCd: '30', revState: '저평점 리뷰' },
] as const;

/** PR022 value meaning "display-processed". */
export const REVIEW_DISPLAYED = '20';

/** ME016 values of rsrvUseGbCd. */
export const RSRV_USE_GB = { INCREASE: '10', DECREASE: '20' } as const;

/** Work groups of back-office users. */
export const WORK_GROUPS = { ADMIN: 'BO_ADMIN', MD: 'BO_MD', SUPPLIER: 'BO_ENTR' } as const;
