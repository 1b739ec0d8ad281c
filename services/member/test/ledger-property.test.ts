import { expect } from 'chai';
import fc from 'fast-check';
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
  type MemberApp,
} from './support.ts';

/**
 * The ledger invariant, for any limit, starting balance and batch of changes sent at once:
 * the history is one unbroken chain from the starting balance to the stored one, every link
 * obeys the increase/decrease rules within [0, limit], and it holds exactly the successful
 * requests.
 */
describe('staff limit ledger property', () => {
  let db: TestDatabase;
  let member: MemberApp;
  let server: RunningServer;

  before(async () => {
    db = await createMemberDatabase('member_ledger');
    member = memberApp(db);
    server = await listening(member);
  });
  after(async () => {
    await server.close();
    await member.close();
    await db.drop();
  });

  it('when any batch of increases and decreases runs concurrently, then the history chains the balance within [0, limit]', async () => {
    let run = 0;
    const scenario = fc.integer({ min: 1, max: 10_000 }).chain((limit) =>
      fc.record({
        limit: fc.constant(limit),
        start: fc.integer({ min: 0, max: limit }),
        ops: fc.array(
          fc.record({ rsrvUseGbCd: fc.constantFrom('10' as const, '20' as const), ocurAmt: fc.integer({ min: 1, max: limit }) }),
          { minLength: 1, maxLength: 20 },
        ),
      }),
    );

    await fc.assert(
      fc.asyncProperty(scenario, async ({ limit, start, ops }) => {
        const mbrNo = `P${++run}`;
        await arrangeStaff(db.knex, { mbrNo, limAmt: limit, rmndAmt: start });
        const responses = await Promise.all(
          ops.map((o, i) =>
            request(server.url)
              .post(CHANGE_PATH)
              .send({ mbrNo, ...o, ordNo: `P-${i}` }),
          ),
        );

        const succeeded = ops.filter((_, i) => responses[i]!.status === 200);
        responses.forEach((r, i) => {
          if (r.status !== 200) {
            expect((r.body as { code: string }).code).to.equal('6102');
            expect(ops[i]!.rsrvUseGbCd).to.equal('20');
          }
        });

        const history = await historyOf(db.knex, mbrNo);
        expect(history.map((h) => `${h.rsrv_use_gb_cd}:${h.req_amt}`).sort()).to.deep.equal(
          succeeded.map((o) => `${o.rsrvUseGbCd}:${o.ocurAmt}`).sort(),
        );
        let balance = start;
        for (const h of history) {
          expect(h.bef_rmnd_amt).to.equal(balance);
          const after = h.rsrv_use_gb_cd === '10' ? Math.min(limit, balance + h.req_amt) : balance - h.req_amt;
          expect(after).to.be.within(0, limit);
          expect(h.aft_rmnd_amt).to.equal(after);
          expect(h.aply_amt).to.equal(Math.abs(after - balance));
          balance = after;
        }
        expect(await remainingOf(db.knex, mbrNo)).to.equal(balance);
      }),
      { numRuns: 25 },
    );
  });
});
