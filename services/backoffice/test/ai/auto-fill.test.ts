import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { type TestDatabase } from '@bo/testing';
import {
  ADMIN_AUTH,
  aiApp,
  aiDatabase,
  ATTRIBUTES,
  BO,
  CATEGORIES,
  envelope,
  expectFieldRefused,
  goodsRow,
  insertAiMasters,
  NOTICE_ITEMS,
  tableChecksums,
  USERS,
} from './helpers/ai-fixtures.ts';
import type { AiGoodsAutoFillResponse } from '@bo/contracts';

/** The payload as the tests read it (optional fields asserted present where a test needs them). */
type Fill = Required<AiGoodsAutoFillResponse>;

const AUTO_FILL = `${BO}/v2/goods/ai/getAiGoodsAutoFill`;

/** Every field the spec lets auto-fill produce (2.5); anything else, e.g. price or images, must never appear. */
const ALLOWED = new Set([
  'goodsNm',
  'schKwdNm',
  'seoTitleNm',
  'seoDesc',
  'seoKwdNm',
  'modlNm',
  'mfcoNm',
  'homeNm',
  'salemnNm',
  'incomNm',
  'brandNo',
  'brandNm',
  'brandMatchStatus',
  'brandConfidence',
  'brandReason',
  'stdCtgNo',
  'stdCtgHierarchy',
  'mdId',
  'mdNm',
  'goodsNotiLisartCd',
  'safeCertiNeedYn',
  'safeCertiTgtYn',
  'schPsbYn',
  'adveWrd',
  'goodsNotiItemCodeList',
  'szGdeUseYn',
  'szGdeRegMethodCd',
  'szGdeCd',
  'goodsCtgAttInfoList',
  'stdCtgCandidates',
  'content',
  'citations',
]);

describe('AI auto-fill (offline provider)', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    db = await aiDatabase('ai_autofill');
    await insertAiMasters(db.knex);
    await db.knex('goods').insert(goodsRow('G001'));
    app = aiApp(db);
  });
  after(() => db.drop());

  const fill = (productName: unknown) =>
    request(app)
      .post(AUTO_FILL)
      .set('Authorization', ADMIN_AUTH)
      .send(productName === undefined ? {} : { productName });

  it('when a decorated name carries a brand alias and a leaf word, then the brand, the category and everything that follows from it', async () => {
    const res = await fill('[공식] 나이끼 반팔티셔츠 DX1234-100 블랙 L 면 (정품)');
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const p = envelope<Fill>(res).payload;
    expect(res.body).to.include({ error: false, code: '0000' });
    expect(p).to.include({ brandNo: 'B001', brandNm: '나이키', brandMatchStatus: 'ALIAS', brandConfidence: 'HIGH' });
    expect(p.brandReason).to.include('나이끼');
    expect(p.goodsNm).to.equal('나이끼 반팔티셔츠 DX1234-100 블랙 L 면');
    expect(p.modlNm).to.equal('DX1234-100');

    const leaf = CATEGORIES.find((c) => c.std_ctg_no === '01010101')!;
    expect(p).to.include({ stdCtgNo: '01010101', stdCtgHierarchy: '패션의류 > 남성의류 > 티셔츠 > 반팔티셔츠' });
    // The leaf has no MD of its own: the nearest ancestor's (티셔츠 → md001).
    expect(p).to.include({ mdId: 'md001', mdNm: USERS[0]!.user_nm });
    expect(p).to.include({
      goodsNotiLisartCd: leaf.goods_noti_lisart_cd,
      safeCertiNeedYn: leaf.safe_certi_need_yn,
      safeCertiTgtYn: leaf.safe_certi_tgt_yn,
      szGdeUseYn: 'Y',
      szGdeRegMethodCd: '10',
      szGdeCd: 'SZ_MEN',
    });
    const notice = NOTICE_ITEMS.filter((n) => n.goods_noti_lisart_cd === '01');
    expect(p.goodsNotiItemCodeList.map((n: { goodsNotiItemCd: string }) => n.goodsNotiItemCd)).to.deep.equal(
      notice.map((n) => n.goods_noti_item_cd),
    );
    const noticeValue = (nm: string) => p.goodsNotiItemCodeList.find((n: { notiItemNm: string }) => n.notiItemNm === nm)!.notiItemCmt;
    expect(noticeValue('색상')).to.equal('블랙');
    expect(noticeValue('치수')).to.equal('L');
    expect(noticeValue('제품 소재')).to.equal('면');

    const atts = ATTRIBUTES.filter((a) => a.std_ctg_no === '01010101');
    expect(p.goodsCtgAttInfoList.map((a: { attCd: string }) => a.attCd)).to.deep.equal(atts.map((a) => a.att_cd));
    const attVal = (cd: string) => p.goodsCtgAttInfoList.find((a: { attCd: string }) => a.attCd === cd)!;
    expect(attVal('COLOR')).to.include({ attVal: '블랙', attValTypCd: '10', stdCtgNo: '01010101', dispSeq: '1' });
    expect(attVal('SIZE').attVal).to.equal('L');
    expect(attVal('MATERIAL').attVal).to.equal('면');
    expect(p.stdCtgCandidates[0]).to.include({ stdCtgNo: '01010101' });
    expect(p.stdCtgCandidates.length).to.be.within(1, 5);
    expect(p.schKwdNm.split(',')).to.include.members(['나이키', '반팔티셔츠', '블랙']);
  });

  it('when any name is filled, then only the fields the spec allows appear (no price, delivery, images, display category, stock)', async () => {
    for (const name of ['Nike 반팔티셔츠 블랙', '에이스 전기밥솥 6인용', '이름없는 물건']) {
      const res = await fill(name);
      const extra = Object.keys(envelope<Fill>(res).payload).filter((k) => !ALLOWED.has(k));
      expect(extra, name).to.deep.equal([]);
    }
  });

  it('when the brand is run together with a word its goods do not use, then the longest name (닥터마틴 over 마틴) is only a LOW suggestion', async () => {
    const p = envelope<Fill>(await fill('닥터마틴첼시부츠 블랙')).payload;
    expect(p).to.include({ brandNm: '닥터마틴', brandMatchStatus: 'EXACT', brandConfidence: 'LOW' });
    expect(p).to.not.have.property('brandNo');
    expect(p.brandReason).to.include('첼시부츠');
  });

  it('when the brand is glued to a known suffix, then it is filled with MEDIUM confidence', async () => {
    const p = envelope<Fill>(await fill('닥터마틴정품 첼시부츠 블랙')).payload;
    expect(p).to.include({ brandNo: 'B003', brandMatchStatus: 'EXACT', brandConfidence: 'MEDIUM' });
    expect(p.brandReason).to.include('정품');
  });

  it('when the brand is misspelt by one jamo, then a fuzzy match with its reason', async () => {
    const p = envelope<Fill>(await fill('뉴발란쓰 러닝화 270')).payload;
    expect(p).to.include({ brandNo: 'B002', brandMatchStatus: 'FUZZY' });
    expect(p.brandReason).to.include('뉴발란스');
    expect(p).to.include({ stdCtgNo: '02010101' });
    expect(p.goodsCtgAttInfoList.find((a: { attCd: string }) => a.attCd === 'SHOE_SIZE')!.attVal).to.equal('270');
  });

  it('when candidates are listed, then each says which words of the name it matched', async () => {
    const p = envelope<Fill>(await fill('나이키 반팔티셔츠 블랙 L')).payload;
    expect(p.stdCtgCandidates[0]).to.include({ stdCtgNo: '01010101' });
    expect(p.stdCtgCandidates[0]!.reason).to.include('반팔티셔츠 (분류명)');
    for (const c of p.stdCtgCandidates) expect(c.reason, c.stdCtgHierarchy).to.be.a('string').and.not.equal('');
  });

  it('when candidates are listed, then none is below AI_CATEGORY_CANDIDATE_FLOOR', async () => {
    const name = '나이키 반팔티셔츠 선물용';
    const candidatesWith = async (floor: string) =>
      envelope<Fill>(
        await request(aiApp(db, { AI_CATEGORY_CANDIDATE_FLOOR: floor }))
          .post(AUTO_FILL)
          .set('Authorization', ADMIN_AUTH)
          .send({ productName: name }),
      ).payload.stdCtgCandidates;
    const all = await candidatesWith('0');
    // The floor is on the similarity, not on the calibrated probability (`score`).
    const floor = (all[0]!.similarity! + all.at(-1)!.similarity!) / 2;
    expect(all.at(-1)!.similarity!, 'the name has a weak candidate to drop').to.be.lessThan(floor);
    const kept = await candidatesWith(String(floor));
    expect(kept.map((c) => c.stdCtgNo)).to.deep.equal(all.filter((c) => c.similarity! >= floor).map((c) => c.stdCtgNo));
  });

  it('when the name is a word two brands share, then AMBIGUOUS without a brand number', async () => {
    const p = envelope<Fill>(await fill('에이스 전기밥솥 6인용')).payload;
    expect(p).to.include({ brandMatchStatus: 'AMBIGUOUS', brandConfidence: 'LOW' });
    expect(p).to.not.have.property('brandNo');
    expect(p.brandReason).to.include('B005').and.to.include('B006');
    // The category still follows from the name, and with it the safety flags of that leaf.
    expect(p).to.include({ stdCtgNo: '03010101', safeCertiNeedYn: 'Y', safeCertiTgtYn: 'Y', mdId: 'md004', mdNm: '최밥솥 MD' });
  });

  it('when the name names a retired brand or none, then NOT_FOUND', async () => {
    for (const name of ['올드브랜드 반팔티셔츠', '무명 반팔티셔츠']) {
      const p = envelope<Fill>(await fill(name)).payload;
      expect(p, name).to.include({ brandMatchStatus: 'NOT_FOUND' });
      expect(p, name).to.not.have.property('brandNo');
    }
  });

  it('when two leaves are equally similar, then candidates but no accepted category and nothing derived from one', async () => {
    const p = envelope<Fill>(await fill('나이키 티셔츠')).payload;
    const top = p.stdCtgCandidates
      .slice(0, 2)
      .map((c: { stdCtgNo: string }) => c.stdCtgNo)
      .sort();
    expect(top).to.deep.equal(['01010101', '01010102']);
    expect(p.stdCtgCandidates[0]!.similarity! - p.stdCtgCandidates[1]!.similarity!).to.be.lessThan(0.05);
    // Two tied siblings: neither is more likely right than not.
    for (const c of p.stdCtgCandidates.slice(0, 2)) expect(c.score).to.be.below(0.5);
    for (const k of ['stdCtgNo', 'stdCtgHierarchy', 'mdId', 'goodsNotiLisartCd', 'goodsCtgAttInfoList', 'szGdeCd'])
      expect(p).to.not.have.property(k);
  });

  it('when the name says nothing about any category, then no category is accepted', async () => {
    const p = envelope<Fill>(await fill('나이키 선물')).payload;
    expect(p).to.not.have.property('stdCtgNo');
    expect(p.brandNo).to.equal('B001');
  });

  it('when auto-fill runs, then no table changes (checksums before and after)', async () => {
    const before = await tableChecksums(db.knex);
    for (const name of ['Nike 반팔티셔츠 블랙 L', '에이스 전기밥솥', '뉴발 러닝화 260']) expect((await fill(name)).status).to.equal(200);
    expect(await tableChecksums(db.knex)).to.deep.equal(before);
  });

  it('when productName is missing or empty, then 900 in the envelope naming productName', async () => {
    for (const body of [undefined, '']) {
      const res = await fill(body);
      expectFieldRefused(res, 'productName');
      expect(res.body).to.include({ error: true, payload: null });
    }
  });
});

describe('AI auto-fill masters in memory', () => {
  let db: TestDatabase;

  before(async () => {
    db = await aiDatabase('ai_masters');
    await insertAiMasters(db.knex);
  });
  after(() => db.drop());

  it('when a brand is added to the master, then auto-fill knows it once the copy in memory is older than AI_MASTER_REFRESH_MS', async () => {
    const app = aiApp(db, { AI_MASTER_REFRESH_MS: '1000' });
    const fill = () => request(app).post(AUTO_FILL).set('Authorization', ADMIN_AUTH).send({ productName: '새브랜드 반팔티셔츠' });
    expect(envelope<Fill>(await fill()).payload.brandMatchStatus).to.equal('NOT_FOUND');
    await db.knex('brand').insert({ brand_no: 'B100', brand_nm: '새브랜드', brand_eng_nm: null, use_yn: 'Y' });
    expect(envelope<Fill>(await fill()).payload.brandMatchStatus, 'still the loaded copy').to.equal('NOT_FOUND');
    await new Promise((r) => setTimeout(r, 1100));
    await fill(); // served from the old copy while the reload runs
    let payload = envelope<Fill>(await fill()).payload;
    for (let i = 0; i < 20 && payload.brandNo !== 'B100'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      payload = envelope<Fill>(await fill()).payload;
    }
    expect(payload).to.include({ brandNo: 'B100', brandMatchStatus: 'EXACT' });
  });
});
