import { createKnex, dropDatabase, ensureDatabase, migrateLatest, withDatabase, type Knex, type Migration } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { memberMigrations } from '@bo/member/migrations';
import type { BenchOptions } from '../options.ts';

export { boMigrations, memberMigrations };

export const databaseUrl = (options: Pick<BenchOptions, 'serverUrl'>, name: string, localInfile = false): string => {
  const url = withDatabase(options.serverUrl, name);
  return localInfile ? `${url}${url.includes('?') ? '&' : '?'}localInfile=true` : url;
};

/** The extra databases a run uses besides the main pair, named from the prefix. */
export const extraDatabase = {
  excel: (o: Pick<BenchOptions, 'dbPrefix'>) => `${o.dbPrefix}_bo_xl`,
  loading: (o: Pick<BenchOptions, 'dbPrefix'>) => `${o.dbPrefix}_bo_load`,
  scaling: (o: Pick<BenchOptions, 'dbPrefix'>, events: number) => `${o.dbPrefix}_bo_e${events}`,
};

/** Create the database when missing and bring its migrations up to date; the caller destroys the pool. */
export async function openMigrated(url: string, migrations: readonly Migration[], poolMax = 10): Promise<Knex> {
  await ensureDatabase(url);
  const knex = createKnex(url, { poolMax });
  await migrateLatest(knex, migrations);
  return knex;
}

/** Every database of a run: the smoke test drops them all at the end. */
export async function dropBenchDatabases(options: BenchOptions): Promise<string[]> {
  const admin = createKnex(databaseUrl(options, ''), { poolMax: 1 });
  try {
    const [rows] = (await admin.raw('SHOW DATABASES')) as [{ Database: string }[]];
    const ours = new Set([options.boDb, options.memberDb]);
    const prefix = `${options.dbPrefix}_bo_`;
    const names = rows.map((r) => r.Database).filter((n) => ours.has(n) || n.startsWith(prefix));
    for (const name of names) await dropDatabase(databaseUrl(options, name));
    return names;
  } finally {
    await admin.destroy();
  }
}
