import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { type TestDatabase } from '@bo/testing';
import {
  ADMIN_AUTH,
  aiApp,
  aiDatabase,
  BO,
  descBody,
  envelope,
  expectFieldRefused,
  goodsRow,
  insertAiMasters,
  supplierAuth,
} from './helpers/ai-fixtures.ts';

const DESC_V2 = `${BO}/v2/goods/ai/getAiGoodsDesc`;
const DESC_V1 = `${BO}/v1/goods/ai/getAiGoodsDesc`;

/** Document pages of G001: a spec sheet of two pages, a care guide, and an unrelated page (a shipping notice). */
const PAGES = [
  {
    goods_no: 'G001',
    file_nm: 'spec-sheet.pdf',
    page_no: 1,
    page_text:
      '드라이핏 반팔티셔츠는 땀을 빠르게 흡수하고 건조하는 기능성 원단을 적용했습니다.\n' +
      '소재는 폴리에스터 100%로 가볍고 통기성이 뛰어납니다.\n' +
      '레귤러핏으로 제작되어 운동과 일상 모두에 어울립니다.',
  },
  {
    goods_no: 'G001',
    file_nm: 'spec-sheet.pdf',
    page_no: 2,
    page_text:
      '사이즈는 S, M, L, XL 네 가지이며 가슴 단면 기준 2cm씩 커집니다.\n모델 착용 사이즈는 L이며 실측은 1~2cm 오차가 있을 수 있습니다.',
  },
  {
    goods_no: 'G001',
    file_nm: 'care-guide.pdf',
    page_no: 1,
    page_text: '찬물에 단독 손세탁하거나 세탁망에 넣어 울코스로 세탁하세요.\n표백제 사용을 삼가고 그늘에서 뉘어 건조하세요.',
  },
  {
    goods_no: 'G001',
    file_nm: 'notice.pdf',
    page_no: 7,
    page_text: '주문 후 영업일 기준 2일 이내 출고됩니다.',
  },
  { goods_no: 'G002', file_nm: 'other.pdf', page_no: 1, page_text: '전기밥솥은 6인용 내솥을 사용합니다.' },
  // G004: a page of label lines and shop boilerplate that only repeats the goods name, and a page of real sentences.
  {
    goods_no: 'G004',
    file_nm: 'listing.pdf',
    page_no: 1,
    page_text: '상품명: 나이키 에어 러닝화 정품\n제조사 : 나이키 코리아\n교환 및 반품은 수령 후 7일 이내 고객센터로 문의하세요.',
  },
  {
    goods_no: 'G004',
    file_nm: 'features.pdf',
    page_no: 1,
    page_text: '쿠셔닝이 뛰어난 폼 미드솔을 적용해 장거리 러닝에도 편안합니다.\n메쉬 갑피로 통기성이 좋아 여름에도 쾌적합니다.',
  },
];

/** Strings of a content value, split into sentences the way a reader would (line and sentence ends). */
const sentences = (value: unknown): string[] => {
  const strings: string[] =
    typeof value === 'string'
      ? [value]
      : Array.isArray(value)
        ? value.flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v as object).map(String)))
        : Object.values(value as object).flatMap((v) => (Array.isArray(v) ? v.map(String) : [String(v)]));
  return strings
    .flatMap((s) => s.split(/\n|(?<=[.!?])\s+/))
    .map((s) => s.trim())
    .filter((s) => s.length >= 8);
};

describe('AI goods description (offline provider)', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    db = await aiDatabase('ai_desc');
    await insertAiMasters(db.knex);
    await db
      .knex('goods')
      .insert([
        goodsRow('G001', { goods_nm: '나이키 드라이핏 반팔티셔츠', modl_nm: 'DF-100', entr_no: 'E001' }),
        goodsRow('G002', { goods_nm: '삼성 전기밥솥', brand_no: 'B007', std_ctg_no: '03010101', entr_no: 'E002' }),
        goodsRow('G003', { goods_nm: '문서 없는 긴팔티셔츠', std_ctg_no: '01010102' }),
        goodsRow('G004', { goods_nm: '나이키 에어 러닝화', std_ctg_no: '02010101', modl_nm: 'AR-7' }),
      ]);
    await db.knex('goods_doc_page').insert(PAGES);
    app = aiApp(db);
  });
  after(() => db.drop());

  const post = (body: object, auth = ADMIN_AUTH) => request(app).post(DESC_V2).set('Authorization', auth).send(body);

  /** Citations point at pages of the goods that exist, each cited page's text holds a sentence of the content, no other page does. */
  function expectHonestCitations(content: unknown, citations: { file_name: string; page_number: number }[], goodsNo: string) {
    const own = PAGES.filter((p) => p.goods_no === goodsNo);
    const cited = own.filter((p) => citations.some((c) => c.file_name === p.file_nm && c.page_number === p.page_no));
    expect(cited.length, 'every citation is a page of this goods').to.equal(citations.length);
    const used = own.filter((p) => sentences(content).some((s) => p.page_text.includes(s)));
    expect(cited.map((p) => `${p.file_nm}#${p.page_no}`).sort()).to.deep.equal(used.map((p) => `${p.file_nm}#${p.page_no}`).sort());
  }

  it('when option 10 (detail text) is asked, then plain text quoting the documents, with exactly the pages it used as citations', async () => {
    const res = await post({ goodsNo: 'G001', option: '10' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(descBody(res).result).to.equal('SUCCESS');
    expect(descBody(res).content).to.be.a('string').and.include('나이키 드라이핏 반팔티셔츠');
    expect(descBody(res).citations.length).to.be.greaterThan(0);
    expectHonestCitations(descBody(res).content, descBody(res).citations, 'G001');
    // The shipping notice says nothing about the goods themselves and is not used.
    expect(descBody(res).citations.map((c: { file_name: string }) => c.file_name)).to.not.include('notice.pdf');
  });

  it('when option 20 (selling points) is asked, then content is a JSON array of sentences from the pages', async () => {
    const res = await post({ goodsNo: 'G001', option: '20' });
    const points = JSON.parse(descBody(res).content) as string[];
    expect(points).to.be.an('array').with.lengthOf.above(0);
    for (const p of points) expect(p).to.be.a('string');
    expect(points.some((p: string) => p.includes('폴리에스터 100%'))).to.equal(true);
    expectHonestCitations(points, descBody(res).citations, 'G001');
  });

  it('when option 30 (SEO meta) is asked, then content is a JSON object {title, description, keywords}', async () => {
    const res = await post({ goodsNo: 'G001', option: '30' });
    const meta = JSON.parse(descBody(res).content) as { title: string; description: string; keywords: string[] };
    expect(Object.keys(meta).sort()).to.deep.equal(['description', 'keywords', 'title']);
    expect(meta.title).to.include('나이키');
    expect(meta.keywords).to.include.members(['반팔티셔츠', '티셔츠']);
    expectHonestCitations(meta.description, descBody(res).citations, 'G001');
  });

  it('when option 40 (FAQ) is asked, then content is a JSON array of question/answer pairs answered from the pages', async () => {
    const res = await post({ goodsNo: 'G001', option: '40', additionalInfo: '세탁 방법 문의가 많습니다' });
    const faq = JSON.parse(descBody(res).content) as { question: string; answer: string }[];
    expect(faq).to.be.an('array').with.lengthOf.above(0);
    for (const item of faq) expect(Object.keys(item).sort()).to.deep.equal(['answer', 'question']);
    const washing = faq.find((f: { question: string }) => f.question.includes('세탁'));
    expect(washing!.answer).to.include('손세탁');
    expectHonestCitations(
      faq.map((f: { answer: string }) => f.answer),
      descBody(res).citations,
      'G001',
    );
  });

  it('when pages hold label lines, boilerplate and the goods name, then none is a selling point or a line of the text, and only the page whose sentences are used is cited', async () => {
    const label = /^[^\s:：]{1,10}(\s[^\s:：]{1,10})?\s*[:：]/;
    const points = JSON.parse(descBody(await post({ goodsNo: 'G004', option: '20' })).content) as string[];
    expect(points.length).to.be.greaterThan(0);
    for (const p of points)
      expect(p, p)
        .to.not.match(label)
        .and.not.match(/교환|반품|고객센터/);

    const detail = descBody(await post({ goodsNo: 'G004', option: '10' }));
    const lines = detail.content.split('\n');
    for (const line of lines)
      expect(line, line)
        .to.not.match(label)
        .and.not.match(/교환|반품|고객센터/);
    expect(lines[0], 'particle chosen by the final consonant (화 has none)').to.match(/^나이키 에어 러닝화는 /);
    expect(detail.content).to.not.match(/\((은|는|이|가)\)/);
    expect(detail.content).to.include('모델명은 AR-7입니다.');
    expect(detail.citations).to.deep.equal([{ file_name: 'features.pdf', page_number: 1 }]);
  });

  it('when the goods has no document pages, then content from the goods row and no citations', async () => {
    for (const option of ['10', '20', '30', '40']) {
      const res = await post({ goodsNo: 'G003', option });
      expect(res.status, option).to.equal(200);
      expect(descBody(res).citations, option).to.deep.equal([]);
      if (option !== '10') expect(() => JSON.parse(descBody(res).content) as unknown, option).to.not.throw();
    }
  });

  it('when the deprecated v1 GET is used, then the same answer with Deprecation and Link headers', async () => {
    const v2 = await post({ goodsNo: 'G001', option: '20' });
    const v1 = await request(app).get(DESC_V1).query({ goodsNo: 'G001', option: '20' }).set('Authorization', ADMIN_AUTH);
    expect(v1.status).to.equal(200);
    expect(v1.body).to.deep.equal(v2.body);
    expect(v1.headers.deprecation).to.equal('true');
    expect(v1.headers.link).to.include('/v2/goods/ai/getAiGoodsDesc').and.include('successor-version');
    expect(v2.headers).to.not.have.property('deprecation');
  });

  it('when the goods number is unknown, then 900 with the goods-not-found code', async () => {
    const res = await post({ goodsNo: 'NOPE', option: '10' });
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '2001', httpStatus: 404, isProcess: false });
  });

  it('when a supplier asks for another supplier’s goods, then it is not found for them', async () => {
    expect(envelope(await post({ goodsNo: 'G002', option: '10' }, supplierAuth('E001'))).code).to.equal('2001');
    expect((await post({ goodsNo: 'G001', option: '10' }, supplierAuth('E001'))).status).to.equal(200);
  });

  it('when the option is not a PR050 code in use, then 900 naming option', async () => {
    for (const option of ['99', '50']) expectFieldRefused(await post({ goodsNo: 'G001', option }), 'option');
  });

  it('when a code is added to PR050 without a known output shape, then 900 naming option and the code, not plain text by guess', async () => {
    await db.knex('cm_cd').insert({ grp_cd: 'PR050', cd: '60', cd_nm: '비교표', sort_seq: 60, use_yn: 'Y' });
    try {
      const res = await post({ goodsNo: 'G001', option: '60' });
      expectFieldRefused(res, 'option');
      expect(envelope(res).errors.find((e) => e.field === 'option')!.message)
        .to.include('60')
        .and.include('no known output shape');
    } finally {
      await db.knex('cm_cd').where({ grp_cd: 'PR050', cd: '60' }).delete();
    }
  });

  it('when a required field is missing or empty, or additionalInfo is longer than 2,000 characters, then 900 naming the field', async () => {
    expectFieldRefused(await post({ option: '10' }), 'goodsNo');
    expectFieldRefused(await post({ goodsNo: '', option: '10' }), 'goodsNo');
    expectFieldRefused(await post({ goodsNo: 'G001' }), 'option');
    expectFieldRefused(await post({ goodsNo: 'G001', option: '' }), 'option');
    expectFieldRefused(await post({ goodsNo: 'G001', option: '10', additionalInfo: 'x'.repeat(2001) }), 'additionalInfo');
    expect((await post({ goodsNo: 'G001', option: '10', additionalInfo: 'x'.repeat(2000) })).status).to.equal(200);
    expectFieldRefused(await request(app).get(DESC_V1).query({ option: '10' }).set('Authorization', ADMIN_AUTH), 'goodsNo');
  });
});
