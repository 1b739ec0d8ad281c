import { boSourceMigrations, createKnex, ensureDatabase, memberBaseMigrations, migrateLatest, migrateRollback, redact, type Migration } from '@bo/db';
import { aggregateMigrations } from '@bo/aggregation-worker/migrations';
import { memberServiceMigrations } from '@bo/member/migrations';

/** Everything the bo database needs: the platform's source tables, then the worker's aggregates. */
export const boMigrations: readonly Migration[] = [...boSourceMigrations, ...aggregateMigrations];

/** Everything the member database needs. */
export const memberMigrations: readonly Migration[] = [...memberBaseMigrations, ...memberServiceMigrations];

export const databaseUrls = () => ({
  bo: process.env.BO_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bo',
  member: process.env.MEMBER_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/member',
});

/** Migrate (creating the databases if missing) or roll back both databases, printing what happened. */
export async function migrateAll(direction: 'latest' | 'rollback' = 'latest', all = false): Promise<void> {
  const urls = databaseUrls();
  for (const [label, url, migrations] of [
    ['bo', urls.bo, boMigrations],
    ['member', urls.member, memberMigrations],
  ] as const) {
    if (direction === 'latest') await ensureDatabase(url);
    const knex = createKnex(url, { poolMax: 2 });
    try {
      const names = direction === 'latest' ? await migrateLatest(knex, migrations) : await migrateRollback(knex, migrations, all);
      const verb = direction === 'latest' ? 'applied' : 'rolled back';
      console.log(`${label} (${redact(url)}): ${names.length ? `${verb} ${names.join(', ')}` : 'up to date'}`);
    } finally {
      await knex.destroy();
    }
  }
}
