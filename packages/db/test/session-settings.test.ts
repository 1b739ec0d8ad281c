import { expect } from 'chai';
import { createKnex, type Knex } from '../src/index.ts';
import { createTestDatabase, type TestDatabase } from '@bo/testing';

/** Session settings a pool gives each connection it opens. */
describe('createKnex session settings', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase('db_session', []);
  });
  after(() => db.drop());

  /** The setting on `n` distinct connections: each held open in a transaction while the next is read. */
  async function lockWaitOfConnections(knex: Knex, n: number): Promise<number[]> {
    const held: Knex.Transaction[] = [];
    try {
      for (let i = 0; i < n; i++) held.push(await knex.transaction());
      const rows = await Promise.all(held.map((trx) => trx.raw('SELECT CONNECTION_ID() AS id, @@SESSION.innodb_lock_wait_timeout AS s')));
      const values = rows.map(([r]: [{ id: number; s: number }[]]) => r[0]!);
      expect(new Set(values.map((v) => v.id)).size, 'distinct connections').to.equal(n);
      return values.map((v) => Number(v.s));
    } finally {
      for (const trx of held) await trx.rollback();
    }
  }

  it('when a pool is given a lock wait, then every connection it opens has that innodb_lock_wait_timeout', async () => {
    const knex = createKnex(db.url, { poolMax: 3, lockWaitSeconds: 3 });
    try {
      expect(await lockWaitOfConnections(knex, 3)).to.deep.equal([3, 3, 3]);
    } finally {
      await knex.destroy();
    }
  });

  it('when a pool has a lock wait and a statement limit, then its connections get both', async () => {
    const knex = createKnex(db.url, { poolMax: 2, lockWaitSeconds: 7, statementTimeoutMs: 4_000 });
    try {
      expect(await lockWaitOfConnections(knex, 2)).to.deep.equal([7, 7]);
      const [[row]] = (await knex.raw('SELECT VERSION() AS v')) as [{ v: string }[]];
      const limit = /mariadb/i.test(row!.v) ? 'max_statement_time' : 'max_execution_time';
      const [[value]] = (await knex.raw(`SELECT @@SESSION.${limit} AS v`)) as [{ v: number | string }[]];
      expect(Number(value!.v)).to.equal(limit === 'max_statement_time' ? 4 : 4_000);
    } finally {
      await knex.destroy();
    }
  });

  it('when the lock wait is not a whole number of seconds, then createKnex refuses it', () => {
    expect(() => createKnex(db.url, { lockWaitSeconds: 1.5 })).to.throw(/lockWaitSeconds/);
    expect(() => createKnex(db.url, { lockWaitSeconds: 0 })).to.throw(/lockWaitSeconds/);
  });
});
