import { expect } from 'chai';
import request from 'supertest';
import { type TestDatabase } from '@bo/testing';
import type { RunningServer } from '@bo/service-kit';
import {
  arrangeStaff,
  CHANGE_PATH,
  createMemberDatabase,
  historyOf,
  listening,
  memberApp,
  remainingOf,
  STATUS_PATH,
  type MemberApp,
} from './support.ts';

/**
 * Many internal servers call at once for the same member: the requests are sent really
 * concurrently over HTTP to a listening server whose pool (20) lets them race in MariaDB.
 */
describe('staff limit under concurrency', () => {
  let db: TestDatabase;
  let member: MemberApp;
  let server: RunningServer;

  before(async () => {
    db = await createMemberDatabase('member_race');
    member = memberApp(db, { DB_POOL_MAX: '20' });
    server = await listening(member);
  });
  after(async () => {
    await server.close();
    await member.close();
    await db.drop();
  });

  const post = (body: object) => request(server.url).post(CHANGE_PATH).send(body);

  it('when 200 decreases race and the remaining allows exactly 100, then 100 succeed, 100 get 6102, the remaining is 0 and there are 100 history rows', async () => {
    const amount = 700;
    await arrangeStaff(db.knex, { mbrNo: 'RACE1', limAmt: 1_000_000, rmndAmt: 100 * amount });

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post({ mbrNo: 'RACE1', rsrvUseGbCd: '20', ocurAmt: amount, ordNo: `ORD-${i}` })),
    );

    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 900 && (r.body as { code: string }).code === '6102');
    expect(ok, 'successes').to.have.length(100);
    expect(refused, '6102 refusals').to.have.length(100);
    expect(await remainingOf(db.knex, 'RACE1')).to.equal(0);
    const history = await historyOf(db.knex, 'RACE1');
    expect(history).to.have.length(100);
    // No lost update: each change started from the balance the previous one left.
    history.forEach((h, i) => expect(h.bef_rmnd_amt, `row ${i}`).to.equal((100 - i) * amount));
    expect(new Set(history.map((h) => h.ord_no)).size).to.equal(100);
  });

  it('when increases and decreases race while the limit is read, then every read is within [0, limit] and the end is what the successes imply', async () => {
    const limit = 20_000;
    const start = 10_000;
    await arrangeStaff(db.knex, { mbrNo: 'RACE2', limAmt: limit, rmndAmt: start });
    // Increases add at most 10 000 in total, so none is ever capped and the end value does
    // not depend on the order; decreases ask for more than there is, so some get 6102.
    const ops = [
      ...Array.from({ length: 50 }, (_, i) => ({ rsrvUseGbCd: '10' as const, ocurAmt: 100 + ((i * 37) % 100) })),
      ...Array.from({ length: 100 }, (_, i) => ({ rsrvUseGbCd: '20' as const, ocurAmt: 150 + ((i * 53) % 150) })),
    ].sort((a, b) => ((a.ocurAmt * 7919) % 101) - ((b.ocurAmt * 7919) % 101));
    expect(ops.filter((o) => o.rsrvUseGbCd === '10').reduce((s, o) => s + o.ocurAmt, 0)).to.be.at.most(limit - start);

    let racing = true;
    const reads: { rmndAmt: number; limAmt: number }[] = [];
    // Four readers at once: a change is one round trip now, so one reader may see the race end.
    const pollers = Array.from({ length: 4 }, async () => {
      while (racing) {
        const res = await request(server.url).get(STATUS_PATH).query({ mbrNo: 'RACE2' });
        expect(res.status).to.equal(200);
        reads.push(res.body as { rmndAmt: number; limAmt: number });
      }
    });
    const responses = await Promise.all(ops.map((o, i) => post({ mbrNo: 'RACE2', ...o, ordNo: `MIX-${i}` })));
    racing = false;
    await Promise.all(pollers);

    expect(reads.length, 'reads while racing').to.be.greaterThan(3);
    for (const r of reads) {
      expect(r.rmndAmt).to.be.within(0, limit);
      expect(r.limAmt).to.equal(limit);
    }
    let expected = start;
    responses.forEach((res, i) => {
      const op = ops[i]!;
      if (res.status === 200) {
        expected += op.rsrvUseGbCd === '10' ? op.ocurAmt : -op.ocurAmt;
      } else {
        expect(res.body, `op ${i}`).to.include({ code: '6102' });
        expect(op.rsrvUseGbCd, `op ${i}`).to.equal('20');
      }
    });
    expect(
      responses.some((r) => r.status === 900),
      'some decreases were refused',
    ).to.equal(true);
    expect(await remainingOf(db.knex, 'RACE2')).to.equal(expected);
    expect(await historyOf(db.knex, 'RACE2')).to.have.length(responses.filter((r) => r.status === 200).length);
  });
});
