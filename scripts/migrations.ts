import { createKnex, ensureDatabase, migrateLatest, migrateRollback, redact } from '@bo/db';
import { boMigrations } from '@bo/aggregates';
import { memberMigrations } from '@bo/member/migrations';

export { boMigrations, memberMigrations };

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
