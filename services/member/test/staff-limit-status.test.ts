import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import { arrangeStaff, createMemberDatabase, memberApp, STATUS_PATH, type MemberApp } from './support.ts';

describe('getDsctLmtStatBO: read a staff discount limit', () => {
  let db: TestDatabase;
  let member: MemberApp;
  const get = (mbrNo?: string) =>
    request(member.app)
      .get(STATUS_PATH)
      .query(mbrNo === undefined ? {} : { mbrNo });

  before(async () => {
    db = await createMemberDatabase('member_status');
    member = memberApp(db);
    await arrangeStaff(db.knex, { mbrNo: 'S1', limAmt: 300_000, rmndAmt: 123_456 });
    await arrangeStaff(db.knex, { mbrNo: 'S2', limAmt: 300_000, rmndAmt: 0 });
    await arrangeStaff(db.knex, { mbrNo: 'W1', limAmt: 300_000, rmndAmt: 1, mbrStatCd: '90' });
    await arrangeStaff(db.knex, { mbrNo: 'C1', limAmt: 300_000, rmndAmt: 1, staffYn: 'N' });
    await arrangeStaff(db.knex, { mbrNo: 'L1', limAmt: 0, rmndAmt: 0, withLimit: false });
  });
  after(async () => {
    await member.close();
    await db.drop();
  });

  it('when the member is staff, then 200 with the stored remaining and limit amounts', async () => {
    const res = await get('S1');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ mbrNo: 'S1', rmndAmt: 123_456, limAmt: 300_000 });
  });

  it('when the whole limit is used, then the remaining amount reads 0', async () => {
    const res = await get('S2');
    expect(res.body).to.deep.equal({ mbrNo: 'S2', rmndAmt: 0, limAmt: 300_000 });
  });

  for (const [what, mbrNo] of [
    ['no member has the number', 'NOBODY'],
    ['the member has withdrawn', 'W1'],
    ['the member is not staff', 'C1'],
    ['the staff member has no limit row', 'L1'],
  ] as const) {
    it(`when ${what}, then 900 with code 6101`, async () => {
      const res = await get(mbrNo);
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal({ code: '6101', message: 'Not a member, or not a staff member', httpStatus: 404, isProcess: false });
    });
  }

  it('when mbrNo is missing, then 900 with code 1000 naming mbrNo', async () => {
    const res = await get();
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '1000', httpStatus: 400 });
    expect((res.body as { errors: unknown }).errors).to.deep.equal([{ field: 'mbrNo', message: 'is required' }]);
  });
});
