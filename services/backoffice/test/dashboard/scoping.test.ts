import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { GoodsReviewStatus, QnaAnswerStatus, RestockNoticeStatus, SaleStockStatus } from '@bo/contracts';
import { type TestDatabase, bearer } from '@bo/testing';
import { ADMIN_TOKEN, PATHS, TREE, goods, question, restockRequest, review, startDashboardApp, type GoodsRow } from './fixtures.ts';

// Seoul 2024-05-10 12:00:00; every arranged review is inside the 7-day window.
const NOW = new Date('2024-05-10T03:00:00Z');

/** Two suppliers, goods in every category of the tree, each with one request, question and review. */
const GOODS: GoodsRow[] = [
  goods('G-A', { std_ctg_no: 'A', entr_no: 'E1' }),
  goods('G-A1', { std_ctg_no: 'A1', entr_no: 'E1' }),
  goods('G-A1a', { std_ctg_no: 'A1a', entr_no: 'E2' }),
  goods('G-A1a-2', { std_ctg_no: 'A1a', entr_no: 'E1', sale_stat_cd: '20' }),
  goods('G-A2', { std_ctg_no: 'A2', entr_no: 'E2' }),
  goods('G-B', { std_ctg_no: 'B', entr_no: 'E1' }),
];
const entrOf = (goodsNo: string) => GOODS.find((g) => g.goods_no === goodsNo)!.entr_no;
const REQUESTS = GOODS.map((g) => restockRequest(g.goods_no));
const QUESTIONS = GOODS.map((g) => question(g.goods_no, { entr_no: g.entr_no }));
const REVIEWS = GOODS.map((g) => review(g.goods_no, { reg_dtm: '2024-05-09 10:00:00' }));

/** What each caller may see, stated by hand from the tree: md01 is mapped to A1, so A1 and A1a. */
const MD01_CATEGORIES = ['A1', 'A1a'];
type Visible = (g: GoodsRow) => boolean;
const everything: Visible = () => true;

const CASES: { name: string; auth: string; query: Record<string, string>; visible: Visible }[] = [
  { name: 'an admin', auth: ADMIN_TOKEN, query: {}, visible: everything },
  { name: 'an admin asking for supplier E2', auth: ADMIN_TOKEN, query: { entrNo: 'E2' }, visible: (g) => g.entr_no === 'E2' },
  {
    name: 'a supplier token of E1',
    auth: bearer({ sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: 'E1' }),
    query: {},
    visible: (g) => g.entr_no === 'E1',
  },
  {
    name: 'a supplier token of E1 naming E1 and itself',
    auth: bearer({ sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: 'E1' }),
    query: { entrNo: 'E1', userId: 'entr01' },
    visible: (g) => g.entr_no === 'E1',
  },
  {
    name: 'a BO_MD with mapped category A1',
    auth: bearer({ sub: 'md01', workGrpCd: 'BO_MD' }),
    query: {},
    visible: (g) => MD01_CATEGORIES.includes(g.std_ctg_no),
  },
  { name: 'a BO_MD without mapped categories', auth: bearer({ sub: 'md02', workGrpCd: 'BO_MD' }), query: {}, visible: everything },
  { name: 'an admin naming md01', auth: ADMIN_TOKEN, query: { userId: 'md01' }, visible: (g) => MD01_CATEGORIES.includes(g.std_ctg_no) },
  {
    name: 'an admin with mapped categories (not BO_MD)',
    auth: bearer({ sub: 'admin02', workGrpCd: 'BO_ADMIN' }),
    query: {},
    visible: everything,
  },
  {
    name: 'a BO_MD with mapped categories whose token names a supplier',
    auth: bearer({ sub: 'md01', workGrpCd: 'BO_MD', entrNo: 'E1' }),
    query: {},
    visible: (g) => MD01_CATEGORIES.includes(g.std_ctg_no) && g.entr_no === 'E1',
  },
];

describe('dashboard: scoping from the token', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    ({ db, app } = await startDashboardApp('dash_scope', { clock: () => NOW }));
    await db.knex('std_ctg').insert(TREE);
    await db.knex('bo_user').insert([
      { user_id: 'md01', user_nm: 'MD one', work_grp_cd: 'BO_MD', entr_no: null },
      { user_id: 'md02', user_nm: 'MD two', work_grp_cd: 'BO_MD', entr_no: null },
      { user_id: 'admin02', user_nm: 'Admin two', work_grp_cd: 'BO_ADMIN', entr_no: null },
    ]);
    await db.knex('md_std_ctg').insert([
      { user_id: 'md01', std_ctg_no: 'A1' },
      { user_id: 'admin02', std_ctg_no: 'B' },
    ]);
    await db.knex('goods').insert(GOODS);
    await db.knex('restock_noti_req').insert(REQUESTS);
    await db.knex('goods_qna').insert(QUESTIONS);
    await db.knex('goods_review').insert(REVIEWS);
  });
  after(async () => {
    await db.drop();
  });

  for (const c of CASES) {
    it(`when ${c.name} reads the dashboard, then every count covers exactly the goods it may see`, async () => {
      const visible = new Set(GOODS.filter(c.visible).map((g) => g.goods_no));
      // Every case must have something to count, or a wrong filter returning nothing would pass.
      expect(visible.size).to.be.greaterThan(0);

      const sale = await request(app).get(PATHS.saleStock).query(c.query).set('Authorization', c.auth);
      expect(sale.status).to.equal(200);
      const onSale = GOODS.filter((g) => visible.has(g.goods_no) && g.sale_stat_cd === '10').length;
      const soldOut = GOODS.filter((g) => visible.has(g.goods_no) && g.sale_stat_cd === '20').length;
      const cnt = Object.fromEntries((sale.body as SaleStockStatus).goodsStatuses.map((s) => [s.saleStatCd, s.cnt]));
      expect([cnt['10'], cnt['20']]).to.deep.equal([onSale, soldOut]);

      const restock = await request(app).get(PATHS.restock).query(c.query).set('Authorization', c.auth);
      expect(restock.status).to.equal(200);
      const restockBody = restock.body as RestockNoticeStatus;
      expect(restockBody.totCnt).to.equal(REQUESTS.filter((r) => visible.has(r.goods_no)).length);
      expect(restockBody.list.map((x) => x.goodsNo).sort()).to.deep.equal([...visible].sort());

      const qna = await request(app).get(PATHS.qna).query(c.query).set('Authorization', c.auth);
      expect(qna.status).to.equal(200);
      const qnaBody = qna.body as QnaAnswerStatus;
      expect(qnaBody.totalCnt).to.equal(QUESTIONS.filter((q) => visible.has(q.goods_no)).length);
      expect(qnaBody.list.every((q) => visible.has(q.goodsNo) && q.entrNo === entrOf(q.goodsNo))).to.equal(true);

      const reviews = await request(app).get(PATHS.review).query(c.query).set('Authorization', c.auth);
      expect(reviews.status).to.equal(200);
      expect((reviews.body as GoodsReviewStatus)[0]).to.include({
        revStateCd: '10',
        revCnt: REVIEWS.filter((r) => visible.has(r.goods_no)).length,
      });
    });
  }

  for (const [name, path] of Object.entries(PATHS)) {
    it(`when a supplier token names another supplier (${name}), then 403 SUPPLIER_SCOPE`, async () => {
      const res = await request(app)
        .get(path)
        .query({ entrNo: 'E2' })
        .set('Authorization', bearer({ sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: 'E1' }));
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({
        code: '1202',
        message: 'A supplier token may only read its own supplier',
        httpStatus: 403,
        isProcess: false,
      });
    });

    it(`when a non-admin names another user (${name}), then 403 USER_SCOPE`, async () => {
      const res = await request(app)
        .get(path)
        .query({ userId: 'md02' })
        .set('Authorization', bearer({ sub: 'md01', workGrpCd: 'BO_MD' }));
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ code: '1203', message: 'Only BO_ADMIN may read another user', httpStatus: 403, isProcess: false });
    });

    it(`when there is no bearer token (${name}), then 401`, async () => {
      const res = await request(app).get(path);
      expect(res.status).to.equal(401);
      expect(res.body).to.include({ code: '1101', httpStatus: 401 });
    });
  }
});
