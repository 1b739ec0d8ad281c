import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase, testLogger } from '@bo/testing';
import { startKeySweeper, type KeySweeper } from '../src/staff-limit/key-sweeper.ts';
import { arrangeStaff, CHANGE_PATH, change, createMemberDatabase, memberApp, TIME_ZONE, until, type MemberApp } from './support.ts';

/** Expired Idempotency-Key records are deleted by a background timer, never inside a request. */
describe('expired Idempotency-Key sweep', () => {
  let db: TestDatabase;
  let member: MemberApp;
  let sweeper: KeySweeper | undefined;

  const stale = {
    req_hash: 'x'.repeat(64),
    mbr_no: 'S1',
    proc_stat: 'DONE',
    lease_end_dtm: '2020-01-01 00:00:00',
    resp_status: 200,
    reg_dtm: '2020-01-01 00:00:00',
  };
  const expired = (key: string) => ({ ...stale, idem_key: key, exp_dtm: '2020-01-02 00:00:00' });
  const live = (key: string) => ({ ...stale, idem_key: key, exp_dtm: '2999-01-01 00:00:00' });
  const keys = async () => (await db.knex('staff_dc_lim_idem').orderBy('idem_key').pluck('idem_key')) as string[];
  const sweep = (options: { intervalMs: number; batch?: number }) =>
    (sweeper = startKeySweeper({ knex: db.knex, logger: testLogger('member'), timeZone: TIME_ZONE, ...options }));

  before(async () => {
    db = await createMemberDatabase('member_sweep');
    member = memberApp(db);
    await arrangeStaff(db.knex, { mbrNo: 'S1', limAmt: 50_000, rmndAmt: 20_000 });
  });
  afterEach(async () => {
    await sweeper?.stop();
    sweeper = undefined;
    await db.knex('staff_dc_lim_idem').delete();
  });
  after(async () => {
    await member.close();
    await db.drop();
  });

  it('when the sweeper starts, then every expired key is deleted batch after batch without waiting for the interval, and live keys stay', async () => {
    await db
      .knex('staff_dc_lim_idem')
      .insert([...['old-1', 'old-2', 'old-3', 'old-4', 'old-5'].map(expired), live('live-1'), live('live-2')]);
    // Five expired rows, two per DELETE, and an interval no test waits out: only the
    // "a full batch means more are waiting" rule can clear them all.
    sweep({ intervalMs: 3_600_000, batch: 2 });
    await until(async () => !(await keys()).some((k) => k.startsWith('old-')), 'every expired key to be swept');
    expect(await keys()).to.deep.equal(['live-1', 'live-2']);
  });

  it('when a key expires while the service runs, then a later sweep deletes it', async () => {
    sweep({ intervalMs: 100 });
    await new Promise((r) => setTimeout(r, 50));
    await db.knex('staff_dc_lim_idem').insert([expired('old-later'), live('live-later')]);
    await until(async () => !(await keys()).includes('old-later'), 'the key that expired later to be swept');
    expect(await keys()).to.deep.equal(['live-later']);
  });

  it('when the sweeper is stopped, then it deletes nothing more', async () => {
    sweep({ intervalMs: 20 });
    await sweeper!.stop();
    await db.knex('staff_dc_lim_idem').insert(expired('old-after-stop'));
    await new Promise((r) => setTimeout(r, 200));
    expect(await keys()).to.deep.equal(['old-after-stop']);
  });

  it('when keyed requests are served, then they leave other expired keys to the sweeper', async () => {
    await db.knex('staff_dc_lim_idem').insert([expired('old-1'), expired('old-2')]);
    expect(
      (
        await request(member.app)
          .post(CHANGE_PATH)
          .set('Idempotency-Key', 'key-s1')
          .send(change('S1', '20', 100))
      ).status,
    ).to.equal(200);
    expect(await keys()).to.deep.equal(['key-s1', 'old-1', 'old-2']);
  });
});
