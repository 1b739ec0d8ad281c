import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { GoodsReviewStatus } from '@bo/contracts';
import { type TestDatabase } from '@bo/testing';
import { ADMIN_TOKEN, PATHS, clearRows, goods, review, startDashboardApp, type ReviewRow } from './fixtures.ts';

// 2024-05-10 12:00:00 in Seoul (UTC+9, no daylight saving): the window is
// [2024-05-03 12:00:00, 2024-05-10 12:00:00], both ends included.
const NOW = new Date('2024-05-10T03:00:00Z');
const WINDOW_START = '2024-05-03 12:00:00';
const WINDOW_END = '2024-05-10 12:00:00';

/** The rule restated over the arranged rows. */
function expectedRows(rows: ReviewRow[], window: { from: string; to: string }, siteNo?: string) {
  const counted = rows.filter(
    (r) =>
      r.reg_dtm >= window.from &&
      r.reg_dtm <= window.to &&
      r.del_yn !== 'Y' &&
      r.rev_disp_stat_cd === '20' &&
      (!siteNo || r.site_no === siteNo),
  );
  return [
    { revStateCd: '10', revState: '신규 리뷰', revCnt: counted.length },
    { revStateCd: '20', revState: '고평점 리뷰', revCnt: counted.filter((r) => r.star_score >= 4).length },
    { revStateCd: '30', revState: '저평점 리뷰', revCnt: counted.filter((r) => r.star_score <= 2).length },
  ];
}

describe('dashboard: goods review status', () => {
  let db: TestDatabase;
  let app: Express;
  let clockNow = NOW;

  before(async () => {
    ({ db, app } = await startDashboardApp('dash_review', { clock: () => clockNow }));
  });
  after(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await clearRows(db);
    await db.knex('goods').insert([goods('G1'), goods('G2')]);
  });

  // Issue 17.6: the window at Seoul midnight, clock given in UTC so no process zone takes part.
  it('when the clock reads 23:59:59.999 and then 00:00:00 in Seoul, then the window moves by exactly that step', async () => {
    const rows = ['2024-05-02 23:59:59', '2024-05-03 00:00:00', '2024-05-09 23:59:59', '2024-05-10 00:00:00'].map((reg_dtm, i) =>
      review('G1', { reg_dtm, mbr_no: `M${i}` }),
    );
    await db.knex('goods_review').insert(rows);
    try {
      clockNow = new Date('2024-05-09T14:59:59.999Z'); // 2024-05-09 23:59:59.999 in Seoul
      const before = await request(app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
      expect(before.body).to.deep.equal(expectedRows(rows, { from: '2024-05-02 23:59:59', to: '2024-05-09 23:59:59' }));
      expect((before.body as { revCnt: number }[])[0]!.revCnt, 'from 2 May 23:59:59 to 9 May 23:59:59').to.equal(3);
      clockNow = new Date('2024-05-09T15:00:00.000Z'); // 2024-05-10 00:00:00 in Seoul
      const after = await request(app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
      expect(after.body).to.deep.equal(expectedRows(rows, { from: '2024-05-03 00:00:00', to: '2024-05-10 00:00:00' }));
      expect((after.body as { revCnt: number }[])[0]!.revCnt, 'from 3 May 00:00:00 to 10 May 00:00:00').to.equal(3);
    } finally {
      clockNow = NOW;
    }
  });

  it('when there are no reviews, then the three rows are present with 0', async () => {
    const res = await request(app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal(expectedRows([], { from: WINDOW_START, to: WINDOW_END }));
    expect((res.body as GoodsReviewStatus).map((r) => r.revCnt)).to.deep.equal([0, 0, 0]);
  });

  it('when reviews are rated 5, 4, 3, 2 and 1, then 4 and up are high, 2 and down are low, 3 is only new', async () => {
    const rows = [5, 4, 3, 2, 1].map((star) => review('G1', { star_score: star }));
    await db.knex('goods_review').insert(rows);
    const res = await request(app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
    expect(res.body).to.deep.equal(expectedRows(rows, { from: WINDOW_START, to: WINDOW_END }));
    expect((res.body as GoodsReviewStatus).map((r) => r.revCnt)).to.deep.equal([5, 2, 2]);
  });

  it('when a review is exactly 7 days old it counts, one second older does not; now counts, one second ahead does not', async () => {
    const rows = [
      review('G1', { reg_dtm: WINDOW_START, star_score: 5 }),
      review('G1', { reg_dtm: '2024-05-03 11:59:59', star_score: 5 }),
      review('G2', { reg_dtm: WINDOW_END, star_score: 1 }),
      review('G2', { reg_dtm: '2024-05-10 12:00:01', star_score: 1 }),
    ];
    await db.knex('goods_review').insert(rows);
    const res = await request(app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
    expect(res.body).to.deep.equal(expectedRows(rows, { from: WINDOW_START, to: WINDOW_END }));
    expect((res.body as GoodsReviewStatus).map((r) => r.revCnt)).to.deep.equal([2, 1, 1]);
  });

  it('when reviews are deleted or not display-processed, then they are not counted', async () => {
    const rows = [
      review('G1', { star_score: 5 }),
      review('G1', { star_score: 5, del_yn: 'Y' }),
      review('G1', { star_score: 1, rev_disp_stat_cd: '10' }),
      review('G1', { star_score: 1, rev_disp_stat_cd: '30' }),
      review('G2', { star_score: 2 }),
    ];
    await db.knex('goods_review').insert(rows);
    const res = await request(app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
    expect(res.body).to.deep.equal(expectedRows(rows, { from: WINDOW_START, to: WINDOW_END }));
    expect((res.body as GoodsReviewStatus).map((r) => r.revCnt)).to.deep.equal([2, 1, 1]);
  });

  it('when siteNo is given, then only reviews of that site count', async () => {
    const rows = [
      review('G1', { site_no: 'S1' }),
      review('G1', { site_no: 'S2', star_score: 2 }),
      review('G2', { site_no: 'S2', star_score: 3 }),
    ];
    await db.knex('goods_review').insert(rows);
    const res = await request(app).get(PATHS.review).query({ siteNo: 'S2' }).set('Authorization', ADMIN_TOKEN);
    expect(res.body).to.deep.equal(expectedRows(rows, { from: WINDOW_START, to: WINDOW_END }, 'S2'));
  });

  describe('with PLATFORM_TIME_ZONE=UTC', () => {
    let utc: { db: TestDatabase; app: Express };
    before(async () => {
      utc = await startDashboardApp('dash_review_utc', { clock: () => NOW, env: { PLATFORM_TIME_ZONE: 'UTC' } });
      await utc.db.knex('goods').insert(goods('G1'));
    });
    after(async () => {
      await utc.db.drop();
    });

    it('when the platform zone is UTC, then the same instant is 2024-05-10 03:00:00 and the window moves with it', async () => {
      const window = { from: '2024-05-03 03:00:00', to: '2024-05-10 03:00:00' };
      const rows = [
        review('G1', { reg_dtm: '2024-05-03 03:00:00' }),
        review('G1', { reg_dtm: '2024-05-03 02:59:59' }),
        review('G1', { reg_dtm: '2024-05-10 03:00:01' }),
      ];
      await utc.db.knex('goods_review').insert(rows);
      const res = await request(utc.app).get(PATHS.review).set('Authorization', ADMIN_TOKEN);
      expect(res.body).to.deep.equal(expectedRows(rows, window));
      expect((res.body as GoodsReviewStatus)[0]!.revCnt).to.equal(1);
    });
  });
});
