import type { Express } from 'express';
import { boSourceMigrations } from '@bo/db';
import { createTestDatabase, type TestDatabase, TEST_JWT_SECRET, bearer, testLogger } from '@bo/testing';
import { createBackofficeApp, loadBackofficeConfig } from '../../src/index.ts';

export const BASE = '/api/bo/v2/dashboard/goods';
export const PATHS = {
  saleStock: `${BASE}/sale-stock-status`,
  restock: `${BASE}/restock-notice-status`,
  qna: `${BASE}/qna-answer-status`,
  review: `${BASE}/goods-review-status`,
} as const;

export const ADMIN_TOKEN = bearer({ sub: 'admin01', workGrpCd: 'BO_ADMIN' });

/** The real app on a fresh database; `clock` fixes "now" for the time-window rules. */
export async function startDashboardApp(
  label: string,
  options: { clock?: () => Date; env?: Record<string, string> } = {},
): Promise<{ db: TestDatabase; app: Express }> {
  const db = await createTestDatabase(label, boSourceMigrations);
  const config = loadBackofficeConfig({
    ...process.env,
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    BO_DATABASE_URL: db.url,
    ...options.env,
  });
  const app = createBackofficeApp({ config, logger: testLogger(), knex: db.knex, ...(options.clock ? { clock: options.clock } : {}) });
  return { db, app };
}

/** Tables the dashboard reads; emptied before each test so every test arranges all it counts. */
const TABLES = ['goods_review', 'restock_noti_req', 'goods_qna', 'goods', 'md_std_ctg', 'std_ctg', 'bo_user', 'cm_cd'];
export async function clearRows(db: TestDatabase): Promise<void> {
  for (const table of TABLES) await db.knex(table).delete();
}

export interface GoodsRow {
  goods_no: string;
  goods_nm: string;
  entr_no: string;
  std_ctg_no: string;
  sale_stat_cd: string;
  stk_mgr_yn: 'Y' | 'N';
  stk_qty: number;
  sfty_stk_qty: number;
  goods_reg_dtm: string;
}

/** A goods row on sale with plenty of stock unless told otherwise. */
export const goods = (goodsNo: string, overrides: Partial<GoodsRow> = {}): GoodsRow => ({
  goods_no: goodsNo,
  goods_nm: `name of ${goodsNo}`,
  entr_no: 'E1',
  std_ctg_no: 'C1',
  sale_stat_cd: '10',
  stk_mgr_yn: 'Y',
  stk_qty: 100,
  sfty_stk_qty: 5,
  goods_reg_dtm: '2024-01-01 00:00:00',
  ...overrides,
});

/** A standard category under `parent` (null: a root). */
export const category = (stdCtgNo: string, parent: string | null, depth: number) => ({
  std_ctg_no: stdCtgNo,
  upr_std_ctg_no: parent,
  std_ctg_nm: `category ${stdCtgNo}`,
  depth,
  leaf_yn: 'N',
});

/**
 * The category tree the scoping tests use:
 *   A ─ A1 ─ A1a        (A1 is mapped to the MD: A1 and A1a are in, A and A2 are out)
 *     └ A2
 *   B                   (unrelated root)
 */
export const TREE = [
  category('A', null, 1),
  category('A1', 'A', 2),
  category('A1a', 'A1', 3),
  category('A2', 'A', 2),
  category('B', null, 1),
];

/** A review that counts unless told otherwise. */
export interface ReviewRow {
  goods_no: string;
  site_no: string;
  mbr_no: string;
  star_score: number;
  reg_dtm: string;
  del_yn: 'Y' | 'N';
  rev_disp_stat_cd: string;
}
export const review = (goodsNo: string, overrides: Partial<ReviewRow> = {}): ReviewRow => ({
  goods_no: goodsNo,
  site_no: 'S1',
  mbr_no: 'M1',
  star_score: 5,
  reg_dtm: '2024-05-10 09:00:00',
  del_yn: 'N',
  rev_disp_stat_cd: '20',
  ...overrides,
});

export interface RestockRow {
  goods_no: string;
  site_no: string;
  mbr_no: string;
  req_dtm: string;
  noti_yn: 'Y' | 'N';
}
export const restockRequest = (goodsNo: string, overrides: Partial<RestockRow> = {}): RestockRow => ({
  goods_no: goodsNo,
  site_no: 'S1',
  mbr_no: 'M1',
  req_dtm: '2024-05-01 10:00:00',
  noti_yn: 'N',
  ...overrides,
});

export interface QuestionRow {
  site_no: string;
  mbr_no: string;
  goods_no: string;
  entr_no: string;
  quest_typ_cd: string | null;
  quest_title: string;
  quest_cont: string;
  quest_dtm: string;
  proc_stat_cd: string;
  proc_stat_dtm: string | null;
}
export const question = (goodsNo: string, overrides: Partial<QuestionRow> = {}): QuestionRow => ({
  site_no: 'S1',
  mbr_no: 'M1',
  goods_no: goodsNo,
  entr_no: 'E1',
  quest_typ_cd: '10',
  quest_title: `about ${goodsNo}`,
  quest_cont: 'Is it waterproof?',
  quest_dtm: '2024-05-01 10:00:00',
  proc_stat_cd: '10',
  proc_stat_dtm: null,
  ...overrides,
});
