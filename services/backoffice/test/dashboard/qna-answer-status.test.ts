import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import type { ErrorCode, QnaAnswerStatus } from '@bo/contracts';
import { type TestDatabase, bearer } from '@bo/testing';
import { ADMIN_TOKEN, PATHS, clearRows, goods, question, startDashboardApp, type QuestionRow } from './fixtures.ts';

const CODES = [
  { grp_cd: 'QNA_TYP', cd: '10', cd_nm: '상품문의', sort_seq: 1, use_yn: 'Y' },
  { grp_cd: 'QNA_TYP', cd: '20', cd_nm: '배송문의', sort_seq: 2, use_yn: 'Y' },
  { grp_cd: 'QNA_STAT', cd: '10', cd_nm: '답변대기', sort_seq: 1, use_yn: 'Y' },
  { grp_cd: 'QNA_STAT', cd: '20', cd_nm: '답변완료', sort_seq: 2, use_yn: 'Y' },
  // Same code in another group: must not be taken as a question type name.
  { grp_cd: 'OM013', cd: '30', cd_nm: '가상계좌', sort_seq: 3, use_yn: 'Y' },
];
const nameOf = (grp: string, cd: string | null) => CODES.find((c) => c.grp_cd === grp && c.cd === cd)?.cd_nm ?? null;

/** 14 questions over a few days, two at the very same second, both handling states. */
function arrangeQuestions(): QuestionRow[] {
  return Array.from({ length: 14 }, (_, i) => {
    const day = 1 + Math.floor(i / 2);
    const answered = i % 3 === 0;
    return question(i % 2 ? 'G2' : 'G1', {
      entr_no: 'E1',
      quest_typ_cd: ['10', '20', '30', null][i % 4] ?? null,
      quest_title: `question ${i}`,
      quest_dtm: `2024-05-${String(day).padStart(2, '0')} ${i === 13 ? '09:00:00' : '10:00:00'}`,
      proc_stat_cd: answered ? '20' : '10',
      proc_stat_dtm: answered ? `2024-05-${String(day).padStart(2, '0')} 18:30:05` : null,
    });
  });
}

describe('dashboard: QnA answer status', () => {
  let db: TestDatabase;
  let app: Express;

  before(async () => {
    ({ db, app } = await startDashboardApp('dash_qna'));
  });
  after(async () => {
    await db.drop();
  });
  beforeEach(async () => {
    await clearRows(db);
    await db.knex('cm_cd').insert(CODES);
    await db.knex('goods').insert([goods('G1'), goods('G2')]);
  });

  async function insertQuestions(rows: QuestionRow[]): Promise<(QuestionRow & { quest_no: number })[]> {
    const out = [];
    // One by one so each row learns its auto-increment number.
    for (const row of rows) {
      const [questNo] = await db.knex('goods_qna').insert(row);
      out.push({ ...row, quest_no: Number(questNo) });
    }
    return out;
  }

  /** The rule restated: newest first by time, then by number; ten at most; names from the codes. */
  function expectedList(rows: (QuestionRow & { quest_no: number })[], totalCnt: number) {
    return [...rows]
      .sort((a, b) => (a.quest_dtm === b.quest_dtm ? b.quest_no - a.quest_no : a.quest_dtm < b.quest_dtm ? 1 : -1))
      .slice(0, 10)
      .map((q) => ({
        questNo: q.quest_no,
        siteNo: q.site_no,
        mbrNo: q.mbr_no,
        goodsNo: q.goods_no,
        entrNo: q.entr_no,
        questTypCd: q.quest_typ_cd,
        questTitle: q.quest_title,
        questCont: q.quest_cont,
        questDtm: q.quest_dtm,
        procStatCd: q.proc_stat_cd,
        procStatDtm: q.proc_stat_dtm,
        questTypCdNm: nameOf('QNA_TYP', q.quest_typ_cd),
        procStatCdNm: nameOf('QNA_STAT', q.proc_stat_cd),
        totalCnt,
      }));
  }

  it('when there are no questions, then totalCnt 0 and an empty list', async () => {
    const res = await request(app).get(PATHS.qna).set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ stdCtgNoCntByUserId: 0, totalCnt: 0, list: [] });
  });

  it('when 14 questions exist, then totalCnt counts all and the list holds the newest 10 with code names and text date-times', async () => {
    const rows = await insertQuestions(arrangeQuestions());

    const res = await request(app).get(PATHS.qna).set('Authorization', ADMIN_TOKEN);

    expect(res.status).to.equal(200);
    const body = res.body as QnaAnswerStatus;
    expect(body.totalCnt).to.equal(rows.length);
    expect(body.list).to.deep.equal(expectedList(rows, rows.length));
    // A code without a name in its own group is null, not a name from another group.
    expect(body.list.some((q) => q.questTypCd === '30' && q.questTypCdNm === null)).to.equal(true);
  });

  for (const procStatCd of ['10', '20']) {
    it(`when procStatCd is ${procStatCd}, then only questions in that handling state are counted and listed`, async () => {
      const rows = await insertQuestions(arrangeQuestions());
      const matching = rows.filter((q) => q.proc_stat_cd === procStatCd);

      const res = await request(app).get(PATHS.qna).query({ procStatCd }).set('Authorization', ADMIN_TOKEN);

      const body = res.body as QnaAnswerStatus;
      expect(body.totalCnt).to.equal(matching.length);
      expect(body.list).to.deep.equal(expectedList(matching, matching.length));
    });
  }

  it('when a supplier token reads questions, then only questions of its supplier count', async () => {
    const rows = await insertQuestions([
      question('G1', { entr_no: 'E1' }),
      question('G2', { entr_no: 'E2' }),
      question('G2', { entr_no: 'E2' }),
    ]);
    const res = await request(app)
      .get(PATHS.qna)
      .set('Authorization', bearer({ sub: 'entr02', workGrpCd: 'BO_ENTR', entrNo: 'E2' }));
    expect((res.body as QnaAnswerStatus).totalCnt).to.equal(rows.filter((q) => q.entr_no === 'E2').length);
  });

  it('when categories are mapped to the caller, then stdCtgNoCntByUserId is their number', async () => {
    const mappings = [
      { user_id: 'md01', std_ctg_no: 'X' },
      { user_id: 'md01', std_ctg_no: 'Y' },
      { user_id: 'other', std_ctg_no: 'Z' },
    ];
    await db.knex('md_std_ctg').insert(mappings);
    const res = await request(app)
      .get(PATHS.qna)
      .set('Authorization', bearer({ sub: 'md01', workGrpCd: 'BO_MD' }));
    expect((res.body as QnaAnswerStatus).stdCtgNoCntByUserId).to.equal(mappings.filter((m) => m.user_id === 'md01').length);
  });

  it('when procStatCd is 99, then 900 naming procStatCd and the allowed values', async () => {
    const res = await request(app).get(PATHS.qna).query({ procStatCd: '99' }).set('Authorization', ADMIN_TOKEN);
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '1000', httpStatus: 400, isProcess: false });
    expect((res.body as ErrorCode).errors).to.deep.equal([{ field: 'procStatCd', message: 'must be one of "10", "20"' }]);
  });
});
