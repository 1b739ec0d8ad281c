import { randomBytes } from 'node:crypto';
import { createKnex, dropDatabase, ensureDatabase, migrateLatest, withDatabase, type Knex, type Migration } from '@bo/db';

/** Where tests create their databases; never the default `bo`/`member`. */
export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/';

export interface TestDatabase {
  url: string;
  name: string;
  knex: Knex;
  drop: () => Promise<void>;
}

/** `_r<id>` when a CI run set TEST_RUN_ID: the run then drops exactly its own leftovers (scripts/test-databases.ts). */
const runSuffix = () => {
  const id = (process.env.TEST_RUN_ID ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 16);
  return id ? `_r${id}` : '';
};

/**
 * A fresh database `t_<label>_<random>[_r<run>]` with the given migrations applied. Each test
 * file arranges its own rows in it and drops it at the end.
 */
export async function createTestDatabase(label: string, migrations: readonly Migration[]): Promise<TestDatabase> {
  const name = `t_${label.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 30)}_${randomBytes(4).toString('hex')}${runSuffix()}`;
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

/**
 * `CHECKSUM TABLE` of every table of the database, by table name: equal snapshots mean no
 * row was added, removed or changed (property tests of requests that must write nothing).
 */
export async function tableChecksums(knex: Knex): Promise<Record<string, string>> {
  const [tables] = (await knex.raw('SHOW TABLES')) as [Record<string, string>[]];
  const names = tables.map((row) => Object.values(row)[0]!);
  if (!names.length) return {};
  const [rows] = (await knex.raw(`CHECKSUM TABLE ${names.map((n) => `\`${n}\``).join(', ')}`)) as [
    { Table: string; Checksum: number | string | null }[],
  ];
  return Object.fromEntries(rows.map((r) => [r.Table.slice(r.Table.indexOf('.') + 1), String(r.Checksum)]));
}
