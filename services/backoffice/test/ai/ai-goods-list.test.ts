import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { type TestDatabase } from '@bo/testing';
import { createKnex } from '@bo/db';
import { demandSource, scoreRecommendedGoods } from '../../src/ai/data-access/recommended-goods.ts';
import { rebuildAggregate } from '@bo/aggregation-worker';
import {
  ADMIN_AUTH,
  aiApp,
  aiDatabase,
  BO,
  CATEGORIES,
  envelope,
  expectFieldRefused,
  goodsRow,
  insertAiMasters,
  statEvent,
  supplierAuth,
} from './helpers/ai-fixtures.ts';
import type { AiGoodsListItem, ListOf } from '@bo/contracts';

/** The payload as the tests read it (optional fields asserted present where a test needs them). */
type List = ListOf<AiGoodsListItem>;

const LIST_V2 = `${BO}/v2/goods/ai/getAiGoodsList`;
const LIST_V1 = `${BO}/v1/goods/ai/getAiGoodsList`;

/**
 * 2026-05-12 12:00 in Seoul: the 30-day window is the 30 whole days before today,
 * [2026-04-12 00:00, 2026-05-12 00:00). Today's rows are aggregated too (as the worker does for
 * the hours already over) but stay out of the window.
 */
const NOW = new Date('2026-05-12T03:00:00Z');
const WINDOW_START = '2026-04-12 00:00:00';
const IN_WINDOW = '2026-05-01 10:00:00';
const BEFORE_WINDOW = '2026-04-11 23:59:59';
const TODAY = '2026-05-12 09:00:00';

interface Arranged {
  goods: ReturnType<typeof goodsRow>[];
  inflow: { goods_no: string; site_no: string; inflow_dtm: string }[];
  events: {
    ord_no: string;
    ord_goods_seq: number;
    site_no: string;
    goods_no: string;
    agrt_gb_cd: string;
    evt_gb_cd: string;
    evt_dtm: string;
    qty: number;
    amt: number;
  }[];
  restock: { goods_no: string; site_no: string; mbr_no: string; req_dtm: string; noti_yn: string }[];
  reviews: {
    goods_no: string;
    site_no: string;
    mbr_no: string;
    star_score: number;
    rev_cont: string;
    reg_dtm: string;
    del_yn: string;
    rev_disp_stat_cd: string;
  }[];
}

function arrange(): Arranged {
  const a: Arranged = { goods: [], inflow: [], events: [], restock: [], reviews: [] };
  const views = (goodsNo: string, n: number, at = IN_WINDOW) => {
    for (let i = 0; i < n; i++) a.inflow.push({ goods_no: goodsNo, site_no: 'S001', inflow_dtm: at });
  };
  let ord = 0;
  const order = (goodsNo: string, qty: number, evt: '10' | '20', agrt: '01' | '02' = '01', at = IN_WINDOW) =>
    a.events.push(statEvent(`O${++ord}`, goodsNo, qty, evt, at, agrt));
  const waiting = (goodsNo: string, n: number, notiYn = 'N') => {
    for (let i = 0; i < n; i++)
      a.restock.push({ goods_no: goodsNo, site_no: 'S001', mbr_no: `M${i}`, req_dtm: IN_WINDOW, noti_yn: notiYn });
  };
  const review = (goodsNo: string, star: number, at = IN_WINDOW, delYn = 'N') =>
    a.reviews.push({
      goods_no: goodsNo,
      site_no: 'S001',
      mbr_no: 'M1',
      star_score: star,
      rev_cont: '후기',
      reg_dtm: at,
      del_yn: delYn,
      rev_disp_stat_cd: '20',
    });

  a.goods.push(
    goodsRow('L01', { goods_nm: '브랜드 없는 반팔티셔츠', brand_no: null, modl_nm: null, goods_reg_dtm: '2026-03-05 09:00:00' }),
  );
  a.goods.push(goodsRow('L02', { goods_nm: '조회만 많은 긴팔티셔츠', std_ctg_no: '01010102', goods_reg_dtm: '2026-03-10 09:00:00' }));
  views('L02', 150);
  views('L02', 50, WINDOW_START);
  order('L02', 1, '10');
  order('L02', 1, '10');
  order('L02', 1, '20');
  order('L02', 40, '10', '02'); // sales events do not count as orders
  order('L02', 5, '10', '01', TODAY); // today is not in the window
  a.goods.push(goodsRow('L03', { goods_nm: '잘 팔리는 긴팔티셔츠', std_ctg_no: '01010102', goods_reg_dtm: '2026-03-11 09:00:00' }));
  views('L03', 150);
  order('L03', 10, '10');
  a.goods.push(
    goodsRow('L04', {
      goods_nm: '품절 러닝화',
      std_ctg_no: '02010101',
      md_id: 'md002',
      sale_stat_cd: '20',
      stk_qty: 0,
      goods_reg_dtm: '2026-04-01 09:00:00',
    }),
  );
  waiting('L04', 3);
  waiting('L04', 1, 'Y');
  a.goods.push(
    goodsRow('L05', {
      goods_nm: '재고 적은 러닝화',
      std_ctg_no: '02010101',
      md_id: 'md002',
      stk_qty: 3,
      sfty_stk_qty: 5,
      goods_reg_dtm: '2026-04-02 09:00:00',
    }),
  );
  a.goods.push(
    goodsRow('L06', { goods_nm: '평점 낮은 스니커즈', std_ctg_no: '02010102', md_id: 'md002', goods_reg_dtm: '2026-04-20 09:00:00' }),
  );
  review('L06', 1);
  review('L06', 2);
  review('L06', 3);
  review('L06', 1, BEFORE_WINDOW);
  review('L06', 1, TODAY);
  review('L06', 1, IN_WINDOW, 'Y');
  a.goods.push(
    goodsRow('L07', {
      goods_nm: '가전상사 전기밥솥',
      entr_no: 'E002',
      brand_no: 'B007',
      std_ctg_no: '03010101',
      md_id: 'md004',
      sch_kwd_nm: ' ',
      seo_title_nm: null,
      goods_reg_dtm: '2025-12-01 09:00:00',
    }),
  );
  a.goods.push(goodsRow('L08', { goods_nm: '예전에만 조회된 청바지', std_ctg_no: '01010201', goods_reg_dtm: '2026-02-01 09:00:00' }));
  views('L08', 150, BEFORE_WINDOW);
  a.goods.push(
    goodsRow('L09', {
      goods_nm: '문제 많은 반팔티셔츠',
      brand_no: null,
      sale_stat_cd: '20',
      stk_qty: 0,
      goods_reg_dtm: '2026-05-02 09:00:00',
    }),
  );
  waiting('L09', 1);
  review('L09', 2);
  a.goods.push(goodsRow('L10', { goods_nm: '오늘만 조회된 청바지', std_ctg_no: '01010201', goods_reg_dtm: '2026-02-02 09:00:00' }));
  views('L10', 150, TODAY);
  // Three listing gaps and no evidence: 35, exactly the default threshold.
  a.goods.push(
    goodsRow('L11', {
      goods_nm: '설명 없는 청바지',
      brand_no: null,
      sch_kwd_nm: null,
      seo_desc: '',
      std_ctg_no: '01010201',
      goods_reg_dtm: '2026-01-15 09:00:00',
    }),
  );
  return a;
}

/**
 * The recommendation rules, restated from the rows: listing gaps (brand 15, keywords 10, SEO 10,
 * model 5); ≥ 100 page views with net ordered quantity ≤ 2 % of them: 30 + 5 per full 100 views
 * (≤ 20 more); sold out or at/below safety stock with waiting restock requests: 25 + one per
 * request (≤ 25 more); low-rated (≤ 2) undeleted reviews in the window: 20 + 5 each (≤ 20 more).
 */
function expectedScores(a: Arranged, from = '2026-04-12 00:00:00', to = '2026-05-12 00:00:00'): Map<string, number> {
  const inWindow = (t: string) => t >= from && t < to;
  const empty = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
  const scores = new Map<string, number>();
  for (const g of a.goods) {
    let s = 0;
    if (empty(g.brand_no)) s += 15;
    if (empty(g.sch_kwd_nm)) s += 10;
    if (empty(g.seo_title_nm) || empty(g.seo_desc)) s += 10;
    if (empty(g.modl_nm)) s += 5;
    const views = a.inflow.filter((v) => v.goods_no === g.goods_no && inWindow(v.inflow_dtm)).length;
    const net = a.events
      .filter((e) => e.goods_no === g.goods_no && e.agrt_gb_cd === '01' && inWindow(e.evt_dtm))
      .reduce((n, e) => n + (e.evt_gb_cd === '10' ? e.qty : -e.qty), 0);
    if (views >= 100 && net <= views * 0.02) s += 30 + Math.min(20, Math.floor(views / 100) * 5);
    const waiting = a.restock.filter((r) => r.goods_no === g.goods_no && r.noti_yn === 'N').length;
    const short = ['00', '20'].includes(g.sale_stat_cd) || (g.stk_mgr_yn === 'Y' && g.stk_qty <= g.sfty_stk_qty);
    if (short && waiting > 0) s += 25 + Math.min(25, waiting);
    const low = a.reviews.filter((r) => r.goods_no === g.goods_no && r.del_yn === 'N' && r.star_score <= 2 && inWindow(r.reg_dtm)).length;
    if (low > 0) s += 20 + Math.min(20, low * 5);
    if (s > 0) scores.set(g.goods_no, s);
  }
  return scores;
}

/** Recommended goods numbers in answer order: score descending, then goods number. */
const ranked = (scores: Map<string, number>, keep: (goodsNo: string) => boolean = () => true): string[] =>
  [...scores]
    .filter(([no]) => keep(no))
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .map(([no]) => no);

describe('AI recommended goods list', () => {
  let db: TestDatabase;
  let app: Express;
  let a: Arranged;
  let scores: Map<string, number>;
  const goodsOf = (no: string) => a.goods.find((g) => g.goods_no === no)!;

  before(async () => {
    db = await aiDatabase('ai_list');
    await insertAiMasters(db.knex);
    a = arrange();
    scores = expectedScores(a);
    await db.knex('goods').insert(a.goods);
    await db.knex('goods_inflow_log').insert(a.inflow);
    await db.knex('ord_stat_evt').insert(a.events);
    await db.knex('restock_noti_req').insert(a.restock);
    await db.knex('goods_review').insert(a.reviews);
    // The worker's aggregates of every day with activity, today included (its hours so far).
    const days = [...new Set([...a.inflow.map((v) => v.inflow_dtm), ...a.events.map((e) => e.evt_dtm)].map((t) => t.slice(0, 10)))];
    for (const day of days) {
      await rebuildAggregate(db.knex, { kind: 'inflow', day, requestedBy: 'cli' });
      await rebuildAggregate(db.knex, { kind: 'goods', day, requestedBy: 'cli' });
    }
    await db.knex('disp_ctg_goods').insert([
      { disp_ctg_no: 'D100', goods_no: 'L02' },
      { disp_ctg_no: 'D200', goods_no: 'L06' },
    ]);
    await db.knex('mkdp').insert({ mkdp_no: 'P1', mkdp_nm: '여름 운동화 기획전', bref_desc: '러닝 시즌', intro_conts: '가볍게 달리기' });
    await db.knex('mkdp_divobj_goods').insert([
      { mkdp_no: 'P1', divobj_nm: '러닝화 코너', goods_no: 'L04' },
      { mkdp_no: 'P1', divobj_nm: '스니커즈 코너', goods_no: 'L06' },
    ]);
    // Threshold 1: the fixture's scores are checked one by one; the default threshold has its own test.
    app = aiApp(db, { AI_LIST_MIN_SCORE: '1' }, () => NOW);
  });
  after(() => db.drop());

  const list = (q: Record<string, unknown>, auth = ADMIN_AUTH, path = LIST_V2) =>
    request(app).get(path).query(q).set('Authorization', auth);
  const numbers = (res: request.Response): string[] => envelope<List>(res).payload.payloads.map((p: { goodsNo: string }) => p.goodsNo);

  // Issue 17.6: the window at Seoul midnight (clock in UTC so no process zone takes part): at
  // 23:59:59.999 on 11 May the window is [11 Apr, 11 May); at 00:00:00 on 12 May, [12 Apr, 12 May).
  it('when the clock reads 23:59:59.999 and then 00:00:00 in Seoul, then the window of whole days moves by one day', async () => {
    for (const [clock, from, to] of [
      [new Date('2026-05-11T14:59:59.999Z'), '2026-04-11 00:00:00', '2026-05-11 00:00:00'],
      [new Date('2026-05-11T15:00:00.000Z'), '2026-04-12 00:00:00', '2026-05-12 00:00:00'],
    ] as const) {
      const res = await request(aiApp(db, { AI_LIST_MIN_SCORE: '1' }, () => clock))
        .get(LIST_V2)
        .query({})
        .set('Authorization', ADMIN_AUTH);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const expected = expectedScores(a, from, to);
      expect(numbers(res), `window [${from}, ${to})`).to.deep.equal(ranked(expected));
      for (const p of envelope<List>(res).payload.payloads) expect(p.score, p.goodsNo).to.equal(expected.get(p.goodsNo));
    }
    expect(ranked(expectedScores(a, '2026-04-11 00:00:00', '2026-05-11 00:00:00')), 'the two windows rank differently').to.not.deep.equal(
      ranked(expectedScores(a, '2026-04-12 00:00:00', '2026-05-12 00:00:00')),
    );
  });

  it('when nothing is filtered, then every goods with a reason, ordered by score, with its score and full count', async () => {
    const res = await list({});
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const expected = ranked(scores);
    expect(expected).to.include.members(['L01', 'L02', 'L04', 'L06', 'L07', 'L09']);
    expect(expected).to.not.include.members(['L03', 'L05', 'L08', 'L10']);
    expect(numbers(res)).to.deep.equal(expected);
    expect(envelope<List>(res).payload.totalCount).to.equal(expected.length);
    for (const p of envelope<List>(res).payload.payloads) expect(p.score, p.goodsNo).to.equal(scores.get(p.goodsNo));
  });

  it('when a row is shown, then it carries the goods columns, names from the codes and masters, and a readable reason', async () => {
    const res = await list({ goodsNo: 'L02' });
    const [row] = envelope<List>(res).payload.payloads;
    const g = goodsOf('L02');
    expect(row).to.include({
      goodsNo: 'L02',
      goodsNm: g.goods_nm,
      entrNo: 'E001',
      entrNm: '(주)스포츠유통',
      brandNm: '나이키',
      mdNm: '김의류 MD',
      saleStatCd: '10',
      saleStatCdNm: '판매중',
      deliProcTypCdNm: '업체배송',
      deliGoodsGbCdNm: '일반배송',
      dispDlexAmt: '3000',
      salePrc: 10000,
      goodsRegDtm: g.goods_reg_dtm,
      stdCtgHierarchy: '패션의류 > 남성의류 > 티셔츠 > 긴팔티셔츠',
    });
    expect(row!.goodsReason).to.include('200회').and.include('순주문 1개');
    const l09 = envelope<List>(await list({ goodsNo: 'L09' })).payload.payloads[0];
    expect(l09!.goodsReason).to.include('품절').and.include('재입고 알림').and.include('저평점').and.include('브랜드');
    const l07 = envelope<List>(await list({ goodsNo: 'L07' })).payload.payloads[0];
    expect(l07!.goodsReason).to.include('검색 키워드').and.include('SEO');
  });

  it('when reasons are given, then each is one Korean sentence with the figures, chosen particles and the score', async () => {
    const items = envelope<List>(await list({ pageSize: 1000 })).payload.payloads;
    expect(items.length).to.be.greaterThan(0);
    for (const item of items) {
      const reason = item.goodsReason ?? '';
      expect(reason, reason).to.match(/추천 점수 \d+점입니다\.$/);
      expect(reason, 'one sentence').to.not.match(/[.?!]\s/);
      expect(reason, 'no particle left for the reader').to.not.match(/\((이|가|은|는|을|를|와|과)\)/);
      expect(reason).to.include(`추천 점수 ${scores.get(item.goodsNo)}점`);
    }
    const l07 = items.find((i) => i.goodsNo === 'L07')!;
    expect(l07.goodsReason).to.equal(`검색 키워드와 SEO 정보가 비어 있어 추천 점수 ${scores.get('L07')}점입니다.`);
  });

  it('when the token carries a supplier, then only that supplier’s goods, and asking for another supplier is refused', async () => {
    const res = await list({}, supplierAuth('E002'));
    expect(numbers(res)).to.deep.equal(ranked(scores, (no) => goodsOf(no).entr_no === 'E002'));
    expect(envelope<List>(res).payload.totalCount).to.equal(1);
    const refused = await list({ entrNo: 'E001' }, supplierAuth('E002'));
    expect(refused.status).to.equal(403);
    expect(envelope(refused).code).to.equal('1202');
  });

  it('when filtered by goods attributes, then each filter keeps only matching goods', async () => {
    const cases: [Record<string, unknown>, (g: ReturnType<typeof goodsRow>) => boolean][] = [
      [{ entrNo: 'E002' }, (g) => g.entr_no === 'E002'],
      [{ mdId: 'md002' }, (g) => g.md_id === 'md002'],
      [{ brandNo: 'B007' }, (g) => g.brand_no === 'B007'],
      [{ saleStatCd: '20' }, (g) => g.sale_stat_cd === '20'],
      [{ saleStatCdList: '20,10' }, (g) => ['20', '10'].includes(g.sale_stat_cd)],
      [{ goodsNm: '티셔츠' }, (g) => g.goods_nm.includes('티셔츠')],
      [
        {
          goodsCompCd: '10',
          goodsTypCd: '10',
          saleMethCd: '10',
          buyTypCd: '10',
          deliProcTypCd: '10',
          rglrDeliGoodsYn: 'N',
          frgnDirPurGoodsYn: 'N',
        },
        () => true,
      ],
      [{ rglrDeliGoodsYn: 'Y' }, () => false],
      [{ dispCtgNo: 'D200' }, (g) => g.goods_no === 'L06'],
      [{ mkdpNm: '운동화', divobjNm: '러닝화' }, (g) => g.goods_no === 'L04'],
      [{ brefDesc: '러닝 시즌', introConts: '달리기' }, (g) => ['L04', 'L06'].includes(g.goods_no)],
    ];
    for (const [q, keep] of cases) {
      const res = await list(q);
      expect(numbers(res), JSON.stringify(q)).to.deep.equal(ranked(scores, (no) => keep(goodsOf(no))));
    }
  });

  it('when filtered by a standard category, then that category and every category below it', async () => {
    const under = (root: string) => (no: string) => {
      let c = CATEGORIES.find((x) => x.std_ctg_no === goodsOf(no).std_ctg_no);
      while (c && c.std_ctg_no !== root) c = CATEGORIES.find((x) => x.std_ctg_no === c!.upr_std_ctg_no);
      return !!c;
    };
    for (const root of ['02', '0201', '02010102', '010101']) {
      const res = await list({ stdCtgNo: root });
      const expected = ranked(scores, under(root));
      expect(numbers(res), root).to.deep.equal(expected);
      expect(expected.length, root).to.be.greaterThan(0);
    }
  });

  it('when a registration period is given, then only goods registered in it; an end given as a day includes that day', async () => {
    const inPeriod = (from: string, to: string) => (no: string) => goodsOf(no).goods_reg_dtm >= from && goodsOf(no).goods_reg_dtm <= to;
    const res = await list({ goodsRegStartDtm: '2026-04-01', goodsRegEndDtm: '2026-04-20' });
    expect(numbers(res)).to.deep.equal(ranked(scores, inPeriod('2026-04-01 00:00:00', '2026-04-20 23:59:59')));
    const exact = await list({ goodsRegStartDtm: '2026-03-05T09:00:00', goodsRegEndDtm: '2026-04-01 08:59:59' });
    expect(numbers(exact)).to.deep.equal(ranked(scores, inPeriod('2026-03-05 09:00:00', '2026-04-01 08:59:59')));
    const ignored = await list({ goodsRegStartDtm: '2026-04-01', goodsRegEndDtm: '2026-04-20', goodsDtmIgnoreOption: 'true' });
    expect(numbers(ignored)).to.deep.equal(ranked(scores));
  });

  it('when the period is given with Z or an offset, then it is that instant in the platform zone (Seoul), not 9 hours off', async () => {
    const inPeriod = (from: string, to: string) => (no: string) => goodsOf(no).goods_reg_dtm >= from && goodsOf(no).goods_reg_dtm <= to;
    // 00:00:01Z is 09:00:01 in Seoul: L01 (09:00:00) is out, L04 (04-01 09:00:00) is in; read as Seoul time it would be the other way.
    const expected = ranked(scores, inPeriod('2026-03-05 09:00:01', '2026-04-01 09:00:00'));
    expect(expected, 'the case tells the readings apart').to.not.deep.equal(
      ranked(scores, inPeriod('2026-03-05 00:00:01', '2026-04-01 00:00:00')),
    );
    const utc = await list({ goodsRegStartDtm: '2026-03-05T00:00:01Z', goodsRegEndDtm: '2026-04-01T00:00:00Z' });
    expect(numbers(utc)).to.deep.equal(expected);
    const offset = await list({ goodsRegStartDtm: '2026-03-05T09:00:01+09:00', goodsRegEndDtm: '2026-04-01T09:00:00+09:00' });
    expect(numbers(offset)).to.deep.equal(numbers(utc));
  });

  it('when goodsDtmOption names the registration date, then it is the period; any other value is refused with 900 naming it', async () => {
    const period = { goodsRegStartDtm: '2026-04-01', goodsRegEndDtm: '2026-04-20' };
    expect(numbers(await list({ ...period, goodsDtmOption: 'REG' }))).to.deep.equal(numbers(await list(period)));
    expectFieldRefused(await list({ ...period, goodsDtmOption: 'SALE_START' }), 'goodsDtmOption');
  });

  it('when the default threshold applies, then only goods whose score reaches AI_LIST_MIN_SCORE (35) are listed, best first, and the count says so', async () => {
    const strict = aiApp(db, {}, () => NOW);
    const res = await request(strict).get(`${BO}/v2/goods/ai/getAiGoodsList`).query({ pageSize: 1000 }).set('Authorization', ADMIN_AUTH);
    const want = ranked(scores, (no) => scores.get(no)! >= 35);
    expect(scores.get('L11'), 'a goods exactly at the threshold').to.equal(35);
    expect(want.length, 'the fixture has goods on both sides of the threshold').to.be.within(1, scores.size - 1);
    expect(numbers(res)).to.deep.equal(want);
    expect(envelope<List>(res).payload.totalCount).to.equal(want.length);
  });

  it('when a goods number is given, then the registration period is ignored', async () => {
    const period = { goodsRegStartDtm: '2026-05-01', goodsRegEndDtm: '2026-05-10' };
    expect(numbers(await list({ ...period, goodsNo: 'L07' }))).to.deep.equal(['L07']);
    expect(numbers(await list({ ...period, searchCodeOption: 'eq', searchCode: 'L01' }))).to.deep.equal(['L01']);
    expect(numbers(await list(period))).to.deep.equal(['L09']);
  });

  it('when searchCodeOption is st, in, eq, mt or rg, then goods numbers match that way', async () => {
    const all = ranked(scores);
    const cases: [Record<string, unknown>, (no: string) => boolean][] = [
      [{ searchCodeOption: 'st', searchCode: 'L0' }, (no) => no.startsWith('L0')],
      [{ searchCodeOption: 'in', searchCodeText: '0' }, (no) => no.includes('0')],
      [{ searchCodeOption: 'eq', searchCode: 'L04' }, (no) => no === 'L04'],
      [{ searchCodeOption: 'mt', searchCodeTextList: ['L01', 'L06', 'L03'] }, (no) => ['L01', 'L06'].includes(no)],
      [{ searchCodeOption: 'mt', searchCodeText: 'L02\nL07,L09' }, (no) => ['L02', 'L07', 'L09'].includes(no)],
      [{ searchCodeOption: 'rg', searchCodeFrom: 'L02', searchCodeTo: 'L06' }, (no) => no >= 'L02' && no <= 'L06'],
      [{ searchCodeOption: 'rg', searchCodeFrom: 'L06' }, (no) => no >= 'L06'],
    ];
    for (const [q, keep] of cases) expect(numbers(await list(q)), JSON.stringify(q)).to.deep.equal(all.filter(keep));
  });

  it('when a page is asked, then that slice of the ordered list and the full count; past the end, no rows and the full count', async () => {
    const all = ranked(scores);
    const page2 = await list({ page: 2, pageSize: 2 });
    expect(numbers(page2)).to.deep.equal(all.slice(2, 4));
    expect(envelope<List>(page2).payload.totalCount).to.equal(all.length);
    const past = await list({ page: 50, pageSize: 2 });
    expect(envelope<List>(past).payload).to.deep.equal({ totalCount: all.length, payloads: [] });
  });

  it('when requests arrive together, then those of one ranking (any page) share its scoring and each caller still gets its own answer', async () => {
    // An app whose pool has one connection, held by the test while the burst arrives: every
    // request has reached the list before any read can run, so sharing is certain, not a race.
    const held = createKnex(db.url, { poolMax: 1 });
    const statements: string[] = [];
    held.on('query', (q: { sql: string }) => statements.push(q.sql));
    try {
      const heldApp = aiApp({ ...db, knex: held }, { AI_LIST_MIN_SCORE: '1' }, () => NOW);
      type Call = [Record<string, unknown>, string];
      const times = (n: number, call: Call): Call[] => Array.from({ length: n }, () => call);
      // Wave 1 starts one scoring per ranking; wave 2 arrives while those are under way (waiting
      // for the held connection), so it may not join them and shares the next one per ranking.
      const wave1: Call[] = [
        [{}, ADMIN_AUTH],
        [{}, supplierAuth('E002')],
        [{ saleStatCdList: '20' }, ADMIN_AUTH],
      ];
      const wave2: Call[] = [
        ...times(5, [{}, ADMIN_AUTH]),
        ...times(2, [{}, supplierAuth('E002')]),
        ...times(3, [{ page: 2, pageSize: 2 }, ADMIN_AUTH]),
      ];
      const calls = [...wave1, ...wave2];
      const alone: List[] = [];
      for (const [q, auth] of calls) alone.push(envelope<List>(await list(q, auth)).payload);
      statements.length = 0;
      const pool = held.client as { acquireConnection(): Promise<unknown>; releaseConnection(c: unknown): Promise<void> };
      const connection = await pool.acquireConnection();
      const send = ([q, auth]: Call) =>
        request(heldApp)
          .get(LIST_V2)
          .query(q)
          .set('Authorization', auth)
          .then((r) => r);
      const pause = () => new Promise((r) => setTimeout(r, 400));
      const first = wave1.map(send);
      await pause();
      const second = wave2.map(send);
      await pause();
      await pool.releaseConnection(connection);
      const answers = await Promise.all([...first, ...second]);
      answers.forEach((res, i) => {
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(envelope<List>(res).payload, `call ${i}: ${JSON.stringify(calls[i])}`).to.deep.equal(alone[i]);
      });
      // Admin (pages 1 and 2) and the supplier take two scorings each, the lone sale-status request
      // one: 5 (13 without sharing; 6 if pages did not share a ranking; 3 if wave 2 joined wave 1's).
      const scorings = statements.filter((sql) => sql.includes('ORDER BY x.score DESC')).length;
      expect(scorings, 'two scorings per repeated ranking, one for the lone one').to.equal(5);
    } finally {
      await held.destroy();
    }
  });

  it('when the catalogue is scored in two halves at once, then the merged ranking equals one statement’s at every split point', async () => {
    const window = { fromDay: '2026-04-12', toDay: '2026-05-12', days: 30, minInflow: 100, maxConversion: 0.02, minScore: 1 };
    const demand = await demandSource(db.knex, window);
    const whole = await scoreRecommendedGoods(db.knex, [], window, demand);
    expect(whole.map((r) => r.goodsNo)).to.deep.equal(ranked(scores));
    const ties = whole.filter((r, i) => whole.some((o, k) => k !== i && Number(o.score) === Number(r.score)));
    expect(ties.length, 'the fixture has goods of equal score, where the merge could misorder').to.be.greaterThan(1);
    const points = ['', 'L', ...a.goods.map((g) => g.goods_no), 'L99', 'Z'];
    for (const split of points) {
      const halves = await scoreRecommendedGoods(db.knex, [], window, demand, split);
      expect(halves, `split at ${JSON.stringify(split)}`).to.deep.equal(whole);
    }
    const supplier = [{ sql: 'g.entr_no = ?', bindings: ['E001'] }];
    expect(await scoreRecommendedGoods(db.knex, supplier, window, demand, 'L05')).to.deep.equal(
      await scoreRecommendedGoods(db.knex, supplier, window, demand),
    );
  });

  it('when the deprecated v1 list is used, then the same payload with Deprecation and Link headers', async () => {
    const v1 = await list({ saleStatCdList: '20' }, ADMIN_AUTH, LIST_V1);
    const v2 = await list({ saleStatCdList: '20' });
    expect(envelope<List>(v1).payload).to.deep.equal(envelope<List>(v2).payload);
    expect(v1.headers.deprecation).to.equal('true');
    expect(v1.headers.link).to.include('/v2/goods/ai/getAiGoodsList');
  });

  it('when page views arrive after their day was aggregated, then the list counts them once the worker rebuilds that day', async () => {
    expect(numbers(await list({ goodsNo: 'L05' }))).to.deep.equal([]);
    const late = Array.from({ length: 150 }, () => ({ goods_no: 'L05', site_no: 'S002', inflow_dtm: IN_WINDOW }));
    await db.knex('goods_inflow_log').insert(late);
    expect(numbers(await list({ goodsNo: 'L05' })), 'not before the rebuild').to.deep.equal([]);
    await rebuildAggregate(db.knex, { kind: 'inflow', day: IN_WINDOW.slice(0, 10), requestedBy: 'cli' });
    const [row] = envelope<List>(await list({ goodsNo: 'L05' })).payload.payloads;
    // 150 views, no orders: demand without conversion, 30 + 5 per full 100 views.
    expect(row).to.include({ goodsNo: 'L05', score: 30 + 5 });
    expect(row!.goodsReason).to.include('150회');
  });

  it('when a rule of the request is broken, then 900 naming the field', async () => {
    expectFieldRefused(await list({ searchCodeOption: 'rg', searchCodeFrom: 'L09', searchCodeTo: 'L01' }), 'searchCodeTo');
    expectFieldRefused(await list({ searchCodeOption: 'rg' }), 'searchCodeFrom');
    expectFieldRefused(await list({ searchCodeOption: 'st' }), 'searchCode');
    expectFieldRefused(
      await list({ searchCodeOption: 'mt', searchCodeText: Array.from({ length: 1001 }, (_, i) => `G${i}`).join(',') }),
      'searchCodeTextList',
    );
    expectFieldRefused(await list({ searchCodeOption: 'xx', searchCode: 'L01' }), 'searchCodeOption');
    expectFieldRefused(await list({ goodsRegStartDtm: '2026-05-01', goodsRegEndDtm: '2026-04-01' }), 'goodsRegEndDtm');
    expectFieldRefused(await list({ goodsRegStartDtm: 'yesterday' }), 'goodsRegStartDtm');
    expectFieldRefused(await list({ pageSize: 1001 }), 'pageSize');
    expectFieldRefused(await list({ page: 0 }), 'page');
    const refused = envelope(await list({ pageSize: 1001 }));
    expect(refused).to.include({ error: true, payload: null });
  });
});
