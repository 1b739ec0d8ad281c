import { expect } from 'chai';
import request from 'supertest';
import type { Knex } from '@bo/db';
import { type TestDatabase } from '@bo/testing';
import {
  arrangeStaff,
  CHANGE_PATH,
  change,
  createMemberDatabase,
  historyOf,
  localNow,
  memberApp,
  remainingOf,
  until,
  type MemberApp,
} from './support.ts';

describe('dcLimIncDec with an Idempotency-Key', () => {
  let db: TestDatabase;
  let member: MemberApp;
  const post = (app: MemberApp, key: string, body: object) => request(app.app).post(CHANGE_PATH).set('Idempotency-Key', key).send(body);
  type KeyRow = { idem_key: string; proc_stat: string; owner_id: string | null; reg_dtm: string; exp_dtm: string };
  const keyRow = (key: string) => db.knex<KeyRow>('staff_dc_lim_idem').where({ idem_key: key }).first();

  /** Hold the member's limit row from the test's own transaction, so a change of that member waits honestly. */
  async function holdLimitRow(mbrNo: string): Promise<Knex.Transaction> {
    const trx = await db.knex.transaction();
    await trx('staff_dc_lim').where({ mbr_no: mbrNo }).forUpdate().first();
    return trx;
  }

  before(async () => {
    db = await createMemberDatabase('member_idem');
    member = memberApp(db);
  });
  after(async () => {
    await member.close();
    await db.drop();
  });

  it('when a request is retried with the same key and body, then the change is applied once and the retry replays 200', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K1', limAmt: 50_000, rmndAmt: 20_000 });
    const body = { ...change('K1', '20', 3_000, 'ORD-K1'), claimNo: 'C1' };
    const first = await post(member, 'key-k1', body);
    const retry = await post(member, 'key-k1', body);
    const again = await post(member, '"key-k1"', body);

    expect(first.status).to.equal(200);
    expect(first.headers['idempotent-replayed']).to.equal(undefined);
    for (const r of [retry, again]) {
      expect(r.status).to.equal(200);
      expect(r.text).to.equal('');
      expect(r.headers['idempotent-replayed']).to.equal('true');
    }
    expect(await remainingOf(db.knex, 'K1')).to.equal(20_000 - 3_000);
    const history = await historyOf(db.knex, 'K1');
    expect(history).to.have.length(1);
    expect(history[0]!.idem_key).to.equal('key-k1');
  });

  it('when keys differ only in letter case, then they are different keys', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K2', limAmt: 50_000, rmndAmt: 20_000 });
    // Two orders: the same order twice would be one change by its natural key, whatever the keys.
    expect((await post(member, 'Key-K2', change('K2', '20', 1_000, 'ORD-K2-A'))).status).to.equal(200);
    expect((await post(member, 'key-k2', change('K2', '20', 1_000, 'ORD-K2-B'))).status).to.equal(200);
    expect(await historyOf(db.knex, 'K2')).to.have.length(2);
  });

  it('when the first request ended in 6102, then the retry replays 6102 even though the balance would now allow it', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K3', limAmt: 50_000, rmndAmt: 500 });
    const body = change('K3', '20', 1_000, 'ORD-K3');
    const first = await post(member, 'key-k3', body);
    expect(first.status).to.equal(900);
    expect(first.body).to.include({ code: '6102' });
    expect(
      (
        await request(member.app)
          .post(CHANGE_PATH)
          .send(change('K3', '10', 5_000, 'CANCEL'))
      ).status,
    ).to.equal(200);

    const retry = await post(member, 'key-k3', body);
    expect(retry.status).to.equal(900);
    expect(retry.body).to.deep.equal(first.body);
    expect(retry.headers['idempotent-replayed']).to.equal('true');
    expect(await remainingOf(db.knex, 'K3')).to.equal(500 + 5_000);
    expect((await historyOf(db.knex, 'K3')).map((h) => h.ord_no)).to.deep.equal(['CANCEL']);
  });

  it('when the first request ended in 6101, then the retry replays 6101 even after the member became staff', async () => {
    const body = change('K4', '10', 1_000);
    expect((await post(member, 'key-k4', body)).body).to.include({ code: '6101' });
    await arrangeStaff(db.knex, { mbrNo: 'K4', limAmt: 50_000, rmndAmt: 100 });
    const retry = await post(member, 'key-k4', body);
    expect(retry.status).to.equal(900);
    expect(retry.body).to.include({ code: '6101' });
    expect(await historyOf(db.knex, 'K4')).to.have.length(0);
  });

  describe('the same key with another body', () => {
    before(async () => {
      await arrangeStaff(db.knex, { mbrNo: 'K5', limAmt: 50_000, rmndAmt: 20_000 });
      await arrangeStaff(db.knex, { mbrNo: 'K5-OTHER', limAmt: 50_000, rmndAmt: 20_000 });
    });
    // Each case pays for another order, so the originals are three changes, not one repeated.
    const original = (i: number) => change('K5', '20', 1_000, `ORD-K5-${i}`);
    const cases = [
      { what: 'a different amount', second: { ...original(0), ocurAmt: 2_000 } },
      { what: 'a different member', second: { ...original(1), mbrNo: 'K5-OTHER' } },
      { what: 'an added claim number', second: { ...original(2), claimNo: 'C9' } },
    ];
    cases.forEach(({ what, second }, i) => {
      it(`when the same key comes with ${what}, then 900 with httpStatus 422 (6103) and nothing more is applied`, async () => {
        const key = `key-k5-${i}`;
        const [k5Before, otherBefore] = [await remainingOf(db.knex, 'K5'), await remainingOf(db.knex, 'K5-OTHER')];
        expect((await post(member, key, original(i))).status).to.equal(200);
        const misuse = await post(member, key, second);
        expect(misuse.status).to.equal(900);
        expect(misuse.body).to.deep.equal({
          code: '6103',
          message: 'This Idempotency-Key was already used with a different request body',
          httpStatus: 422,
          isProcess: false,
        });
        expect(await remainingOf(db.knex, 'K5')).to.equal(k5Before - 1_000);
        expect(await remainingOf(db.knex, 'K5-OTHER')).to.equal(otherBefore);
        expect((await historyOf(db.knex, 'K5')).filter((h) => h.idem_key === key)).to.have.length(1);
        expect(await historyOf(db.knex, 'K5-OTHER')).to.have.length(0);
      });
    });
  });

  it('when a duplicate arrives while the first is still running, then 409 (6104); the first then applies once and later retries replay it', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K6', limAmt: 50_000, rmndAmt: 20_000 });
    const body = change('K6', '20', 4_000);
    const lock = await holdLimitRow('K6');
    let first: Promise<request.Response> | undefined;
    try {
      first = post(member, 'key-k6', body).then((r) => r);
      await until(async () => (await keyRow('key-k6'))?.proc_stat === 'PROCESSING', 'the first request to claim its key');
      const duplicate = await post(member, 'key-k6', body);
      expect(duplicate.status).to.equal(900);
      expect(duplicate.body).to.deep.equal({
        code: '6104',
        message: 'A request with this Idempotency-Key is still being processed',
        httpStatus: 409,
        isProcess: false,
      });
    } finally {
      await lock.commit();
    }
    expect((await first).status).to.equal(200);
    const later = await post(member, 'key-k6', body);
    expect(later.status).to.equal(200);
    expect(later.headers['idempotent-replayed']).to.equal('true');
    expect(await remainingOf(db.knex, 'K6')).to.equal(16_000);
    expect(await historyOf(db.knex, 'K6')).to.have.length(1);
  });

  it('when 20 copies with one key arrive at once, then exactly one applies and the others are 409 or its replay', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K7', limAmt: 50_000, rmndAmt: 20_000 });
    const body = change('K7', '20', 1_500);
    const responses = await Promise.all(Array.from({ length: 20 }, () => post(member, 'key-k7', body)));
    const applied = responses.filter((r) => r.status === 200 && !r.headers['idempotent-replayed']);
    expect(applied).to.have.length(1);
    for (const r of responses) if (r.status !== 200) expect(r.body).to.include({ code: '6104', httpStatus: 409 });
    expect(await remainingOf(db.knex, 'K7')).to.equal(18_500);
    expect(await historyOf(db.knex, 'K7')).to.have.length(1);
  });

  it('when a key is recorded, then it is kept for 24 hours in platform local time', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K8', limAmt: 50_000, rmndAmt: 20_000 });
    const from = localNow();
    await post(member, 'key-k8', change('K8', '20', 100));
    const row = (await keyRow('key-k8'))!;
    expect(row).to.include({ proc_stat: 'DONE', mbr_no: 'K8', resp_status: 200, owner_id: null });
    expect(row.reg_dtm >= from && row.reg_dtm <= localNow()).to.equal(true);
    const hours = (Date.parse(row.exp_dtm.replace(' ', 'T') + 'Z') - Date.parse(row.reg_dtm.replace(' ', 'T') + 'Z')) / 3_600_000;
    expect(hours).to.equal(24);
  });

  it('when a key has expired, then the same key is a new request, and the same body is still recognised by its natural key', async () => {
    await arrangeStaff(db.knex, { mbrNo: 'K9', limAmt: 50_000, rmndAmt: 20_000 });
    const body = change('K9', '20', 1_000, 'ORD-K9');
    expect((await post(member, 'key-k9', body)).status).to.equal(200);
    await db.knex('staff_dc_lim_idem').where({ idem_key: 'key-k9' }).update({ exp_dtm: '2020-01-01 00:00:00' });
    const same = await post(member, 'key-k9', body);
    expect(same.status).to.equal(200);
    expect(same.headers['idempotent-replayed']).to.equal('true');
    expect(await remainingOf(db.knex, 'K9')).to.equal(19_000);
    // The expired key was taken afresh: another order under it is applied.
    await db.knex('staff_dc_lim_idem').where({ idem_key: 'key-k9' }).update({ exp_dtm: '2020-01-01 00:00:00' });
    const other = await post(member, 'key-k9', change('K9', '20', 1_000, 'ORD-K9-2'));
    expect(other.status).to.equal(200);
    expect(other.headers['idempotent-replayed']).to.equal(undefined);
    expect(await remainingOf(db.knex, 'K9')).to.equal(18_000);
    expect(await historyOf(db.knex, 'K9')).to.have.length(2);
  });

  describe('lock conflicts', () => {
    let impatient: MemberApp;
    let patient: MemberApp;
    let victim: MemberApp;
    before(() => {
      impatient = memberApp(db, { STAFF_LIMIT_LOCK_WAIT_SECONDS: '1', STAFF_LIMIT_MAX_ATTEMPTS: '1' });
      patient = memberApp(db, { STAFF_LIMIT_LOCK_WAIT_SECONDS: '1', STAFF_LIMIT_MAX_ATTEMPTS: '6' });
      victim = memberApp(db, { STAFF_LIMIT_LOCK_WAIT_SECONDS: '30', REQUEST_TIMEOUT_MS: '90000' });
    });

    /** Whether a connection of this database runs a statement like `statement`, or waits for a row lock. */
    async function waitingIn(statement: RegExp): Promise<boolean> {
      const [rows] = (await db.knex.raw(
        `SELECT p.INFO AS info, t.trx_state AS state FROM information_schema.PROCESSLIST p
           LEFT JOIN information_schema.INNODB_TRX t ON t.trx_mysql_thread_id = p.ID WHERE p.DB = ?`,
        [db.name],
      )) as [{ info: string | null; state: string | null }[]];
      return rows.some((r) => r.state === 'LOCK WAIT' || statement.test(r.info ?? ''));
    }

    /** A failed wait, with what the server and the request were doing, so it can be understood. */
    const explained = (pending: Promise<request.Response>) => async (err: Error) => {
      const [trx] = (await db.knex.raw(
        `SELECT t.trx_state, t.trx_rows_modified, p.ID, p.DB, p.COMMAND, p.TIME, p.STATE, p.INFO
           FROM information_schema.INNODB_TRX t LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id`,
      )) as [unknown[]];
      const settled = await Promise.race([
        pending.then((r) => ({ status: r.status, body: r.body as unknown })),
        new Promise((r) => setTimeout(() => r('pending'), 50)),
      ]);
      throw new Error(`${err.message}\ntransactions: ${JSON.stringify(trx)}\nrequest: ${JSON.stringify(settled)}`);
    };
    after(async () => {
      await impatient.close();
      await patient.close();
      await victim.close();
    });

    it('when the limit row stays locked past every attempt, then 900 with httpStatus 503, nothing applied, and the key is free for the retry', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'K11', limAmt: 50_000, rmndAmt: 20_000 });
      const body = change('K11', '20', 2_500);
      const lock = await holdLimitRow('K11');
      let busy: request.Response;
      try {
        busy = await post(impatient, 'key-k11', body);
      } finally {
        await lock.commit();
      }
      expect(busy.status).to.equal(900);
      expect(busy.body).to.include({ code: '1503', httpStatus: 503 });
      expect(await keyRow('key-k11')).to.equal(undefined);
      expect(await remainingOf(db.knex, 'K11')).to.equal(20_000);

      expect((await post(impatient, 'key-k11', body)).status).to.equal(200);
      expect(await remainingOf(db.knex, 'K11')).to.equal(17_500);
      expect(await historyOf(db.knex, 'K11')).to.have.length(1);
    });

    it('when a lock-wait timeout hits an attempt, then the whole change is retried and applied once', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'K12', limAmt: 50_000, rmndAmt: 20_000 });
      const lock = await holdLimitRow('K12');
      const pending = post(patient, 'key-k12', change('K12', '20', 700)).then((r) => r);
      // Longer than one lock wait (1 s), far shorter than six.
      await new Promise((r) => setTimeout(r, 1_600));
      await lock.commit();
      expect((await pending).status).to.equal(200);
      expect(await remainingOf(db.knex, 'K12')).to.equal(19_300);
      expect(await historyOf(db.knex, 'K12')).to.have.length(1);
    });

    it('when the change deadlocks with a heavier transaction and is its victim, then it is retried whole and applied once', async function () {
      // Lock waits and the request's time limit far longer than the steps below take on a loaded
      // machine: only the deadlock (detected at once, whatever the wait) may end the request's waits.
      this.timeout(90_000);
      await arrangeStaff(db.knex, { mbrNo: 'K14', limAmt: 50_000, rmndAmt: 20_000 });
      const gate = await holdLimitRow('K14');
      const pending = post(victim, 'key-k14', change('K14', '20', 1_100)).then((r) => r);
      // The request is inside the limit-change procedure, waiting for the limit row the gate holds
      // (seen as its statement, or as a lock wait: INNODB_TRX alone was seen to miss it under load).
      await until(
        () => waitingIn(/^SELECT l\.mbr_no, l\.rmnd_amt, l\.lim_amt INTO/),
        'the request to wait for the limit row',
        30_000,
      ).catch(explained(pending));
      // A rival that has written more rows (InnoDB rolls back the lighter side of a deadlock)
      // and holds the key's record, which the request updates last.
      const rival = await db.knex.transaction();
      try {
        await rival('mbr').insert(
          Array.from({ length: 50 }, (_, i) => ({ mbr_no: `K14-F${i}`, mbr_nm: 'filler', mbr_stat_cd: '10', staff_yn: 'N' })),
        );
        await rival('staff_dc_lim_idem').where({ idem_key: 'key-k14' }).forUpdate().first();
        // The waiting request is granted the limit row as the gate commits (InnoDB hands a
        // released lock to its waiter), so whatever it waits for next is the rival's.
        await gate.commit();
        // Closes the cycle: the rival now waits for the limit row the request holds, and the
        // request waits (or is about to) for the key record the rival holds.
        await rival('staff_dc_lim').where({ mbr_no: 'K14' }).forUpdate().first();
        await rival.commit();
      } catch (err) {
        await rival.rollback();
        throw err;
      }
      expect((await pending).status).to.equal(200);
      expect(await remainingOf(db.knex, 'K14')).to.equal(18_900);
      expect(await historyOf(db.knex, 'K14')).to.have.length(1);
      expect(await db.knex('mbr').where('mbr_no', 'like', 'K14-F%').count({ n: '*' }).first()).to.deep.equal({ n: 50 });
    });

    it('when the owner of a key outlives its lease and a retry takes the key over, then only one of them applies', async () => {
      await arrangeStaff(db.knex, { mbrNo: 'K13', limAmt: 50_000, rmndAmt: 20_000 });
      const body = change('K13', '20', 900);
      const lock = await holdLimitRow('K13');
      let first: Promise<request.Response> | undefined;
      let second: Promise<request.Response> | undefined;
      try {
        first = post(patient, 'key-k13', body).then((r) => r);
        await until(async () => (await keyRow('key-k13'))?.proc_stat === 'PROCESSING', 'the first request to claim its key');
        const firstOwner = (await keyRow('key-k13'))!.owner_id;
        // As if the first request's process had stalled for longer than its lease.
        await db.knex('staff_dc_lim_idem').where({ idem_key: 'key-k13' }).update({ lease_end_dtm: '2020-01-01 00:00:00' });
        second = post(patient, 'key-k13', body).then((r) => r);
        await until(async () => (await keyRow('key-k13'))?.owner_id !== firstOwner, 'the retry to take the key over');
      } finally {
        await lock.commit();
      }
      const results = await Promise.all([first, second]);
      expect(results.map((r) => r.status).sort()).to.deep.equal([200, 900]);
      expect(results.find((r) => r.status === 900)!.body).to.include({ code: '6104', httpStatus: 409 });
      expect(await remainingOf(db.knex, 'K13')).to.equal(19_100);
      expect(await historyOf(db.knex, 'K13')).to.have.length(1);
      expect((await post(patient, 'key-k13', body)).headers['idempotent-replayed']).to.equal('true');
    });
  });
});
