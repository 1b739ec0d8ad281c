import { expect } from 'chai';
import { createKnex, isLockConflict, retryOnLockConflict, type Knex } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '@bo/testing';

/**
 * Two transactions that lock rows a and b in opposite order: the server picks one as the
 * deadlock victim (1213) and rolls it back. Retried, the victim runs again once the winner
 * has committed.
 */
describe('retryOnLockConflict (real deadlocks)', () => {
  let db: TestDatabase;
  let knex: Knex;
  before(async () => {
    db = await createTestDatabase('db_lock_conflict', []);
    knex = createKnex(db.url, { poolMax: 4 });
    await knex.raw('CREATE TABLE pair (id CHAR(1) PRIMARY KEY, n INT NOT NULL) ENGINE=InnoDB');
  });
  beforeEach(async () => {
    await knex.raw('DELETE FROM pair');
    await knex('pair').insert([
      { id: 'a', n: 0 },
      { id: 'b', n: 0 },
    ]);
  });
  after(async () => {
    await knex.destroy();
    await db.drop();
  });

  /** Lock `first`, wait until the other side holds its row, then lock `second`; add 1 to both. */
  function crossing(first: string, second: string, gate: { arrived: number }) {
    return () =>
      knex.transaction(async (trx) => {
        await trx('pair').where({ id: first }).increment('n', 1);
        gate.arrived += 1;
        while (gate.arrived < 2) await new Promise((r) => setTimeout(r, 5));
        await trx('pair').where({ id: second }).increment('n', 1);
      });
  }

  it('when two transactions deadlock and both are retried, then both commit exactly once', async () => {
    const gate = { arrived: 0 };
    let attempts = 0;
    const counted = (work: () => Promise<void>) => () => {
      attempts += 1;
      return work();
    };
    await Promise.all([
      retryOnLockConflict(4, counted(crossing('a', 'b', gate))),
      retryOnLockConflict(4, counted(crossing('b', 'a', gate))),
    ]);
    expect(attempts, 'one side was the victim and ran again').to.equal(3);
    const rows = (await knex('pair').orderBy('id')) as { id: string; n: number }[];
    expect(rows.map((r) => r.n)).to.deep.equal([2, 2]);
  });

  it('when the conflict outlasts the attempts, then the deadlock error itself is thrown', async () => {
    const gate = { arrived: 0 };
    const results = await Promise.allSettled([
      knex.transaction(() => Promise.resolve(undefined)),
      retryOnLockConflict(1, crossing('a', 'b', gate)),
      crossing('b', 'a', gate)(),
    ]);
    const failures = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(failures).to.have.length(1);
    expect(isLockConflict(failures[0]!.reason)).to.equal(true);
  });

  it('when work fails with another error, then it is not repeated', async () => {
    let attempts = 0;
    const err = await retryOnLockConflict(4, async () => {
      attempts += 1;
      await knex.raw('SELECT * FROM no_such_table');
    }).catch((e: unknown) => e);
    expect(attempts).to.equal(1);
    expect(isLockConflict(err)).to.equal(false);
  });
});
