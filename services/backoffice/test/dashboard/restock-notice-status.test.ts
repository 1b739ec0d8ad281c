import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ErrorCode, RestockNoticeStatus } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { ADMIN_TOKEN, PATHS, clearRows, goods, restockRequest, startDashboardApp, type RestockRow } from './fixtures.ts';

/** The rule restated: waiting requests per goods, most first, ties by goods number, ten at most. */
function expectedTop(requests: RestockRow[], names: Map<string, string>) {
  const waiting = new Map<string, number>();
  for (const r of requests) if (r.noti_yn === 'N') waiting.set(r.goods_no, (waiting.get(r.goods_no) ?? 0) + 1);
  return [...waiting]
    .map(([goodsNo, cnt]) => ({ goodsNo, goodsNm: names.get(goodsNo)!, cnt }))
    .sort((a, b) => b.cnt - a.cnt || (a.goodsNo < b.goodsNo ? -1 : 1))
    .slice(0, 10);
}

describe('dashboard: restock-notice status', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    ({ db, app } = await startDashboardApp('dash_restock'));
  });
  after(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await clearRows(db);
  });

  it('when nothing waits, then totCnt is 0 and the list is empty', async () => {
    await db.knex('goods').insert(goods('G1'));
    await db.knex('restock_noti_req').insert(restockRequest('G1', { noti_yn: 'Y' }));
    const res = await request(app).get(PATHS.restock).set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ totCnt: 0, list: [] });
  });

  it('when 12 goods have waiting and notified requests, then totCnt counts only waiting ones and the list is the top 10 by count, then goods number', async () => {
    // G01..G12 wait 1..4 times (several ties), plus notified requests that must not count.
    const rows = Array.from({ length: 12 }, (_, i) => goods(`G${String(i + 1).padStart(2, '0')}`));
    const requests: RestockRow[] = rows.flatMap((g, i) => [
      ...Array.from({ length: (i % 4) + 1 }, () => restockRequest(g.goods_no)),
      ...Array.from({ length: 12 - i }, () => restockRequest(g.goods_no, { noti_yn: 'Y' })),
    ]);
    await db.knex('goods').insert(rows);
    await db.knex('restock_noti_req').insert(requests);

    const res = await request(app).get(PATHS.restock).set('Authorization', ADMIN_TOKEN);

    expect(res.status).to.equal(200);
    const body = res.body as RestockNoticeStatus;
    expect(body.totCnt).to.equal(requests.filter((r) => r.noti_yn === 'N').length);
    const expected = expectedTop(requests, new Map(rows.map((g) => [g.goods_no, g.goods_nm])));
    expect(expected).to.have.length(10);
    expect(body.list).to.deep.equal(expected);
  });

  it("when siteNo is given, then only that site's waiting requests count", async () => {
    await db.knex('goods').insert([goods('G1'), goods('G2')]);
    const requests = [
      restockRequest('G1', { site_no: 'S1' }),
      restockRequest('G1', { site_no: 'S2' }),
      restockRequest('G2', { site_no: 'S2' }),
      restockRequest('G2', { site_no: 'S2' }),
    ];
    await db.knex('restock_noti_req').insert(requests);

    const res = await request(app).get(PATHS.restock).query({ siteNo: 'S2' }).set('Authorization', ADMIN_TOKEN);

    const s2 = requests.filter((r) => r.site_no === 'S2');
    const body = res.body as RestockNoticeStatus;
    expect(body.totCnt).to.equal(s2.length);
    expect(body.list).to.deep.equal([
      { goodsNo: 'G2', goodsNm: 'name of G2', cnt: s2.filter((r) => r.goods_no === 'G2').length },
      { goodsNo: 'G1', goodsNm: 'name of G1', cnt: s2.filter((r) => r.goods_no === 'G1').length },
    ]);
  });

  it('when siteNo is longer than a site number, then 900 naming siteNo', async () => {
    const res = await request(app)
      .get(PATHS.restock)
      .query({ siteNo: 'S'.repeat(11) })
      .set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(900);
    expect((res.body as ErrorCode).errors?.map((e) => e.field)).to.deep.equal(['siteNo']);
  });
});
