import { randomBytes } from 'node:crypto';
import { createKnex, dropDatabase, ensureDatabase, withDatabase, type Knex } from '../connection.ts';
import { migrateLatest, type Migration } from '../migrate.ts';

/** Where tests create their databases; never the default `bo`/`member`. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/';

export interface TestDatabase {
  url: string;
  name: string;
  knex: Knex;
  drop: () => Promise<void>;
}

/**
 * A fresh database `t_<label>_<random>` with the given migrations applied. Each test file
 * arranges its own rows in it and drops it at the end.
 */
export async function createTestDatabase(label: string, migrations: readonly Migration[]): Promise<TestDatabase> {
  const name = `t_${label.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(TEST_SERVER_URL, name);
  await ensureDatabase(url);
  const knex = createKnex(url, { poolMax: 20 });
  await migrateLatest(knex, migrations);
  return {
    url,
    name,
    knex,
    drop: async () => {
      await knex.destroy();
      await dropDatabase(url);
    },
  };
}
