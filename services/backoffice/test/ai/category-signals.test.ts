import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import { ADMIN_AUTH, aiApp, aiDatabase, BO, envelope, goodsRow, insertAiMasters } from './helpers/ai-fixtures.ts';
import type { AiGoodsAutoFillResponse } from '@bo/contracts';

/** The payload as the tests read it (optional fields asserted present where a test needs them). */
type Fill = Required<AiGoodsAutoFillResponse>;

const AUTO_FILL = `${BO}/v2/goods/ai/getAiGoodsAutoFill`;

interface Candidate {
  stdCtgNo: string;
  stdCtgHierarchy: string;
  score: number;
  similarity: number;
  reason: string;
}

/**
 * The signals of the category classifier on the hand-built tree (패션의류 > 남성의류 > 티셔츠 >
 * 반팔/긴팔, 패션잡화 > 신발 > 운동화 > 러닝화/스니커즈, …) and a few arranged goods:
 * category names by level, variant words ignored, the most similar listed goods, the cap of
 * goods per leaf, the brand's usual leaves.
 */
describe('AI auto-fill category signals', () => {
  let db: TestDatabase;

  before(async () => {
    db = await aiDatabase('ai_ctg_signals');
    await insertAiMasters(db.knex);
    await db.knex('goods').insert([
      // Names that say nothing (the brand prior's goods): 나이키 sells 반팔, 뉴발란스 sells 긴팔.
      goodsRow('P0', { goods_nm: '상품 P0', brand_no: 'B001', std_ctg_no: '01010101' }),
      goodsRow('P1', { goods_nm: '상품 P1', brand_no: 'B002', std_ctg_no: '01010102' }),
      // A listed running shoe whose name has no category word.
      goodsRow('K1', { goods_nm: '나이키 에어맥스 97 블랙', brand_no: 'B001', std_ctg_no: '02010101' }),
      // 스니커즈: the oldest goods names the line, the two newer ones say nothing.
      goodsRow('S1', { goods_nm: '클래식 척테일러 화이트', brand_no: null, std_ctg_no: '02010102' }),
      goodsRow('S2', { goods_nm: '상품 S2', brand_no: null, std_ctg_no: '02010102' }),
      goodsRow('S3', { goods_nm: '상품 S3', brand_no: null, std_ctg_no: '02010102' }),
    ]);
  });
  after(() => db.drop());

  const fill = async (productName: string, env: Record<string, string> = {}) => {
    const res = await request(aiApp(db, env)).post(AUTO_FILL).set('Authorization', ADMIN_AUTH).send({ productName });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return envelope<Fill>(res).payload as { stdCtgNo?: string; stdCtgCandidates: Candidate[]; brandNo?: string };
  };
  const numbers = (cs: Candidate[]) => cs.map((c) => c.stdCtgNo);

  it('when the name carries only a parent category’s word, then the leaves under it lead and none is accepted', async () => {
    const p = await fill('뉴발란스 운동화');
    expect(numbers(p.stdCtgCandidates.slice(0, 2)).sort()).to.deep.equal(['02010101', '02010102']);
    for (const c of p.stdCtgCandidates.slice(0, 2)) expect(c.stdCtgHierarchy).to.contain('신발 > 운동화');
    expect(p).to.not.have.property('stdCtgNo');
    // No word of the name is listed under only one of them: neither is more likely right than not.
    for (const c of p.stdCtgCandidates.slice(0, 2)) expect(c.score).to.be.below(0.5);
  });

  describe('the sibling rule', () => {
    // Long listing names: the line word is a small part of each, so the nearest-goods signal alone
    // does not take a leaf clear of its sibling.
    before(() =>
      db.knex('goods').insert([
        goodsRow('R1', {
          goods_nm: '나이키 줌 페가수스 41 남성 로드 러닝화 쿠셔닝 경량 데일리 트레이닝 조깅 마라톤 통기성 메쉬 발볼넓은',
          brand_no: 'B001',
          std_ctg_no: '02010101',
        }),
        goodsRow('N1', {
          goods_nm: '나이키 에어포스1 07 로우 올화이트 남녀공용 스니커즈 데일리 캐주얼 커플 가죽 클래식 코디',
          brand_no: 'B001',
          std_ctg_no: '02010102',
        }),
      ]),
    );
    after(() => db.knex('goods').whereIn('goods_no', ['R1', 'N1']).delete());

    it('when tied sibling leaves are told apart by a line word only one of them lists, then that leaf is accepted and its reason names the word', async () => {
      const running = await fill('나이키 페가수스 운동화 270 블랙');
      expect(running.stdCtgNo).to.equal('02010101');
      expect(running.stdCtgCandidates[0]!.reason).to.include('구별하는 말: 페가수스');
      expect(running.stdCtgCandidates[0]!.score).to.be.at.least(0.5);
      const sneakers = await fill('나이키 에어포스1 운동화 화이트 250');
      expect(sneakers.stdCtgNo).to.equal('02010102');
      expect(sneakers.stdCtgCandidates[0]!.reason).to.include('구별하는 말: 에어포스1');
    });

    it('when a word of the name is listed under both tied siblings, or under neither, then it does not decide', async () => {
      // 데일리 is in both new goods names; 나이키 is the brand (not a category word).
      const both = await fill('나이키 데일리 운동화 블랙');
      expect(both).to.not.have.property('stdCtgNo');
      for (const c of both.stdCtgCandidates.slice(0, 2)) expect(c.reason).to.not.include('구별하는 말');
    });

    it('when either acceptance rule is configured, then the sibling rule decides the tie (the ruled-out sibling is no rival)', async () => {
      for (const rule of [{ AI_CATEGORY_RULE: 'similarity' }, { AI_CATEGORY_RULE: 'probability' }]) {
        expect((await fill('나이키 페가수스 운동화 270 블랙', rule)).stdCtgNo, rule.AI_CATEGORY_RULE).to.equal('02010101');
        expect(await fill('뉴발란스 운동화 그레이 260', rule), rule.AI_CATEGORY_RULE).to.not.have.property('stdCtgNo');
      }
    });
  });

  it('when sizes, colours, capacities, counts and numbers are added to a name, then the candidates do not move', async () => {
    const plain = await fill('뉴발란스 러닝화');
    const decorated = await fill('뉴발란스 러닝화 993 270mm 블랙 XL 500ml 2개입 4종');
    expect(decorated.stdCtgCandidates).to.deep.equal(plain.stdCtgCandidates);
    expect(decorated.stdCtgNo).to.equal('02010101');
  });

  it('when a listed goods name resembles the name, then that goods’ leaf is accepted though the name has no category word', async () => {
    const p = await fill('나이키 에어맥스 90 화이트');
    expect(p.stdCtgNo).to.equal('02010101');
    const unlike = await fill('나이키 페가수스 41');
    expect(unlike).to.not.have.property('stdCtgNo');
  });

  it('when a leaf has more goods than AI_CATEGORY_GOODS_PER_LEAF, then only its newest goods are learnt from', async () => {
    // The similarity rule: one goods name alike is enough for it (the probability rule asks more
    // of a name without a category word); what is tested here is which goods are learnt from.
    const rule = { AI_CATEGORY_RULE: 'similarity' };
    expect((await fill('척테일러 하이', { ...rule, AI_CATEGORY_GOODS_PER_LEAF: '3' })).stdCtgNo).to.equal('02010102');
    const capped = await fill('척테일러 하이', { ...rule, AI_CATEGORY_GOODS_PER_LEAF: '2' });
    expect(capped).to.not.have.property('stdCtgNo');
    expect(numbers(capped.stdCtgCandidates)).to.not.include('02010102');
  });

  it('when two leaves match the name equally, then the one holding the brand’s goods ranks first, but not by enough to be accepted', async () => {
    const nike = await fill('나이키 티셔츠');
    const newBalance = await fill('뉴발란스 티셔츠');
    expect(numbers(nike.stdCtgCandidates.slice(0, 2))).to.deep.equal(['01010101', '01010102']);
    expect(numbers(newBalance.stdCtgCandidates.slice(0, 2))).to.deep.equal(['01010102', '01010101']);
    for (const p of [nike, newBalance]) expect(p).to.not.have.property('stdCtgNo');
  });
});
