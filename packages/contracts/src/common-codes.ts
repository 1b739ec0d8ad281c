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

/** agrtGb values: the two report kinds of every statistic (order status, sales status). */
export const AGRT_GB = { ORDER: '01', SALES: '02' } as const;

/** ME016 values of rsrvUseGbCd. */
export const RSRV_USE_GB = { INCREASE: '10', DECREASE: '20' } as const;

/** Work groups of back-office users. */
export const WORK_GROUPS = { ADMIN: 'BO_ADMIN', MD: 'BO_MD', SUPPLIER: 'BO_ENTR' } as const;

/**
 * PR050 description options and what each produces. The demo data loads exactly these codes
 * into `cm_cd`; a code present in `cm_cd` but missing here is answered as plain detail text.
 */
export const AI_DESC_OPTIONS = {
  '10': { name: '상세설명', output: 'detail-text' },
  '20': { name: '셀링포인트', output: 'selling-points' },
  '30': { name: 'SEO 메타', output: 'seo-meta' },
  '40': { name: 'FAQ', output: 'faq' },
} as const;
export type AiDescOutput = (typeof AI_DESC_OPTIONS)[keyof typeof AI_DESC_OPTIONS]['output'];

/** Common codes the demo data defines (groups other than PR050 and PR043 come from here too). */
export const DEMO_CODES: Record<string, Record<string, string>> = {
  PR022: { '10': '미처리', '20': '전시처리', '30': '전시제외' },
  OM013: { '10': '신용카드', '20': '계좌이체', '30': '가상계좌', '40': '휴대폰결제', '50': '포인트', '60': '간편결제' },
  ME016: { '10': '증가(적립)', '20': '차감(사용)' },
  SALE_STAT: { '00': '재고부족', '02': '승인대기', '03': '반려', '10': '판매중', '20': '품절' },
  QNA_TYP: { '10': '상품문의', '20': '배송문의', '30': '교환/반품', '40': '기타' },
  QNA_STAT: { '10': '답변대기', '20': '답변완료' },
  DELI_PROC: { '10': '업체배송', '20': '센터배송' },
  DELI_GB: { '10': '일반배송', '20': '설치배송', '30': '신선배송' },
};
