import { Type, type Static } from '@sinclair/typebox';
import { AgrtGb, CodeEnum, DateString, ListWrapper, MonthString, NullableString } from './common.ts';

const Str = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));
/** A query condition no longer than its source column (docs/data-model.md), so a typo fails as a validation error. */
const Cond = (description: string, maxLength: number) => Type.Optional(Type.String({ description, minLength: 1, maxLength }));
const Amount = (description: string) => Type.Number({ description });
const Qty = (description: string) => Type.Integer({ format: 'int32', description });
const Int64 = (description: string) => Type.Integer({ format: 'int64', description });

export const CalendarType = CodeEnum('calendar type', {
  date: 'one row per day (startDate, endDate)',
  month: 'one row per month (startMonth, endMonth)',
});

const StdCtgNo = Cond('standard category number; matches the category and every category below it', 20);
const MdId = Cond('responsible MD id', 50);
const EntrNo = Cond('supplier number; a token with a supplier may only name its own (none = its own)', 20);
const GoodsNo = Cond('goods number', 20);
const SiteNo = Cond('site number', 10);
const FileName = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 200,
    description: 'Excel file name (.xlsx is added when missing); default <report>-<yyyyMMdd>.xlsx',
  }),
);

const commonFilters = {
  stdCtgNo: StdCtgNo,
  mdId: MdId,
  entrNo: EntrNo,
  brandNo: Cond('brand number', 20),
  goodsNo: GoodsNo,
  siteNo: SiteNo,
};

/** Period graph data and period list/Excel (spec 4.2, 4.3). */
export const PeriodStatusRequest = Type.Object(
  {
    calendarType: CalendarType,
    startDate: Type.Optional(DateString('first day (calendarType date)')),
    endDate: Type.Optional(DateString('last day, inclusive (calendarType date)')),
    startMonth: Type.Optional(MonthString('first month (calendarType month)')),
    endMonth: Type.Optional(MonthString('last month, inclusive (calendarType month)')),
    ...commonFilters,
    agrtGb: AgrtGb,
    fileName: FileName,
  },
  { $id: 'PeriodStatusRequest' },
);
export type PeriodStatusRequest = Static<typeof PeriodStatusRequest>;

/** Hourly graph data and hourly list/Excel. */
export const HourlyStatusRequest = Type.Object(
  {
    targetDate: DateString('the day whose 24 hours are reported'),
    ...commonFilters,
    agrtGb: AgrtGb,
    fileName: FileName,
  },
  { $id: 'HourlyStatusRequest' },
);
export type HourlyStatusRequest = Static<typeof HourlyStatusRequest>;

const rangeFields = {
  startDate: DateString('first day'),
  endDate: DateString('last day, inclusive'),
  agrtGb: AgrtGb,
};

export const CategoryStatusRequest = Type.Object(
  {
    ...rangeFields,
    stdCtgNo: StdCtgNo,
    mdId: MdId,
    siteNo: SiteNo,
    fileName: FileName,
  },
  { $id: 'CategoryStatusRequest' },
);
export type CategoryStatusRequest = Static<typeof CategoryStatusRequest>;

export const PayWayStatusRequest = Type.Object(
  {
    ...rangeFields,
    payWayCd: Cond('payment method, common code OM013', 10),
    siteNo: SiteNo,
    fileName: FileName,
  },
  { $id: 'PayWayStatusRequest' },
);
export type PayWayStatusRequest = Static<typeof PayWayStatusRequest>;

export const GoodsStatusRequest = Type.Object(
  {
    ...rangeFields,
    goodsNo: GoodsNo,
    entrNo: EntrNo,
    siteNo: SiteNo,
    fileName: FileName,
  },
  { $id: 'GoodsStatusRequest' },
);
export type GoodsStatusRequest = Static<typeof GoodsStatusRequest>;

export const EnterpriseStatusRequest = Type.Object(
  {
    ...rangeFields,
    entrNo: EntrNo,
    siteNo: SiteNo,
    fileName: FileName,
  },
  { $id: 'EnterpriseStatusRequest' },
);
export type EnterpriseStatusRequest = Static<typeof EnterpriseStatusRequest>;

export const CompareData = Type.Object(
  {
    agrtDt: Type.String({ description: 'bucket of the current period: yyyyMMdd, yyyyMM or an hour label' }),
    realOrdAmt: Int64('net amount of the current bucket'),
    pwRealOrdAmt: Int64('net amount of the paired comparison bucket'),
    realOrdQty: Int64('net quantity of the current bucket'),
    pwRealOrdQty: Int64('net quantity of the paired comparison bucket'),
  },
  { $id: 'CompareData' },
);
export type CompareData = Static<typeof CompareData>;

const amounts = {
  dcAmt2nd: Amount('2nd discount amount'),
  dcAmt3rd: Amount('3rd discount amount'),
  ordAmt: Amount('order amount'),
  cnclAmt: Amount('cancel amount'),
};
/** The sums of a period, hourly, category, payment-method or supplier row (the goods row names its net figures `real…`). */
const finalSums = {
  ...amounts,
  finalOrdAmt: Int64('net order amount'),
  ordQty: Qty('order quantity'),
  cnclQty: Qty('cancel quantity'),
  finalOrdQty: Qty('net order quantity'),
};

export const OrderStatusRow = Type.Object(
  {
    agrtDt: Str(
      'list rows: yyyyMMdd / yyyyMM (period) or 00~01 … 23~24 (hourly); graph data: the range yyyyMMdd~yyyyMMdd / yyyyMM~yyyyMM, or the target day',
    ),
    imgPath: Str('image of the goods condition, when goodsNo was given'),
    goodsNo: Str('the goodsNo condition, when given'),
    goodsNm: Str('name of the goodsNo condition'),
    siteNo: Str('the siteNo condition, when given'),
    siteNm: Str('name of the siteNo condition'),
    stdCtgNo: Str('the stdCtgNo condition, when given'),
    stdCtgNm: Str('name of the stdCtgNo condition'),
    mdId: Str('the mdId condition, when given'),
    mdNm: Str('name of the mdId condition'),
    entrNo: Str('the supplier condition (a supplier token: its own), when given'),
    entrNm: Str('name of the supplier condition'),
    brandNm: Str('name of the brandNo condition, when given'),
    ...finalSums,
    infCnt: Qty('goods-detail inflow count'),
    compareDataList: Type.Optional(Type.Array(CompareData)),
    realOrdQty: Type.Optional(Qty('net order quantity (period results)')),
    realOrdAmt: Type.Optional(Int64('net order amount (period results)')),
    dcAmt: Type.Optional(Amount('discount amount (period results)')),
    currRealOrdAmt: Type.Optional(Int64('current net order amount (period results)')),
  },
  { $id: 'OrderStatusRow' },
);
export type OrderStatusRow = Static<typeof OrderStatusRow>;
export const OrderStatusList = ListWrapper(OrderStatusRow, 'OrderStatusList');

export const CategoryStatusRow = Type.Object(
  {
    stdCtgNo: Type.String(),
    stdCtgNm: NullableString(),
    siteNm: NullableString(),
    mdId: NullableString(),
    mdNm: NullableString(),
    ...finalSums,
  },
  { $id: 'CategoryStatusRow' },
);
export type CategoryStatusRow = Static<typeof CategoryStatusRow>;
export const CategoryStatusList = ListWrapper(CategoryStatusRow, 'CategoryStatusList');
export const CategoryTopList = Type.Array(CategoryStatusRow, { $id: 'CategoryTopList' });

export const PayWayStatusRow = Type.Object(
  {
    siteNo: NullableString(),
    agrtDt: NullableString('the requested range, yyyyMMdd~yyyyMMdd'),
    agrtGb: Type.String(),
    payWayCd: Type.String(),
    payWayNm: NullableString(),
    siteNm: NullableString(),
    ...finalSums,
  },
  { $id: 'PayWayStatusRow' },
);
export type PayWayStatusRow = Static<typeof PayWayStatusRow>;
export const PayWayStatusList = ListWrapper(PayWayStatusRow, 'PayWayStatusList');

export const GoodsStatusRow = Type.Object(
  {
    imgPath: NullableString(),
    goodsNo: Type.String(),
    goodsNm: NullableString(),
    entrNo: NullableString(),
    entrNm: NullableString(),
    siteNm: NullableString(),
    ...amounts,
    realOrdAmt: Int64('net order amount'),
    ordQty: Qty('order quantity'),
    cnclQty: Qty('cancel quantity'),
    realOrdQty: Qty('net order quantity'),
  },
  { $id: 'GoodsStatusRow' },
);
export type GoodsStatusRow = Static<typeof GoodsStatusRow>;
export const GoodsStatusList = ListWrapper(GoodsStatusRow, 'GoodsStatusList');

export const EnterpriseStatusRow = Type.Object(
  {
    entrNo: Type.String(),
    entrNm: NullableString(),
    siteNm: NullableString(),
    ...finalSums,
  },
  { $id: 'EnterpriseStatusRow' },
);
export type EnterpriseStatusRow = Static<typeof EnterpriseStatusRow>;
export const EnterpriseStatusList = ListWrapper(EnterpriseStatusRow, 'EnterpriseStatusList');
