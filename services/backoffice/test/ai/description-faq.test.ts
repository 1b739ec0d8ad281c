import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { type TestDatabase } from '@bo/testing';
import { ADMIN_AUTH, aiApp, aiDatabase, BO, descBody, goodsRow, insertAiMasters } from './helpers/ai-fixtures.ts';

const DESC_V2 = `${BO}/v2/goods/ai/getAiGoodsDesc`;

/**
 * Detail pages written by hand the way sellers write them: headings, label lines, selling
 * sentences whose words look like a FAQ subject without being one (건조한 피부, 드라이어 바람,
 * 충전재, 자외선 피해, 굽 높이), and the sentences that really answer.
 */
const PAGES = [
  {
    goods_no: 'F001',
    file_nm: 'padding-detail.pdf',
    page_no: 1,
    page_text:
      '■ 상품 정보\n겉감은 나일론 100%이며 생활 방수 코팅으로 눈과 비에 강합니다.\n' +
      '충전재는 구스다운 솜털 80%, 깃털 20%로 가볍고 따뜻해요.\n건조한 겨울 날씨에도 정전기가 덜 생기도록 마감했습니다.',
  },
  {
    goods_no: 'F001',
    file_nm: 'padding-detail.pdf',
    page_no: 2,
    page_text:
      '사이즈 정보 (단위: cm)\n55 / 66 / 77 세 가지로 출시되며 총장은 110cm 입니다.\n드라이클리닝 전용 상품이니 물세탁은 피해 주세요.',
  },
  {
    goods_no: 'F002',
    file_nm: 'cream.pdf',
    page_no: 1,
    page_text:
      '건조한 피부에 깊은 보습을 채워주는 고보습 수분 크림입니다.\n매일 아침 저녁 피부 관리 마지막 단계에 사용하면 좋아요.\n' +
      '자외선 피해로 지친 피부를 진정시켜 줍니다.',
  },
  {
    goods_no: 'F002',
    file_nm: 'cream.pdf',
    page_no: 2,
    page_text: '용량 50ml 대용량으로 넉넉하게 쓰실 수 있어요.\n직사광선을 피하고 서늘한 곳에 보관하세요.',
  },
  {
    goods_no: 'F003',
    file_nm: 'dryer.pdf',
    page_no: 1,
    page_text:
      '드라이어 바람 온도는 3단계로 조절되고 찬바람 버튼이 따로 있어요.\n충전식 배터리로 선 없이 어디서든 쓸 수 있습니다.\n' +
      '본체 무게는 320g으로 한 손에 가볍게 들려요.\n제품 세탁 및 관리 방법 안내',
  },
  {
    goods_no: 'F004',
    file_nm: 'sneakers.pdf',
    page_no: 1,
    page_text:
      '빈티지한 canvas 원단으로 오래 신을수록 멋스러워요.\n굽 높이 3cm로 키높이 효과가 있습니다.\n발볼이 넓은 분은 반 치수 크게 주문하시길 추천드려요.',
  },
  {
    goods_no: 'F005',
    file_nm: 'tee.pdf',
    page_no: 1,
    page_text: '소재 : 면 100%\n세탁방법 : 30도 이하 찬물 단독 손세탁\n여름에 입기 좋은 데일리 반팔 티셔츠예요.',
  },
];

/** The question's subject, read from the question as a reader would. */
const TOPICS = ['소재', '사이즈', '용량', '세탁', '사용', '구성품', '보증', '주의'] as const;
type Topic = (typeof TOPICS)[number];
const topicOf = (question: string): Topic | undefined => TOPICS.find((t) => question.includes(t));

/**
 * Hand-labelled answers: for each goods, the sentences of its pages that answer each subject
 * (`required` ones must be asked and answered; any other question is a failure).
 */
const EXPECTED: Record<string, { answers: Partial<Record<Topic, string[]>>; required: Topic[] }> = {
  F001: {
    answers: {
      소재: ['겉감은 나일론 100%이며 생활 방수 코팅으로 눈과 비에 강합니다.', '충전재는 구스다운 솜털 80%, 깃털 20%로 가볍고 따뜻해요.'],
      사이즈: ['55 / 66 / 77 세 가지로 출시되며 총장은 110cm 입니다.'],
      세탁: ['드라이클리닝 전용 상품이니 물세탁은 피해 주세요.'],
      주의: ['드라이클리닝 전용 상품이니 물세탁은 피해 주세요.'],
    },
    required: ['소재', '사이즈', '세탁'],
  },
  F002: {
    answers: {
      용량: ['용량 50ml 대용량으로 넉넉하게 쓰실 수 있어요.'],
      세탁: ['직사광선을 피하고 서늘한 곳에 보관하세요.'],
      주의: ['직사광선을 피하고 서늘한 곳에 보관하세요.'],
      사용: ['매일 아침 저녁 피부 관리 마지막 단계에 사용하면 좋아요.'],
    },
    required: ['용량', '사용'],
  },
  F003: {
    answers: { 용량: ['본체 무게는 320g으로 한 손에 가볍게 들려요.'] },
    required: ['용량'],
  },
  F004: {
    answers: {
      소재: ['빈티지한 canvas 원단으로 오래 신을수록 멋스러워요.'],
      사이즈: ['발볼이 넓은 분은 반 치수 크게 주문하시길 추천드려요.'],
    },
    required: ['소재', '사이즈'],
  },
  // Label lines are not quoted; they may answer as a sentence with the particle of the label's last syllable.
  F005: {
    answers: { 소재: ['소재는 면 100%입니다.'], 세탁: ['세탁방법은 30도 이하 찬물 단독 손세탁입니다.'] },
    required: ['소재', '세탁'],
  },
};

describe('AI goods description: the FAQ answers the question it asks, or leaves it out', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    db = await aiDatabase('ai_faq');
    await insertAiMasters(db.knex);
    await db
      .knex('goods')
      .insert([
        goodsRow('F001', { goods_nm: '프리미엄 구스다운 롱패딩 여성 겨울 패딩', std_ctg_no: '01010102' }),
        goodsRow('F002', { goods_nm: '촉촉 수분크림 50ml 건성피부 보습크림', brand_no: null }),
        goodsRow('F003', { goods_nm: '무선 헤어드라이어 접이식 대풍량', brand_no: null, std_ctg_no: '03010101' }),
        goodsRow('F004', { goods_nm: '빈티지 캔버스 하이탑 스니커즈', brand_no: null, std_ctg_no: '02010102' }),
        goodsRow('F005', { goods_nm: '순면 무지 반팔티', brand_no: null }),
      ]);
    await db.knex('goods_doc_page').insert(PAGES);
    app = aiApp(db);
  });
  after(() => db.drop());

  const faqOf = async (goodsNo: string) => {
    const res = await request(app).post(DESC_V2).set('Authorization', ADMIN_AUTH).send({ goodsNo, option: '40' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return {
      faq: JSON.parse(descBody(res).content) as { question: string; answer: string }[],
      citations: descBody(res).citations,
    };
  };

  for (const [goodsNo, expected] of Object.entries(EXPECTED)) {
    it(`when ${goodsNo}'s FAQ is asked, then every answer is a hand-labelled answer to its question and the answerable questions are asked`, async () => {
      const { faq, citations } = await faqOf(goodsNo);
      for (const { question, answer } of faq) {
        const topic = topicOf(question);
        expect(topic, `a question of a known subject: ${question}`).to.not.equal(undefined);
        expect(expected.answers[topic!] ?? [], `${question} → ${answer}`).to.include(answer);
        expect(answer, 'no particle left for the reader to choose').to.not.match(/\((은|는|이|가|을|를|와|과)\)/);
      }
      const asked = faq.map((f) => topicOf(f.question));
      for (const topic of expected.required) expect(asked, `${topic} is answered on the pages`).to.include(topic);
      const own = PAGES.filter((p) => p.goods_no === goodsNo).map((p) => `${p.file_nm}#${p.page_no}`);
      for (const c of citations) expect(own).to.include(`${c.file_name}#${c.page_number}`);
    });
  }

  it('when a page holds only a heading for a subject (사이즈 정보 (단위: cm), 세탁 및 관리 방법 안내), then no question is answered by the heading', async () => {
    for (const goodsNo of ['F001', 'F003']) {
      const { faq } = await faqOf(goodsNo);
      for (const { answer } of faq) expect(answer).to.not.match(/^사이즈 정보|방법 안내$|^■/);
    }
  });
});
