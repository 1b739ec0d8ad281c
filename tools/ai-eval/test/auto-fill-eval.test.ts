import { expect } from 'chai';
import request from 'supertest';
import { boSourceMigrations } from '@bo/db';
import { ADMIN, bearer, createTestDatabase, TEST_JWT_SECRET, testLogger, type TestDatabase } from '@bo/testing';
import { BO_PREFIX, createBackofficeApp, loadBackofficeConfig } from '@bo/backoffice/ai-eval-api';
import { EVAL_TARGETS, evaluateAutoFill, type EvalReport, type SetReport } from '../src/evaluate.ts';

const AUTO_FILL = `${BO_PREFIX}/v2/goods/ai/getAiGoodsAutoFill`;
const ADMIN_AUTH = bearer(ADMIN);

/** The back-office app on the evaluated database (a fresh one has a fresh masters cache). */
const aiApp = (db: TestDatabase) =>
  createBackofficeApp({
    config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
    logger: testLogger(),
    knex: db.knex,
  });

interface Candidate {
  stdCtgNo: string;
  stdCtgHierarchy: string;
  score: number;
}

/**
 * Auto-fill on the demo data (masters and the 2,000 goods of the generator, loaded into a test
 * database by the evaluation): the evaluation (`ai:eval`) at a reduced size on both labelled
 * sets, then hand-written product names as sellers type them. Latency is printed, not asserted
 * (timings on a shared machine are the benchmark's business; `ai:eval` checks p95).
 */
describe('AI auto-fill on the demo data', () => {
  let db: TestDatabase;
  let report: EvalReport;

  before(async function () {
    this.timeout(120_000);
    db = await createTestDatabase('ai_eval_test', boSourceMigrations);
    const config = loadBackofficeConfig({ NODE_ENV: 'test' });
    report = await evaluateAutoFill(db, {
      size: 150,
      goodsSize: 300,
      seed: 8101,
      thresholds: { minScore: config.AI_CATEGORY_MIN_SCORE, minMargin: config.AI_CATEGORY_MIN_MARGIN },
      fuzzyMin: config.AI_BRAND_FUZZY_MIN,
      goodsPerLeaf: config.AI_CATEGORY_GOODS_PER_LEAF,
    });
    for (const s of report.sets) {
      console.log(
        `      (${s.label}: brand ${s.brandAccuracy.toFixed(3)}, acceptance ${s.categoryAcceptance.toFixed(3)}, precision ${s.acceptedPrecision.toFixed(3)}, top-5 ${s.top5Recall.toFixed(3)}, p50 ${s.p50Ms.toFixed(1)} ms, p95 ${s.p95Ms.toFixed(1)} ms)`,
      );
    }
  });
  after(() => db.drop());

  const set = (label: string): SetReport => report.sets.find((s) => s.label.startsWith(label))!;

  describe('evaluation on the labelled sets', () => {
    it('when both sets are scored, then 150 names from the leaf names and 300 held-out demo goods names', () => {
      expect(set('leaf names').size).to.equal(150);
      expect(set('demo goods').size).to.equal(300);
      expect(report.goods).to.equal(2000);
    });

    for (const label of ['leaf names', 'demo goods']) {
      it(`when the ${label} set is auto-filled, then the brand is right for at least 95 %`, () => {
        expect(set(label).brandAccuracy).to.be.at.least(EVAL_TARGETS.brandAccuracy);
      });

      it(`when categories of the ${label} set are accepted, then at least 70 % are, and at least 90 % of those are right`, () => {
        expect(set(label).categoryAcceptance).to.be.at.least(EVAL_TARGETS.categoryAcceptance);
        expect(set(label).acceptedPrecision).to.be.at.least(EVAL_TARGETS.acceptedPrecision);
      });

      it(`when the five candidates of the ${label} set are listed, then the true leaf is among them for at least 95 %`, () => {
        expect(set(label).top5Recall).to.be.at.least(EVAL_TARGETS.top5Recall);
      });
    }
  });

  describe('hand-written product names', () => {
    let app: ReturnType<typeof aiApp>;
    before(() => {
      app = aiApp(db);
    });
    const fill = async (productName: string) => {
      const res = await request(app).post(AUTO_FILL).set('Authorization', ADMIN_AUTH).send({ productName });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.payload as { brandNm?: string; stdCtgNo?: string; stdCtgHierarchy?: string; stdCtgCandidates: Candidate[] };
    };

    it('when a Nike shoe is named by its line, size and colour, then the shoe leaves under 신발 > 운동화 lead and none is guessed', async () => {
      const p = await fill('[공식] 나이키 에어맥스 97 운동화 270mm 블랙');
      expect(p.brandNm).to.equal('나이키');
      expect(p.stdCtgCandidates[0]!.stdCtgHierarchy).to.contain('신발 > 운동화');
      // Every candidate is footwear: neither 270mm nor 블랙 pulls toward 에어매트 or 슬랙스.
      for (const c of p.stdCtgCandidates) expect(c.stdCtgHierarchy).to.match(/신발 > (운동화|아동운동화)|아동신발/);
      // 운동화 names four leaves equally: the seller picks one.
      expect(p).to.not.have.property('stdCtgNo');
    });

    it('when the name carries the leaf word, then that leaf is accepted (스니커즈, 배, 압력밥솥)', async () => {
      const cases: [string, string][] = [
        ['아디다스 삼바 OG 스니커즈', '패션잡화 > 신발 > 운동화 > 스니커즈'],
        ['나주 배 5kg 선물세트', '식품 > 신선식품 > 과일 > 배'],
        ['쿠쿠 IH 압력밥솥 6인용 화이트', '가전 > 주방가전 > 전기밥솥 > 압력밥솥'],
      ];
      for (const [name, hierarchy] of cases) expect((await fill(name)).stdCtgHierarchy, name).to.equal(hierarchy);
    });

    it('when a container set is named by its sub-category, then the 밀폐용기 leaves lead', async () => {
      const p = await fill('락앤락 밀폐용기 4종 세트');
      expect(p.brandNm).to.equal('락앤락');
      for (const c of p.stdCtgCandidates.slice(0, 2)) expect(c.stdCtgHierarchy).to.contain('주방용품 > 밀폐용기');
    });

    it('when earbuds are named by a product line no goods carries, then no category is accepted; once such goods are listed, their leaf is', async () => {
      const name = '삼성전자 갤럭시 버즈3 프로 화이트';
      const before = await fill(name);
      expect(before.brandNm).to.equal('삼성전자');
      expect(before).to.not.have.property('stdCtgNo');

      const leaf = await db.knex('std_ctg').where({ std_ctg_nm: '무선이어폰', leaf_yn: 'Y' }).first();
      const template = await db.knex('goods').orderBy('goods_no').first();
      const brand = await db.knex('brand').where({ brand_nm: '삼성전자' }).first();
      await db.knex('goods').insert({
        ...template,
        goods_no: 'GD9001',
        goods_nm: '삼성전자 갤럭시 버즈2 프로 블랙',
        std_ctg_no: leaf.std_ctg_no,
        brand_no: brand.brand_no,
      });
      app = aiApp(db); // a fresh masters cache that has read the new goods
      const after = await fill(name);
      expect(after.stdCtgNo).to.equal(leaf.std_ctg_no);
      expect(after.stdCtgHierarchy).to.equal('디지털 > 모바일 > 웨어러블 > 무선이어폰');
    });
  });
});
