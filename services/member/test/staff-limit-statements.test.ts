import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import { arrangeStaff, CHANGE_PATH, change, createMemberDatabase, memberApp, type MemberApp } from './support.ts';

/**
 * Every statement of a change is a round trip made while the member's limit row is locked, so
 * their number bounds how many changes per second a member (and a pool connection) can take.
 * The statements are read from the app's own pool as it sends them.
 */
describe('dcLimIncDec statements', () => {
  let db: TestDatabase;
  let member: MemberApp;
  let sent: string[] = [];

  before(async () => {
    db = await createMemberDatabase('member_statements');
    member = memberApp(db);
    member.knex.on('query', (q: { sql: string }) => sent.push(q.sql.trim().split(/\s+/).slice(0, 3).join(' ').toLowerCase()));
    await arrangeStaff(db.knex, { mbrNo: 'Q1', limAmt: 50_000, rmndAmt: 40_000 });
  });
  after(async () => {
    await member.close();
    await db.drop();
  });

  async function statementsOf(body: object, key?: string): Promise<string[]> {
    sent = [];
    const req = request(member.app).post(CHANGE_PATH);
    if (key) req.set('Idempotency-Key', key);
    await req.send(body);
    return sent;
  }

  it('when a decrease or a capped increase is applied, then the transaction holds two statements: the history insert and the balance update', async () => {
    const expected = ['begin;', 'insert into staff_dc_lim_hist', 'update staff_dc_lim l', 'commit;'];
    expect(await statementsOf(change('Q1', '20', 1_000))).to.deep.equal(expected);
    expect(await statementsOf(change('Q1', '10', 90_000))).to.deep.equal(expected);
  });

  it('when a change carries an Idempotency-Key, then the claim comes before the transaction and the outcome is recorded inside it', async () => {
    expect(await statementsOf(change('Q1', '20', 1_000), 'key-q1')).to.deep.equal([
      'insert into `staff_dc_lim_idem`',
      'begin;',
      'insert into staff_dc_lim_hist',
      'update staff_dc_lim l',
      'update `staff_dc_lim_idem` set',
      'commit;',
    ]);
  });

  it('when a change is refused, then one read after the locking insert tells 6101 from 6102', async () => {
    const expected = ['begin;', 'insert into staff_dc_lim_hist', 'select `m`.`mbr_no` as', 'commit;'];
    expect(await statementsOf(change('Q1', '20', 10_000_000))).to.deep.equal(expected);
    expect(await statementsOf(change('NOT-STAFF', '20', 1))).to.deep.equal(expected);
  });
});
