import { Type, type Static } from '@sinclair/typebox';
import { CodeEnum, NullableString } from './common.ts';

/** Query fields no longer than their source columns (docs/data-model.md), so a typo fails as a validation error. */
const Str = (description: string, maxLength: number) => Type.Optional(Type.String({ description, minLength: 1, maxLength }));
const EntrNo = Str('supplier number; a token with a supplier may only name its own', 20);
const UserId = Str('user id whose category mappings count; another user than the caller: BO_ADMIN only', 50);
const SiteNo = Str('site number', 10);

export const SaleStockStatusRequest = Type.Object({ entrNo: EntrNo, userId: UserId }, { $id: 'SaleStockStatusRequest' });
export type SaleStockStatusRequest = Static<typeof SaleStockStatusRequest>;

export const SaleStockStatus = Type.Object(
  {
    goodsStatuses: Type.Array(Type.Object({ saleStatCd: Type.String(), saleStatCdNm: Type.String(), cnt: Type.Integer() })),
    mdMatchedStdCtgCount: Type.Integer({ description: 'standard categories mapped to the user' }),
  },
  { $id: 'SaleStockStatus' },
);
export type SaleStockStatus = Static<typeof SaleStockStatus>;

export const RestockNoticeStatusRequest = Type.Object(
  { entrNo: EntrNo, siteNo: SiteNo, userId: UserId },
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
    entrNo: EntrNo,
    procStatCd: Type.Optional(CodeEnum('question status (QNA_STAT)', { '10': 'awaiting an answer', '20': 'answered' })),
    userId: UserId,
  },
  { $id: 'QnaAnswerStatusRequest' },
);
export type QnaAnswerStatusRequest = Static<typeof QnaAnswerStatusRequest>;

export const QnaItem = Type.Object(
  {
    questNo: Type.Integer(),
    siteNo: Type.String(),
    mbrNo: Type.String(),
    goodsNo: Type.String(),
    entrNo: Type.String(),
    questTypCd: NullableString(),
    questTitle: NullableString(),
    questCont: NullableString(),
    questDtm: Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }),
    procStatCd: Type.String(),
    procStatDtm: Type.Union([Type.String({ description: 'yyyy-MM-dd HH:mm:ss' }), Type.Null()]),
    questTypCdNm: NullableString(),
    procStatCdNm: NullableString(),
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
  { userId: UserId, siteNo: SiteNo, entrNo: EntrNo },
  { $id: 'GoodsReviewStatusRequest' },
);
export type GoodsReviewStatusRequest = Static<typeof GoodsReviewStatusRequest>;

export const ReviewStatusRow = Type.Object(
  { revStateCd: Type.String(), revState: Type.String(), revCnt: Type.Integer() },
  { $id: 'ReviewStatusRow' },
);
export const GoodsReviewStatus = Type.Array(ReviewStatusRow, { $id: 'GoodsReviewStatus' });
export type GoodsReviewStatus = Static<typeof GoodsReviewStatus>;
