import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ErrorCode, SaleStockStatus } from '@bo/contracts';
import { type TestDatabase, bearer } from '@bo/testing';
import { ADMIN_TOKEN, PATHS, clearRows, goods, startDashboardApp, type GoodsRow } from './fixtures.ts';

const STATUS_CODES = ['00', '02', '03', '10', '20'];
const BUILT_IN_NAMES: Record<string, string> = { '00': '재고부족', '02': '승인대기', '03': '반려', '10': '판매중', '20': '품절' };

/** The rule restated over the arranged rows: 00 = stock-managed, on sale, stock at or below safety stock. */
function expectedCounts(rows: GoodsRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const cd of STATUS_CODES) out[cd] = rows.filter((g) => g.sale_stat_cd === cd).length;
  out['00'] = rows.filter((g) => g.sale_stat_cd === '10' && g.stk_mgr_yn === 'Y' && g.stk_qty <= g.sfty_stk_qty).length;
  return out;
}

const countsOf = (body: SaleStockStatus) => Object.fromEntries(body.goodsStatuses.map((s) => [s.saleStatCd, s.cnt]));

describe('dashboard: goods sale/stock status', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    ({ db, app } = await startDashboardApp('dash_sale'));
  });
  after(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await clearRows(db);
  });

  it('when there are no goods, then every status is present in order with count 0 and its built-in name', async () => {
    const res = await request(app).get(PATHS.saleStock).set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      goodsStatuses: STATUS_CODES.map((cd) => ({ saleStatCd: cd, saleStatCdNm: BUILT_IN_NAMES[cd], cnt: 0 })),
      mdMatchedStdCtgCount: 0,
    });
  });

  it('when stock equals the safety stock, then the goods is low stock; one above is not; unmanaged stock never is', async () => {
    const rows = [
      goods('G-EQ', { stk_qty: 5, sfty_stk_qty: 5 }),
      goods('G-ABOVE', { stk_qty: 6, sfty_stk_qty: 5 }),
      goods('G-ZERO', { stk_qty: 0, sfty_stk_qty: 0 }),
      goods('G-UNMANAGED', { stk_mgr_yn: 'N', stk_qty: 0, sfty_stk_qty: 5 }),
      goods('G-SOLDOUT-LOW', { sale_stat_cd: '20', stk_qty: 0, sfty_stk_qty: 5 }),
      goods('G-WAIT-LOW', { sale_stat_cd: '02', stk_qty: 1, sfty_stk_qty: 5 }),
      goods('G-REJECTED', { sale_stat_cd: '03' }),
      goods('G-REJECTED2', { sale_stat_cd: '03' }),
      goods('G-OTHER-STATUS', { sale_stat_cd: '90' }),
    ];
    await db.knex('goods').insert(rows);

    const res = await request(app).get(PATHS.saleStock).set('Authorization', ADMIN_TOKEN);

    expect(res.status).to.equal(200);
    const body = res.body as SaleStockStatus;
    const expected = expectedCounts(rows);
    expect(countsOf(body)).to.deep.equal(expected);
    // The arrangement really sits on the boundary: exactly G-EQ and G-ZERO are low, and they stay in "on sale".
    expect(expected['00']).to.equal(2);
    expect(expected['10']).to.equal(4);
    expect(body.goodsStatuses.map((s) => s.saleStatCd)).to.deep.equal(STATUS_CODES);
  });

  it('when SALE_STAT names exist in the common codes, then they are used and a missing one falls back to the built-in name', async () => {
    await db.knex('cm_cd').insert([
      { grp_cd: 'SALE_STAT', cd: '10', cd_nm: 'On sale', sort_seq: 1, use_yn: 'Y' },
      { grp_cd: 'SALE_STAT', cd: '20', cd_nm: 'Sold out', sort_seq: 2, use_yn: 'Y' },
      { grp_cd: 'OTHER', cd: '02', cd_nm: 'not a sale status', sort_seq: 1, use_yn: 'Y' },
    ]);
    const res = await request(app).get(PATHS.saleStock).set('Authorization', ADMIN_TOKEN);
    const names = Object.fromEntries((res.body as SaleStockStatus).goodsStatuses.map((s) => [s.saleStatCd, s.saleStatCdNm]));
    expect(names).to.deep.equal({ ...BUILT_IN_NAMES, '10': 'On sale', '20': 'Sold out' });
  });

  it("when categories are mapped to the caller, then mdMatchedStdCtgCount is their number; an admin naming a user gets that user's", async () => {
    const mappings = [
      { user_id: 'md01', std_ctg_no: 'A' },
      { user_id: 'md01', std_ctg_no: 'B' },
      { user_id: 'md01', std_ctg_no: 'C' },
      { user_id: 'md02', std_ctg_no: 'A' },
    ];
    await db.knex('md_std_ctg').insert(mappings);
    const countFor = (userId: string) => mappings.filter((m) => m.user_id === userId).length;

    const own = await request(app)
      .get(PATHS.saleStock)
      .set('Authorization', bearer({ sub: 'md01', workGrpCd: 'BO_MD' }));
    expect((own.body as SaleStockStatus).mdMatchedStdCtgCount).to.equal(countFor('md01'));

    const named = await request(app).get(PATHS.saleStock).query({ userId: 'md02' }).set('Authorization', ADMIN_TOKEN);
    expect((named.body as SaleStockStatus).mdMatchedStdCtgCount).to.equal(countFor('md02'));
  });

  it('when there is no bearer token, then 401 with the ErrorCode body', async () => {
    const res = await request(app).get(PATHS.saleStock);
    expect(res.status).to.equal(401);
    expect(res.body).to.include({ code: '1101', httpStatus: 401, isProcess: false });
  });

  it('when entrNo is longer than a supplier number, then 900 naming entrNo', async () => {
    const res = await request(app)
      .get(PATHS.saleStock)
      .query({ entrNo: 'E'.repeat(21) })
      .set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '1000', httpStatus: 400 });
    expect((res.body as ErrorCode).errors?.map((e) => e.field)).to.deep.equal(['entrNo']);
  });
});
