import { expect } from 'chai';
import type { Express } from 'express';
import type { Response } from 'supertest';
import type { AiGoodsDescResponse } from '@bo/contracts';
import { type Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import { createTestDatabase, type TestDatabase, ADMIN, bearer, TEST_JWT_SECRET, testLogger } from '@bo/testing';
import { boMigrations } from '@bo/aggregates';
import { createBackofficeApp, loadBackofficeConfig } from '../../../src/index.ts';

export const BO = '/api/bo';
export const ADMIN_AUTH = bearer(ADMIN);
export const supplierAuth = (entrNo: string) => bearer({ sub: `entr.${entrNo}`, workGrpCd: 'BO_ENTR', entrNo });

/** The source tables and the aggregation worker's tables (the AI list reads demand from those). */
export const aiDatabase = (label: string): Promise<TestDatabase> => createTestDatabase(label, boMigrations);

export function aiApp(db: TestDatabase, env: Record<string, string> = {}, clock?: () => Date, logger: Logger = testLogger()): Express {
  const config = loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, ...env });
  return createBackofficeApp({ config, logger, knex: db.knex, ...(clock ? { clock } : {}) });
}

/** Hand-built masters: a few brands with aliases, a 4-level category tree, attributes, notice items, codes. */
export const BRANDS = [
  { brand_no: 'B001', brand_nm: '나이키', brand_eng_nm: 'NIKE', use_yn: 'Y' },
  { brand_no: 'B002', brand_nm: '뉴발란스', brand_eng_nm: 'NEW BALANCE', use_yn: 'Y' },
  { brand_no: 'B003', brand_nm: '닥터마틴', brand_eng_nm: 'DR. MARTENS', use_yn: 'Y' },
  { brand_no: 'B004', brand_nm: '마틴', brand_eng_nm: 'MARTIN', use_yn: 'Y' },
  { brand_no: 'B005', brand_nm: '에이스', brand_eng_nm: 'ACE', use_yn: 'Y' },
  { brand_no: 'B006', brand_nm: '에이스침대', brand_eng_nm: 'ACE BED', use_yn: 'Y' },
  { brand_no: 'B007', brand_nm: '삼성전자', brand_eng_nm: 'SAMSUNG', use_yn: 'Y' },
  { brand_no: 'B008', brand_nm: '올드브랜드', brand_eng_nm: 'OLDBRAND', use_yn: 'N' },
];
export const ALIASES = [
  { brand_no: 'B001', alias_nm: 'Nike' },
  { brand_no: 'B001', alias_nm: '나이끼' },
  { brand_no: 'B002', alias_nm: '뉴발' },
  { brand_no: 'B002', alias_nm: 'NB' },
  { brand_no: 'B003', alias_nm: '닥마' },
  { brand_no: 'B006', alias_nm: '에이스' },
  { brand_no: 'B007', alias_nm: '삼성' },
];

const ctg = (no: string, upr: string | null, nm: string, depth: number, extra: Record<string, unknown> = {}) => ({
  std_ctg_no: no,
  upr_std_ctg_no: upr,
  std_ctg_nm: nm,
  depth,
  leaf_yn: depth === 4 ? 'Y' : 'N',
  md_id: null,
  goods_noti_lisart_cd: null,
  safe_certi_need_yn: 'N',
  safe_certi_tgt_yn: 'N',
  sz_gde_use_yn: 'N',
  sz_gde_reg_meth_cd: null,
  sz_gde_cd: null,
  ...extra,
});
const apparelLeaf = { goods_noti_lisart_cd: '01', sz_gde_use_yn: 'Y', sz_gde_reg_meth_cd: '10', sz_gde_cd: 'SZ_MEN' };
export const CATEGORIES = [
  ctg('01', null, '패션의류', 1),
  ctg('0101', '01', '남성의류', 2, { md_id: 'md001' }),
  ctg('010101', '0101', '티셔츠', 3, { md_id: 'md001' }),
  ctg('01010101', '010101', '반팔티셔츠', 4, apparelLeaf),
  ctg('01010102', '010101', '긴팔티셔츠', 4, apparelLeaf),
  ctg('010102', '0101', '바지', 3, { md_id: 'md001' }),
  ctg('01010201', '010102', '청바지', 4, apparelLeaf),
  ctg('02', null, '패션잡화', 1),
  ctg('0201', '02', '신발', 2, { md_id: 'md002' }),
  ctg('020101', '0201', '운동화', 3),
  ctg('02010101', '020101', '러닝화', 4, {
    goods_noti_lisart_cd: '02',
    sz_gde_use_yn: 'Y',
    sz_gde_reg_meth_cd: '20',
    sz_gde_cd: 'SZ_SHOES',
  }),
  ctg('02010102', '020101', '스니커즈', 4, { goods_noti_lisart_cd: '02' }),
  ctg('03', null, '가전', 1),
  ctg('0301', '03', '주방가전', 2, { md_id: 'md003' }),
  ctg('030101', '0301', '밥솥', 3),
  ctg('03010101', '030101', '전기밥솥', 4, { goods_noti_lisart_cd: '08', safe_certi_need_yn: 'Y', safe_certi_tgt_yn: 'Y', md_id: 'md004' }),
];
const att = (no: string, cd: string, nm: string, typ: string, seq: number) => ({
  std_ctg_no: no,
  att_cd: cd,
  att_nm: nm,
  att_val_typ_cd: typ,
  disp_seq: seq,
});
export const ATTRIBUTES = [
  ...['01010101', '01010102', '01010201'].flatMap((no) => [
    att(no, 'COLOR', '색상', '10', 1),
    att(no, 'SIZE', '사이즈', '10', 2),
    att(no, 'MATERIAL', '소재', '30', 3),
  ]),
  ...['02010101', '02010102'].flatMap((no) => [att(no, 'COLOR', '색상', '10', 1), att(no, 'SHOE_SIZE', '사이즈(mm)', '40', 2)]),
  att('03010101', 'CAPACITY', '용량', '30', 1),
];
const noti = (cd: string, items: string[]) =>
  items.map((nm, i) => ({
    goods_noti_lisart_cd: cd,
    goods_noti_item_cd: String(i + 1).padStart(3, '0'),
    noti_item_nm: nm,
    disp_seq: i + 1,
  }));
export const NOTICE_ITEMS = [
  ...noti('01', ['제품 소재', '색상', '치수', '제조자(수입자)', '제조국']),
  ...noti('02', ['제품 주소재', '색상', '치수', '제조자(수입자)']),
  ...noti('08', ['품명 및 모델명', '정격전압', '제조자(수입자)', '제조국']),
];
const code = (grp_cd: string, cd: string, cd_nm: string, use_yn = 'Y') => ({ grp_cd, cd, cd_nm, sort_seq: Number(cd), use_yn });
export const CODES = [
  code('PR050', '10', '상세설명'),
  code('PR050', '20', '셀링포인트'),
  code('PR050', '30', 'SEO 메타'),
  code('PR050', '40', 'FAQ'),
  code('PR050', '50', '사용중지옵션', 'N'),
  code('PR043', '10', '선택형(단일)'),
  code('PR043', '30', '텍스트입력'),
  code('PR043', '40', '숫자입력'),
  code('SALE_STAT', '00', '재고부족'),
  code('SALE_STAT', '10', '판매중'),
  code('SALE_STAT', '20', '품절'),
  code('DELI_PROC', '10', '업체배송'),
  code('DELI_GB', '10', '일반배송'),
];
export const USERS = [
  { user_id: 'md001', user_nm: '김의류 MD', work_grp_cd: 'BO_MD', entr_no: null },
  { user_id: 'md002', user_nm: '이신발 MD', work_grp_cd: 'BO_MD', entr_no: null },
  { user_id: 'md003', user_nm: '박가전 MD', work_grp_cd: 'BO_MD', entr_no: null },
  { user_id: 'md004', user_nm: '최밥솥 MD', work_grp_cd: 'BO_MD', entr_no: null },
];
export const SUPPLIERS = [
  { entr_no: 'E001', entr_nm: '(주)스포츠유통' },
  { entr_no: 'E002', entr_nm: '가전상사(주)' },
];

export async function insertAiMasters(knex: Knex): Promise<void> {
  await knex('brand').insert(BRANDS);
  await knex('brand_alias').insert(ALIASES);
  await knex('std_ctg').insert(CATEGORIES);
  await knex('std_ctg_att').insert(ATTRIBUTES);
  await knex('goods_noti_item').insert(NOTICE_ITEMS);
  await knex('cm_cd').insert(CODES);
  await knex('bo_user').insert(USERS);
  await knex('entr').insert(SUPPLIERS);
}

/** A goods row with every NOT NULL column filled; `over` sets what a test cares about. */
export const goodsRow = (goodsNo: string, over: Record<string, unknown> = {}) => ({
  goods_no: goodsNo,
  goods_nm: `상품 ${goodsNo}`,
  entr_no: 'E001',
  brand_no: 'B001',
  std_ctg_no: '01010101',
  md_id: 'md001',
  sale_stat_cd: '10',
  goods_comp_cd: '10',
  goods_typ_cd: '10',
  sale_meth_cd: '10',
  buy_typ_cd: '10',
  deli_proc_typ_cd: '10',
  deli_goods_gb_cd: '10',
  deli_way_cd: '10',
  disp_yn: 'Y',
  sale_prc: 10000,
  disp_dlex_amt: 3000,
  buy_qty_lmt_yn: 'N',
  rglr_deli_goods_yn: 'N',
  frgn_dir_pur_goods_yn: 'N',
  sch_kwd_nm: '키워드',
  seo_title_nm: 'SEO 제목',
  seo_desc: 'SEO 설명',
  seo_kwd_nm: 'SEO',
  modl_nm: 'MODEL-1',
  stk_mgr_yn: 'Y',
  stk_qty: 100,
  sfty_stk_qty: 5,
  goods_reg_dtm: '2026-03-01 10:00:00',
  ...over,
});

/** An answer's envelope typed for assertions (a test checks the status before it reads the payload). */
/** One order-status event (`ord_stat_evt`) of a single-line order, 1,000 a unit, as the platform writes it. */
export const statEvent = (
  ordNo: string,
  goodsNo: string,
  qty: number,
  evt: '10' | '20',
  at: string,
  agrt: '01' | '02' = '01',
  site = 'S001',
) => ({
  ord_no: ordNo,
  ord_goods_seq: 1,
  site_no: site,
  goods_no: goodsNo,
  agrt_gb_cd: agrt,
  evt_gb_cd: evt,
  evt_dtm: at,
  qty,
  amt: qty * 1000,
});

export interface TestEnvelope<T> {
  timestamp: string;
  code: string;
  message: string;
  error: boolean;
  isProcess: boolean;
  errors: { field: string; message: string }[];
  payload: T;
}
export const envelope = <T = unknown>(res: Response): TestEnvelope<T> => res.body as TestEnvelope<T>;
/** The description operations answer the response itself, without an envelope. */
export const descBody = (res: Response): AiGoodsDescResponse => res.body as AiGoodsDescResponse;

/** The declared validation failure (900) naming `field`; envelope operations carry it in `errors` too. */
export function expectFieldRefused(res: Response, field: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(900);
  expect(envelope(res).code).to.equal('1000');
  expect(
    envelope(res).errors.map((e) => e.field),
    JSON.stringify(res.body),
  ).to.include(field);
}

/** CHECKSUM TABLE of every table of the database: equal before and after means nothing was written. */
export async function tableChecksums(knex: Knex): Promise<Record<string, unknown>> {
  const [tables] = (await knex.raw('SHOW TABLES')) as unknown as [Record<string, string>[]];
  const names = tables.map((t) => Object.values(t)[0]!);
  const [rows] = (await knex.raw(`CHECKSUM TABLE ${names.map((n) => `\`${n}\``).join(', ')}`)) as unknown as [
    { Table: string; Checksum: unknown }[],
  ];
  return Object.fromEntries(rows.map((r) => [r.Table, r.Checksum]));
}
