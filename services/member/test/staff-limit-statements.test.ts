import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import { arrangeStaff, CHANGE_PATH, change, createMemberDatabase, memberApp, type MemberApp } from './support.ts';

/**
 * Every statement of a change is a round trip made while the member's limit row is locked, so
 * their number bounds how many changes per second a member (and a pool connection) can take,
 * and each costs the service's CPU (issue 15). The statements are read from the app's own pool
 * as it sends them.
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

  const CALL = 'call staff_dc_lim_change(?, ?,';

  it('when a decrease or a capped increase is applied, then the change is one round trip: one call of the limit-change procedure', async () => {
    expect(await statementsOf(change('Q1', '20', 1_000, 'Q-1'))).to.deep.equal([CALL]);
    expect(await statementsOf(change('Q1', '10', 90_000, 'Q-2'))).to.deep.equal([CALL]);
  });

  it('when a change carries an Idempotency-Key, then the claim comes first and the call records the outcome with the change', async () => {
    expect(await statementsOf(change('Q1', '20', 1_000, 'Q-3'), 'key-q1')).to.deep.equal(['insert into `staff_dc_lim_idem`', CALL]);
  });

  it('when a change is refused or repeats an earlier one, then it is still one call', async () => {
    expect(await statementsOf(change('Q1', '20', 10_000_000, 'Q-4'))).to.deep.equal([CALL]);
    expect(await statementsOf(change('NOT-STAFF', '20', 1, 'Q-5'))).to.deep.equal([CALL]);
    expect(await statementsOf(change('Q1', '20', 1_000, 'Q-1'))).to.deep.equal([CALL]);
  });
});
