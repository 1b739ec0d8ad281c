import { expect } from 'chai';
import request from 'supertest';
import { boSourceMigrations } from '@bo/db';
import { ADMIN, bearer, createTestDatabase, TEST_JWT_SECRET, testLogger, type TestDatabase } from '@bo/testing';
import { BO_PREFIX, createBackofficeApp, loadBackofficeConfig, categoryThresholds } from '@bo/backoffice/ai-eval-api';
import { EVAL_TARGETS, evaluateAutoFill, pct, type EvalReport, type SetReport } from '../src/evaluate.ts';

const AUTO_FILL = `${BO_PREFIX}/v2/goods/ai/getAiGoodsAutoFill`;
const ADMIN_AUTH = bearer(ADMIN);

/** The back-office app on the evaluated database (a fresh one has a fresh masters cache). */
const aiApp = (db: TestDatabase) =>
  createBackofficeApp({
    config: loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }),
    logger: testLogger(),
    knex: db.knex,
  });

interface FillPayload {
  brandNm?: string;
  stdCtgNo?: string;
  stdCtgHierarchy?: string;
  stdCtgCandidates: Candidate[];
}

interface Candidate {
  stdCtgNo: string;
  stdCtgHierarchy: string;
  /** Calibrated probability that the leaf is right. */
  score: number;
  similarity: number;
  reason: string;
}

/**
 * What the evaluation asserts on the held-out test half. Where a target of issue 14 is not met
 * yet, the floor is the measured level (so a regression still fails) and the README says so.
 */
const FLOORS: Partial<Record<keyof typeof EVAL_TARGETS, number>> = {};
const floor = (k: keyof typeof EVAL_TARGETS): number => FLOORS[k] ?? EVAL_TARGETS[k];

/**
 * Auto-fill on the demo data (masters and the 2,000 goods of the generator, loaded into a test
 * database by the evaluation): the evaluation (`ai:eval`) on the hand-labelled test half, then
 * hand-written product names through the endpoint.
 */
describe('AI auto-fill on the demo data', () => {
  let db: TestDatabase;
  let report: EvalReport;

  before(async function () {
    this.timeout(120_000);
    db = await createTestDatabase('ai_eval_test', boSourceMigrations);
    const config = loadBackofficeConfig({ NODE_ENV: 'test' });
    report = await evaluateAutoFill(db, {
      thresholds: categoryThresholds(config),
      fuzzyMin: config.AI_BRAND_FUZZY_MIN,
      goodsPerLeaf: config.AI_CATEGORY_GOODS_PER_LEAF,
      halves: ['test'],
    });
    const s = report.sets[0]!;
    console.log(
      `      (test half: brand P ${pct(s.brandPrecision)} R ${pct(s.brandRecall)}, acceptance ${pct(s.categoryAcceptance)}, precision ${pct(s.acceptedPrecision)}, out-of-tree rejection ${pct(s.outOfTreeRejection)}, p95 ${s.p95Ms.toFixed(1)} ms)`,
    );
  });
  after(() => db.drop());

  const testHalf = (): SetReport => report.sets.find((s) => s.label === 'test')!;

  describe('evaluation on the held-out test half', () => {
    it('when the test half is scored, then all its 286 hand-labelled names are, on the 2,000 demo goods', () => {
      expect(testHalf().size).to.equal(286);
      expect(report.goods).to.equal(2000);
    });

    it('when brands are matched, then precision and recall hold their floors', () => {
      expect(testHalf().brandPrecision).to.be.at.least(floor('brandPrecision'));
      expect(testHalf().brandRecall).to.be.at.least(floor('brandRecall'));
    });

    it('when categories are accepted, then acceptance of in-tree names and precision of the accepted hold their floors', () => {
      expect(testHalf().categoryAcceptance).to.be.at.least(floor('categoryAcceptance'));
      expect(testHalf().acceptedPrecision).to.be.at.least(floor('acceptedPrecision'));
    });

    it('when names from outside the tree are auto-filled, then at least 90 % get no category', () => {
      expect(testHalf().outOfTreeRejection).to.be.at.least(floor('outOfTreeRejection'));
    });

    it('when the test half is timed, then auto-fill p95 is within 50 ms', () => {
      expect(testHalf().p95Ms).to.be.at.most(floor('p95Ms'));
    });
  });

  describe('hand-written product names', () => {
    let app: ReturnType<typeof aiApp>;
    before(() => {
      app = aiApp(db);
    });
    const fill = async (productName: string) => {
      const res = await request(app).post(AUTO_FILL).set('Authorization', ADMIN_AUTH).send({ productName });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return (res.body as { payload: FillPayload }).payload;
    };

    it('when a Nike shoe is named by its line, then no 운동화 leaf is guessed while the catalogue’s goods do not tell them apart; once they do, the line word picks the leaf', async () => {
      const name = '[공식] 나이키 에어맥스 97 운동화 270mm 블랙';
      const before = await fill(name);
      expect(before.brandNm).to.equal('나이키');
      expect(before.stdCtgCandidates[0]!.stdCtgHierarchy).to.contain('신발 > 운동화');
      // Every candidate is footwear: neither 270mm nor 블랙 pulls toward 에어매트 or 슬랙스.
      for (const c of before.stdCtgCandidates) expect(c.stdCtgHierarchy).to.match(/신발 > (운동화|아동운동화)|아동신발/);
      // 운동화 names four sibling leaves alike and no demo goods name carries 에어맥스: no evidence, no guess.
      expect(before).to.not.have.property('stdCtgNo');
      for (const c of before.stdCtgCandidates) expect(c.score).to.be.below(0.5);

      // The catalogue lists its Air Max under 러닝화 and its Air Force under 스니커즈, in long names as sellers write them.
      const leafOf = async (nm: string) =>
        ((await db.knex('std_ctg').where({ std_ctg_nm: nm, leaf_yn: 'Y' }).first()) as { std_ctg_no: string }).std_ctg_no;
      const template = (await db.knex('goods').orderBy('goods_no').first()) as Record<string, unknown>;
      const nike = (await db.knex('brand').where({ brand_nm: '나이키' }).first()) as { brand_no: string };
      const goods = (goods_no: string, goods_nm: string, std_ctg_no: string) => ({
        ...template,
        goods_no,
        goods_nm,
        std_ctg_no,
        brand_no: nike.brand_no,
      });
      await db
        .knex('goods')
        .insert([
          goods('GD9101', '나이키 에어맥스 270 남성 러닝화 쿠셔닝 경량 데일리 조깅 트레이닝 블랙', await leafOf('러닝화')),
          goods('GD9102', '나이키 에어포스1 07 로우 남녀공용 스니커즈 데일리 캐주얼 커플 화이트', await leafOf('스니커즈')),
        ]);
      try {
        app = aiApp(db); // a fresh masters cache that has read the new goods
        const after = await fill(name);
        expect(after.stdCtgHierarchy).to.equal('패션잡화 > 신발 > 운동화 > 러닝화');
        expect(after.stdCtgCandidates[0]!.score).to.be.at.least(0.5);
        const force = await fill('나이키 에어포스1 로우 운동화 올화이트 265');
        expect(force.stdCtgHierarchy).to.equal('패션잡화 > 신발 > 운동화 > 스니커즈');
      } finally {
        await db.knex('goods').whereIn('goods_no', ['GD9101', 'GD9102']).delete();
        app = aiApp(db);
      }
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

      const leaf = (await db.knex('std_ctg').where({ std_ctg_nm: '무선이어폰', leaf_yn: 'Y' }).first()) as { std_ctg_no: string };
      const template = (await db.knex('goods').orderBy('goods_no').first()) as Record<string, unknown>;
      const brand = (await db.knex('brand').where({ brand_nm: '삼성전자' }).first()) as { brand_no: string };
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
