import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import { arrangeStaff, CHANGE_PATH, createMemberDatabase, historyOf, localNow, memberApp, remainingOf, type MemberApp } from './support.ts';

describe('dcLimIncDec: staff discount limit increase and decrease', () => {
  let db: TestDatabase;
  let member: MemberApp;
  const post = (body: unknown) =>
    request(member.app)
      .post(CHANGE_PATH)
      .send(body as object);

  before(async () => {
    db = await createMemberDatabase('member_change');
    member = memberApp(db);
  });
  after(async () => {
    await member.close();
    await db.drop();
  });

  describe('applied changes', () => {
    it('when a decrease fits, then 200 with no body, the remaining drops by the amount and one history row records it', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'D1', limAmt: 500_000, rmndAmt: 120_000 });
      const from = localNow();
      const res = await post({ mbrNo: 'D1', rsrvUseGbCd: '20', ocurAmt: 30_000, ordNo: 'ORD-1', claimNo: 'CLM-1', ordFvrCostSeq: '7' });
      const to = localNow();

      expect(res.status).to.equal(200);
      expect(res.text).to.equal('');
      expect(await remainingOf(db.knex, 'D1')).to.equal(120_000 - 30_000);
      const [row, ...more] = await historyOf(db.knex, 'D1');
      expect(more).to.have.length(0);
      expect(row).to.include({
        mbr_no: 'D1',
        rsrv_use_gb_cd: '20',
        req_amt: 30_000,
        aply_amt: 30_000,
        bef_rmnd_amt: 120_000,
        aft_rmnd_amt: 90_000,
        ord_no: 'ORD-1',
        claim_no: 'CLM-1',
        ord_fvr_cost_seq: '7',
        idem_key: null,
      });
      // Platform local time, not the database's clock or the process zone.
      expect(row!.reg_dtm.slice(0, 19) >= from && row!.reg_dtm.slice(0, 19) <= to, `${row!.reg_dtm} within [${from}, ${to}]`).to.equal(
        true,
      );
      const lim = (await db.knex<{ mbr_no: string; upd_dtm: string }>('staff_dc_lim').where({ mbr_no: 'D1' }).first('upd_dtm'))!;
      expect(lim.upd_dtm >= from && lim.upd_dtm <= to).to.equal(true);
    });

    it('when a decrease uses exactly the whole remaining amount, then the remaining is 0', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'D2', limAmt: 10_000, rmndAmt: 4_321 });
      const res = await post({ mbrNo: 'D2', rsrvUseGbCd: '20', ocurAmt: 4_321, ordNo: 'ORD-2' });
      expect(res.status).to.equal(200);
      expect(await remainingOf(db.knex, 'D2')).to.equal(0);
    });

    it('when an increase fits under the limit, then the whole amount is applied', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'I1', limAmt: 100_000, rmndAmt: 40_000 });
      const res = await post({ mbrNo: 'I1', rsrvUseGbCd: '10', ocurAmt: 25_000, ordNo: 'ORD-3', claimNo: 'C-3' });
      expect(res.status).to.equal(200);
      expect(await remainingOf(db.knex, 'I1')).to.equal(65_000);
      const [row] = await historyOf(db.knex, 'I1');
      expect(row).to.include({
        rsrv_use_gb_cd: '10',
        req_amt: 25_000,
        aply_amt: 25_000,
        bef_rmnd_amt: 40_000,
        aft_rmnd_amt: 65_000,
        claim_no: 'C-3',
        ord_fvr_cost_seq: null,
      });
    });

    it('when an increase would pass the limit, then the remaining becomes the limit and the history shows the capped part', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'I2', limAmt: 100_000, rmndAmt: 90_000 });
      const res = await post({ mbrNo: 'I2', rsrvUseGbCd: '10', ocurAmt: 25_000, ordNo: 'ORD-4' });
      expect(res.status).to.equal(200);
      expect(await remainingOf(db.knex, 'I2')).to.equal(100_000);
      const [row] = await historyOf(db.knex, 'I2');
      expect(row).to.include({ req_amt: 25_000, aply_amt: 100_000 - 90_000, bef_rmnd_amt: 90_000, aft_rmnd_amt: 100_000 });
    });

    it('when an increase arrives at a full limit, then nothing is added but the request is still in the history', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'I3', limAmt: 50_000, rmndAmt: 50_000 });
      const res = await post({ mbrNo: 'I3', rsrvUseGbCd: '10', ocurAmt: 1_000, ordNo: 'ORD-5' });
      expect(res.status).to.equal(200);
      expect(await remainingOf(db.knex, 'I3')).to.equal(50_000);
      const [row] = await historyOf(db.knex, 'I3');
      expect(row).to.include({ req_amt: 1_000, aply_amt: 0, bef_rmnd_amt: 50_000, aft_rmnd_amt: 50_000 });
    });
  });

  describe('refused changes', () => {
    it('when a decrease would go below 0, then 900 with code 6102 and nothing changes', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'R1', limAmt: 10_000, rmndAmt: 999 });
      const res = await post({ mbrNo: 'R1', rsrvUseGbCd: '20', ocurAmt: 1_000, ordNo: 'ORD-6' });
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal({
        code: '6102',
        message: 'The remaining staff discount limit is insufficient',
        httpStatus: 409,
        isProcess: false,
      });
      expect(await remainingOf(db.knex, 'R1')).to.equal(999);
      expect(await historyOf(db.knex, 'R1')).to.have.length(0);
      const lim = (await db.knex<{ mbr_no: string; upd_dtm: string }>('staff_dc_lim').where({ mbr_no: 'R1' }).first('upd_dtm'))!;
      expect(lim.upd_dtm).to.equal('2026-01-01 00:00:00');
    });

    const notStaff = [
      { what: 'no member has the number', arrange: null },
      { what: 'the member has withdrawn (90)', arrange: { mbrStatCd: '90' } },
      { what: 'the member is not staff', arrange: { staffYn: 'N' } },
      { what: 'the staff member has no limit row', arrange: { withLimit: false } },
    ];
    notStaff.forEach(({ what, arrange }, i) => {
      for (const rsrvUseGbCd of ['10', '20'] as const) {
        it(`when ${what}, then ${rsrvUseGbCd === '10' ? 'an increase' : 'a decrease'} answers 900 with code 6101 and writes nothing`, async () => {
          const mbrNo = `N${i}-${rsrvUseGbCd}`;
          if (arrange) await arrangeStaff(db.knex, { mbrNo, limAmt: 10_000, rmndAmt: 5_000, ...arrange });
          const res = await post({ mbrNo, rsrvUseGbCd, ocurAmt: 100, ordNo: 'ORD-7' });
          expect(res.status).to.equal(900);
          expect(res.body).to.include({ code: '6101', httpStatus: 404, isProcess: false });
          expect(await historyOf(db.knex, mbrNo)).to.have.length(0);
          if (arrange && arrange.withLimit !== false) expect(await remainingOf(db.knex, mbrNo)).to.equal(5_000);
        });
      }
    });
  });

  describe('validation', () => {
    const valid = { mbrNo: 'V1', rsrvUseGbCd: '20', ocurAmt: 100, ordNo: 'ORD-8' };
    const cases: { what: string; body: Record<string, unknown>; field: string }[] = [
      { what: 'ocurAmt is 0 (a change of nothing)', body: { ...valid, ocurAmt: 0 }, field: 'ocurAmt' },
      { what: 'ocurAmt is negative', body: { ...valid, ocurAmt: -100 }, field: 'ocurAmt' },
      { what: 'ocurAmt is fractional', body: { ...valid, ocurAmt: 1.5 }, field: 'ocurAmt' },
      { what: 'ocurAmt is text', body: { ...valid, ocurAmt: '100' }, field: 'ocurAmt' },
      { what: 'ocurAmt is beyond a safe int64', body: { ...valid, ocurAmt: 2 ** 60 }, field: 'ocurAmt' },
      { what: 'ocurAmt is missing', body: { mbrNo: 'V1', rsrvUseGbCd: '20', ordNo: 'ORD-8' }, field: 'ocurAmt' },
      { what: 'ordNo is missing', body: { mbrNo: 'V1', rsrvUseGbCd: '20', ocurAmt: 100 }, field: 'ordNo' },
      { what: 'ordNo is empty', body: { ...valid, ordNo: '' }, field: 'ordNo' },
      { what: 'mbrNo is missing', body: { rsrvUseGbCd: '20', ocurAmt: 100, ordNo: 'ORD-8' }, field: 'mbrNo' },
      { what: 'rsrvUseGbCd is not 10 or 20', body: { ...valid, rsrvUseGbCd: '30' }, field: 'rsrvUseGbCd' },
      { what: 'rsrvUseGbCd is missing', body: { mbrNo: 'V1', ocurAmt: 100, ordNo: 'ORD-8' }, field: 'rsrvUseGbCd' },
    ];
    before(() => arrangeStaff(db.knex, { mbrNo: 'V1', limAmt: 10_000, rmndAmt: 5_000 }));

    for (const c of cases) {
      it(`when ${c.what}, then 900 with code 1000 naming ${c.field}, and nothing changes`, async () => {
        const res = await post(c.body);
        expect(res.status).to.equal(900);
        expect(res.body).to.include({ code: '1000', httpStatus: 400, isProcess: false });
        expect((res.body as { errors: { field: string }[] }).errors.map((e) => e.field)).to.include(c.field);
        expect(await remainingOf(db.knex, 'V1')).to.equal(5_000);
        expect(await historyOf(db.knex, 'V1')).to.have.length(0);
      });
    }

    it('when the body is not JSON, then 900 with code 1002', async () => {
      const res = await request(member.app).post(CHANGE_PATH).type('form').send('mbrNo=V1');
      expect(res.status).to.equal(900);
      expect(res.body).to.include({ code: '1002', httpStatus: 415 });
    });

    for (const [what, key] of [
      ['empty', ''],
      ['longer than 200 characters', 'k'.repeat(201)],
      ['holding a space outside quotes', 'a b'],
    ] as const) {
      it(`when the Idempotency-Key header is ${what}, then 900 with code 1000 naming Idempotency-Key`, async () => {
        const res = await request(member.app).post(CHANGE_PATH).set('Idempotency-Key', key).send(valid);
        expect(res.status).to.equal(900);
        expect((res.body as { errors: unknown }).errors).to.deep.equal([
          { field: 'Idempotency-Key', message: 'must be 1 to 200 visible ASCII characters, optionally in double quotes' },
        ]);
        expect(await remainingOf(db.knex, 'V1')).to.equal(5_000);
      });
    }
  });
});
