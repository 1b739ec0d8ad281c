import { expect } from 'chai';
import { BrandMatcher, type BrandMaster, type BrandVocabulary } from '../../src/ai/autofill/brand-matcher.ts';

/**
 * The brand cascade on hand-written names, one group per failure kind of issue 14. A wrong
 * brand number is worse than none: every "not of that brand" case asserts that `brandNo` is
 * absent, and HIGH is asserted only for a whole word equal to a name or alias.
 */
const BRANDS: BrandMaster[] = [
  { brandNo: 'B01', brandNm: '나이키', brandEngNm: 'NIKE', aliases: ['Nike'] },
  { brandNo: 'B02', brandNm: '뉴발란스', brandEngNm: 'NEW BALANCE', aliases: ['뉴발'] },
  { brandNo: 'B03', brandNm: '자라', brandEngNm: 'ZARA', aliases: [] },
  { brandNo: 'B04', brandNm: '후지필름', brandEngNm: 'FUJIFILM', aliases: ['후지'] },
  { brandNo: 'B05', brandNm: '삼성전자', brandEngNm: 'SAMSUNG', aliases: ['삼성'] },
  { brandNo: 'B06', brandNm: '다이슨', brandEngNm: 'DYSON', aliases: [] },
  { brandNo: 'B07', brandNm: '리복', brandEngNm: 'REEBOK', aliases: [] },
  { brandNo: 'B08', brandNm: '동원', brandEngNm: 'DONGWON', aliases: [] },
  { brandNo: 'B09', brandNm: 'LG전자', brandEngNm: 'LG Electronics', aliases: ['LG', '엘지'] },
  { brandNo: 'B10', brandNm: '베이직', brandEngNm: 'BASIC', aliases: [] },
  { brandNo: 'B11', brandNm: '보스', brandEngNm: 'BOSE', aliases: [] },
];
const VOCABULARY: BrandVocabulary = {
  wordsOf: (brandNo) => (brandNo === 'B08' ? new Set(['참치캔', '참치']) : undefined),
  isCommonWord: (key) => key === '베이직',
};
const matcher = new BrandMatcher(BRANDS, 0.8, VOCABULARY);
const m = (name: string) => matcher.match(name);

describe('AI brand cascade', () => {
  describe('exact words', () => {
    it('when a whole word is a brand name or alias, then HIGH with the matched text and the rule in the reason', () => {
      expect(m('나이키 에어맥스 270 런닝화')).to.include({ brandNo: 'B01', status: 'EXACT', confidence: 'HIGH' });
      const alias = m('뉴발 2002R 스니커즈');
      expect(alias).to.include({ brandNo: 'B02', status: 'ALIAS', confidence: 'HIGH' });
      expect(alias.reason).to.include("'뉴발'").and.to.include('별칭');
    });
  });

  describe('a brand inside another word', () => {
    for (const [name, brandNm] of [
      ['청송 후지사과 5kg 가정용', '후지필름'],
      ['자라목 교정 경추 베개', '자라'],
      ['남성 소가죽 보스턴백', '보스'],
    ] as const) {
      it(`when '${name}' starts a word with the brand's text, then at most a LOW suggestion without brandNo`, () => {
        const r = m(name);
        expect(r).to.not.have.property('brandNo');
        expect(r.confidence).to.equal('LOW');
        if (r.brandNm) expect(r.brandNm).to.equal(brandNm);
      });
    }

    it('when the rest of the word is a known suffix (정품, 코리아) or a word of the brand’s goods, then the brand is kept (MEDIUM)', () => {
      expect(m('다이슨코리아 V12 무선청소기')).to.include({ brandNo: 'B06', confidence: 'MEDIUM' });
      expect(m('나이키정품 에어포스')).to.include({ brandNo: 'B01', confidence: 'MEDIUM' });
      const tuna = m('동원참치 라이트스탠다드 150g');
      expect(tuna).to.include({ brandNo: 'B08', confidence: 'MEDIUM' });
      expect(tuna.reason).to.include('참치');
    });

    it('when a Latin brand is glued to another Hangul word (LG생활건강), then no brandNo', () => {
      expect(m('LG생활건강 페리오 치약')).to.not.have.property('brandNo');
    });

    it('when a word is one jamo from a short brand (리본/리복, 남성/삼성), then no fuzzy match', () => {
      expect(m('리본 쉬폰 블라우스 여성')).to.include({ status: 'NOT_FOUND' });
      expect(m('남성 러닝 타이츠 롱')).to.include({ status: 'NOT_FOUND' });
    });

    it('when a brand of 4+ syllables is misspelt by one jamo, then a MEDIUM fuzzy match naming the brand', () => {
      const r = m('뉴발란쓰 러닝화 270');
      expect(r).to.include({ brandNo: 'B02', status: 'FUZZY', confidence: 'MEDIUM' });
      expect(r.reason).to.include('뉴발란스');
    });

    it('when the brand text is an ordinary word of other goods (베이직), then a LOW suggestion unless another spelling backs it', () => {
      expect(m('남성 데일리 베이직 라운드 반팔티')).to.include({ confidence: 'LOW' }).and.not.have.property('brandNo');
      expect(m('베이직 BASIC 남성 무지 반팔티')).to.include({ brandNo: 'B10', confidence: 'HIGH' });
    });
  });

  describe('compatibility and negation', () => {
    for (const [name, word] of [
      ['다이슨 V10 호환 배터리', '호환'],
      ['삼성 갤럭시탭 S9 전용 케이스', '전용'],
      ['나이키 에어포스 st 화이트', 'st'],
      ['뉴발란스 530 스타일 운동화', '스타일'],
      ['LG 아님 중소기업 제습기', '아님'],
    ] as const) {
      it(`when '${word}' follows the brand, then a LOW suggestion whose reason says so, never brandNo`, () => {
        const r = m(name);
        expect(r).to.not.have.property('brandNo');
        expect(r.confidence).to.equal('LOW');
        expect(r.brandNm).to.be.a('string');
        expect(r.reason).to.include(`'${word}'`);
      });
    }
  });

  describe('spellings sellers use', () => {
    it('when Korean is typed on the English layout (skdlzl, dhEnrl-like, glued to the next word), then the brand at MEDIUM with the reading', () => {
      const r = m('skdlzl에어포스1 로우 올화이트');
      expect(r).to.include({ brandNo: 'B01', confidence: 'MEDIUM' });
      expect(r.reason).to.include('skdlzl').and.to.include('나이키');
      expect(r.matchedText, 'the text as written is what category scoring leaves out').to.equal('skdlzl');
      expect(m('ekdltms V12 디텍트')).to.include({ brandNo: 'B06' });
    });

    it('when a brand is written in initial consonants that only it has, then MEDIUM; initials that fit none give nothing', () => {
      expect(m('ㄴㅇㅋ 에어포스 올백')).to.include({ brandNo: 'B01', confidence: 'MEDIUM' });
      expect(m('ㄴㅇㅋ 에어포스 올백').matchedText).to.equal('ㄴㅇㅋ'.normalize('NFKC'));
      expect(m('ㅋㅋㅋ 웃긴 티셔츠')).to.include({ status: 'NOT_FOUND' });
    });

    it('when letters are spaced out, the brand has inner spaces, or brackets and hyphens glue it to the next word, then HIGH', () => {
      expect(m('N I K E 에어포스 화이트')).to.include({ brandNo: 'B01', confidence: 'HIGH' });
      expect(m('뉴 발란스 327 그레이')).to.include({ brandNo: 'B02', confidence: 'HIGH' });
      expect(m('[나이키]에어포스1 07')).to.include({ brandNo: 'B01', confidence: 'HIGH' });
      expect(m('나이키-에어맥스 97')).to.include({ brandNo: 'B01', confidence: 'HIGH' });
      expect(m('nike 조던1 미드')).to.include({ brandNo: 'B01', confidence: 'HIGH' });
    });
  });
});
