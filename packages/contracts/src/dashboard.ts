import { Type, type Static } from '@sinclair/typebox';

const Str = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));

export const SaleStockStatusRequest = Type.Object(
  { entrNo: Str('supplier number'), userId: Str('user id (another user: BO_ADMIN only)') },
  { $id: 'SaleStockStatusRequest' },
);
export type SaleStockStatusRequest = Static<typeof SaleStockStatusRequest>;

export const SaleStockStatus = Type.Object(
  {
    goodsStatuses: Type.Array(
      Type.Object({ saleStatCd: Type.String(), saleStatCdNm: Type.String(), cnt: Type.Integer() }),
    ),
    mdMatchedStdCtgCount: Type.Integer({ description: 'standard categories mapped to the user' }),
  },
  { $id: 'SaleStockStatus' },
);
export type SaleStockStatus = Static<typeof SaleStockStatus>;

export const RestockNoticeStatusRequest = Type.Object(
  { entrNo: Str('supplier number'), siteNo: Str('site number'), userId: Str('user id') },
  { $id: 'RestockNoticeStatusRequest' },
);
export type RestockNoticeStatusRequest = Static<typeof RestockNoticeStatusRequest>;

export const RestockNoticeStatus = Type.Object(
  {
    totCnt: Type.Integer({ description: 'requests still waiting for the notice' }),
    list: Type.Array(Type.Object({ goodsNo: Type.String(), goodsNm: Type.String(), cnt: Type.Integer() })),
  },
  { $id: 'RestockNoticeStatus' },
);
export type RestockNoticeStatus = Static<typeof RestockNoticeStatus>;

export const QnaAnswerStatusRequest = Type.Object(
  {
    entrNo: Str('supplier number'),
    procStatCd: Type.Optional(Type.Union([Type.Literal('10'), Type.Literal('20')], { description: '10 awaiting, 20 answered' })),
    userId: Str('user id'),
  },
  { $id: 'QnaAnswerStatusRequest' },
);
export type QnaAnswerStatusRequest = Static<typeof QnaAnswerStatusRequest>;

const NullableStr = Type.Union([Type.String(), Type.Null()]);
export const QnaItem = Type.Object(
  {
    questNo: Type.Integer(),
    siteNo: Type.String(),
    mbrNo: Type.String(),
    goodsNo: Type.String(),
    entrNo: Type.String(),
    questTypCd: NullableStr,
    questTitle: NullableStr,
    questCont: NullableStr,
    questDtm: Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }),
    procStatCd: Type.String(),
    procStatDtm: Type.Union([Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }), Type.Null()]),
    questTypCdNm: NullableStr,
    procStatCdNm: NullableStr,
    totalCnt: Type.Integer(),
  },
  { $id: 'QnaItem' },
);
export const QnaAnswerStatus = Type.Object(
  {
    stdCtgNoCntByUserId: Type.Integer({ description: 'standard categories assigned to the user' }),
    totalCnt: Type.Integer(),
    list: Type.Array(QnaItem),
  },
  { $id: 'QnaAnswerStatus' },
);
export type QnaAnswerStatus = Static<typeof QnaAnswerStatus>;

export const GoodsReviewStatusRequest = Type.Object(
  { userId: Str('user id'), siteNo: Str('site number'), entrNo: Str('supplier number') },
  { $id: 'GoodsReviewStatusRequest' },
);
export type GoodsReviewStatusRequest = Static<typeof GoodsReviewStatusRequest>;

export const ReviewStatusRow = Type.Object(
  { revStateCd: Type.String(), revState: Type.String(), revCnt: Type.Integer() },
  { $id: 'ReviewStatusRow' },
);
export const GoodsReviewStatus = Type.Array(ReviewStatusRow, { $id: 'GoodsReviewStatus' });
export type GoodsReviewStatus = Static<typeof GoodsReviewStatus>;
