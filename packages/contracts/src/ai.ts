import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { CodeEnum, DateTimeString, Envelope, ListWrapper, NonEmpty, StringList, NullableString } from './common.ts';

export const AiGoodsDescRequest = Type.Object(
  {
    goodsNo: NonEmpty('goods number'),
    option: NonEmpty('generation option: a value of common code PR050'),
    additionalInfo: Type.Optional(Type.String({ maxLength: 2000, description: 'extra information for generation' })),
  },
  { $id: 'AiGoodsDescRequest' },
);
export type AiGoodsDescRequest = Static<typeof AiGoodsDescRequest>;

export const Citation = Type.Object(
  {
    file_name: Type.String({ description: 'referenced file name' }),
    page_number: Type.Integer({ format: 'int32', description: 'referenced page number' }),
  },
  { $id: 'Citation' },
);
export type Citation = Static<typeof Citation>;

export const AiGoodsDescResponse = Type.Object(
  {
    result: Type.String({ description: 'generation result' }),
    content: Type.String({ description: 'generated text, or a JSON string for structured options' }),
    citations: Type.Array(Citation),
  },
  { $id: 'AiGoodsDescResponse' },
);
export type AiGoodsDescResponse = Static<typeof AiGoodsDescResponse>;

export const AiGoodsAutoFillRequest = Type.Object(
  { productName: NonEmpty('product name as the seller typed it') },
  { $id: 'AiGoodsAutoFillRequest' },
);
export type AiGoodsAutoFillRequest = Static<typeof AiGoodsAutoFillRequest>;

export const GoodsNotiItemValue = Type.Object(
  {
    goodsNotiLisartCd: Type.String(),
    goodsNotiItemCd: Type.String(),
    notiItemNm: Type.String({ description: 'item name' }),
    notiItemCmt: Type.String({ description: 'item value' }),
  },
  { $id: 'GoodsNotiItemValue' },
);
export type GoodsNotiItemValue = Static<typeof GoodsNotiItemValue>;

export const GoodsCtgAtt = Type.Object(
  {
    stdCtgNo: Type.String(),
    goodsNo: Type.String(),
    attValTypCd: Type.String({ description: 'attribute value type, common code PR043' }),
    attNm: Type.String(),
    attCd: Type.String(),
    attVal: Type.String(),
    dispSeq: Type.String(),
    orgnAttNm: Type.String({ description: 'multilingual original attribute name' }),
    orgnAttVal: Type.String({ description: 'multilingual original attribute value' }),
  },
  { $id: 'GoodsCtgAtt' },
);
export type GoodsCtgAtt = Static<typeof GoodsCtgAtt>;

export const StdCtgCandidate = Type.Object(
  {
    stdCtgNo: Type.String(),
    stdCtgHierarchy: Type.String({ description: 'A > B > C > D' }),
    score: Type.Optional(
      Type.Number({
        description: 'estimated probability (0..1) that this leaf is right, calibrated on a hand-labelled held-out set; see README',
      }),
    ),
    similarity: Type.Optional(Type.Number({ description: 'the raw similarity (0..1) the candidates are ranked by' })),
    reason: Type.Optional(
      Type.String({ description: 'why this leaf: the words of the name found in its category names or in its nearest goods name' }),
    ),
  },
  { $id: 'StdCtgCandidate' },
);
export type StdCtgCandidate = Static<typeof StdCtgCandidate>;

export const BrandMatchStatus = Type.Union(
  ['EXACT', 'ALIAS', 'FUZZY', 'AMBIGUOUS', 'NOT_FOUND'].map((v) => Type.Literal(v)),
  { description: 'how the brand was matched against the brand master' },
);
export const BrandConfidence = Type.Union(['HIGH', 'MEDIUM', 'LOW'].map((v) => Type.Literal(v)));

const S = (description?: string) => Type.Optional(Type.String(description ? { description } : {}));

export const AiGoodsAutoFillResponse = Type.Object(
  {
    goodsNm: S('goods name'),
    schKwdNm: S('search keyword'),
    seoTitleNm: S('SEO title'),
    seoDesc: S('SEO description'),
    seoKwdNm: S('SEO keyword'),
    modlNm: S('model name'),
    mfcoNm: S('manufacturer'),
    homeNm: S('origin'),
    salemnNm: S('seller'),
    incomNm: S('importer'),
    brandNo: S('brand number'),
    brandNm: S('brand name'),
    brandMatchStatus: Type.Optional(BrandMatchStatus),
    brandConfidence: Type.Optional(BrandConfidence),
    brandReason: S('basis of brand recommendation/matching'),
    stdCtgNo: S('standard category number, only when the top candidate passes the confidence test'),
    stdCtgHierarchy: S('standard category hierarchy name'),
    mdId: S('responsible MD id'),
    mdNm: S('responsible MD name'),
    goodsNotiLisartCd: S('goods notice item-group code'),
    safeCertiNeedYn: S('safety certification needed flag'),
    safeCertiTgtYn: S('safety certification target flag'),
    schPsbYn: S('searchable flag (read-only)'),
    adveWrd: S('promotion phrase (read-only)'),
    goodsNotiItemCodeList: Type.Optional(Type.Array(GoodsNotiItemValue)),
    szGdeUseYn: S('size guide use flag (read-only)'),
    szGdeRegMethodCd: S('size guide registration method code (read-only)'),
    szGdeCd: S('size guide code (read-only)'),
    goodsCtgAttInfoList: Type.Optional(Type.Array(GoodsCtgAtt)),
    stdCtgCandidates: Type.Optional(Type.Array(StdCtgCandidate)),
    content: S('generated text or JSON string'),
    citations: Type.Optional(Type.Array(Citation)),
  },
  { $id: 'AiGoodsAutoFillResponse', additionalProperties: false },
);
export type AiGoodsAutoFillResponse = Static<typeof AiGoodsAutoFillResponse>;
export const AiGoodsAutoFillEnvelope = Envelope(AiGoodsAutoFillResponse, 'AiGoodsAutoFillEnvelope');

export const SearchCodeOption = CodeEnum('goods-number match mode', {
  st: 'starts with',
  in: 'contains',
  eq: 'equals',
  mt: 'multiple (searchCodeTextList)',
  rg: 'range (searchCodeFrom … searchCodeTo)',
});

export const AiGoodsListRequest = Type.Object(
  {
    goodsDtmIgnoreOption: Type.Optional(Type.Boolean({ description: 'ignore the period option' })),
    goodsDtmOption: S('period option'),
    goodsRegStartDtm: Type.Optional(DateTimeString('goods registration start')),
    goodsRegEndDtm: Type.Optional(DateTimeString('goods registration end')),
    mdId: S('responsible MD id'),
    entrNo: S('supplier number'),
    brandNo: S('brand number'),
    stdCtgNo: S('standard category number'),
    saleStatCd: S('sale status code'),
    saleStatCdList: Type.Optional(StringList('sale status codes')),
    goodsCompCd: S('goods composition code'),
    goodsTypCd: S('goods type code'),
    saleMethCd: S('sale method code'),
    buyTypCd: S('purchase type code'),
    deliProcTypCd: S('delivery processing type'),
    goodsNm: S('goods name'),
    goodsNo: S('goods number'),
    dispCtgNo: S('display category number'),
    rglrDeliGoodsYn: S('regular-delivery flag'),
    frgnDirPurGoodsYn: S('direct-purchase-from-abroad flag'),
    mkdpNm: S('promotion (exhibition) name'),
    brefDesc: S('promotion brief description'),
    introConts: S('promotion introduction'),
    divobjNm: S('divider name'),
    searchCodeOption: Type.Optional(SearchCodeOption),
    searchCodeFrom: S('range start (mode rg)'),
    searchCodeTo: S('range end (mode rg)'),
    searchCode: S('goods number'),
    searchCodeText: S('goods-number search text (mode mt: comma or newline separated)'),
    searchCodeTextList: Type.Optional(StringList('goods-number search texts (multiple)')),
    // int32: an unbounded page (1e309 reads as Infinity, 1e20 as an OFFSET MySQL cannot parse) is a validation error, not a 500.
    page: Type.Optional(Type.Integer({ format: 'int32', minimum: 1, default: 1, description: 'page number, from 1' })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'rows per page, at most 1,000' })),
  },
  { $id: 'AiGoodsListRequest' },
);
export type AiGoodsListRequest = Static<typeof AiGoodsListRequest>;

export const AiGoodsListItem = Type.Object(
  {
    goodsNo: Type.String(),
    goodsNm: Type.String(),
    goodsCompCd: NullableString(),
    goodsTypCd: NullableString(),
    goodsReason: Type.String({ description: 'recommendation reason' }),
    entrNm: NullableString(),
    entrNo: Type.String(),
    brandNm: NullableString(),
    saleMethCd: NullableString(),
    saleStatCd: Type.String(),
    saleStatCdNm: NullableString(),
    buyTypCd: NullableString(),
    deliProcTypCd: NullableString(),
    deliGoodsGbCd: NullableString(),
    deliWayCd: NullableString(),
    mdNm: NullableString(),
    dispYn: Type.String(),
    deliProcTypCdNm: NullableString(),
    deliGoodsGbCdNm: NullableString(),
    dispDlexAmt: NullableString('delivery fee'),
    stdCtgHierarchy: Type.String(),
    buyrAgeLmtCd: NullableString(),
    buyQtyLmtYn: Type.String(),
    rglrDeliGoodsYn: Type.String(),
    goodsRegDtm: Type.String({ format: 'local-date-time' }),
    salePrc: Type.Number(),
    minLmtQty: Type.Union([Type.Integer({ format: 'int32' }), Type.Null()]),
    maxLmtQty: Type.Union([Type.Integer({ format: 'int32' }), Type.Null()]),
    score: Type.Optional(Type.Number({ description: 'recommendation score, higher first' })),
  },
  { $id: 'AiGoodsListItem' },
);
export type AiGoodsListItem = Static<typeof AiGoodsListItem>;
export const AiGoodsList = ListWrapper(AiGoodsListItem, 'AiGoodsList');
export const AiGoodsListEnvelope = Envelope(AiGoodsList, 'AiGoodsListEnvelope');

/*
 * What `content` holds for each PR050 output kind (AI_DESC_OPTIONS). The JSON kinds are sent
 * as a JSON string that parses to a value valid against the schema; the same schemas are the
 * structured-output schemas given to the model.
 */
export const AiDetailText = Type.String({ minLength: 1, maxLength: 5000, description: 'detail description, plain text' });
export const AiSellingPoints = Type.Array(Type.String({ minLength: 1, maxLength: 300 }), {
  $id: 'AiSellingPoints',
  minItems: 1,
  maxItems: 7,
  description: 'selling points, one sentence each',
});
export const AiSeoMeta = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 80 }),
    description: Type.String({ minLength: 1, maxLength: 300 }),
    keywords: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { minItems: 1, maxItems: 15 }),
  },
  { $id: 'AiSeoMeta', additionalProperties: false },
);
export const AiFaq = Type.Array(
  Type.Object(
    { question: Type.String({ minLength: 1, maxLength: 200 }), answer: Type.String({ minLength: 1, maxLength: 1000 }) },
    { additionalProperties: false },
  ),
  { $id: 'AiFaq', minItems: 1, maxItems: 8 },
);
export const AI_DESC_CONTENT_SCHEMAS = {
  'detail-text': AiDetailText,
  'selling-points': AiSellingPoints,
  'seo-meta': AiSeoMeta,
  faq: AiFaq,
} as const;

/**
 * What the model must answer for a description: the content and the ids of the document pages
 * (as labelled in the prompt) it drew on. Citations are then verified against the page texts.
 */
export const aiDescModelOutput = (content: TSchema) =>
  Type.Object(
    {
      content,
      sources: Type.Array(Type.String(), { description: 'ids of the document pages the content used, e.g. "P2"' }),
    },
    { additionalProperties: false, description: 'a goods description written only from the given data' },
  );

const Proposal = (description: string) => Type.String({ description: `${description}; empty string when unknown` });

/** What the model proposes for auto-fill; brand and category are proposals that verification checks. */
export const AiAutoFillModelOutput = Type.Object(
  {
    goodsNm: Proposal('cleaned goods name'),
    schKwdNm: Proposal('search keywords, comma separated'),
    seoTitleNm: Proposal('SEO title'),
    seoDesc: Proposal('SEO description'),
    seoKwdNm: Proposal('SEO keywords, comma separated'),
    modlNm: Proposal('model code as written in the product name'),
    mfcoNm: Proposal('manufacturer'),
    homeNm: Proposal('country of origin'),
    salemnNm: Proposal('seller'),
    incomNm: Proposal('importer'),
    brandNm: Proposal('brand name'),
    stdCtgNo: Proposal('one stdCtgNo from the candidate list'),
    content: Proposal('short detail description'),
  },
  { additionalProperties: false, description: 'registration fields proposed from a product name' },
);
export type AiAutoFillModelOutput = Static<typeof AiAutoFillModelOutput>;
