/**
 * `pnpm db:migrate` migrates both databases, creating them if missing.
 * `pnpm db:rollback [--all]` undoes the last batch (or everything) of both.
 */
import { createKnex, ensureDatabase, migrateLatest, migrateRollback, redact } from '@bo/db';
import { boMigrations, memberMigrations } from './migrations.ts';

const BO_URL = process.env.BO_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/bo';
const MEMBER_URL = process.env.MEMBER_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/member';

const direction = process.argv[2] === 'rollback' ? 'rollback' : 'latest';
const all = process.argv.includes('--all');

async function run(label: string, url: string, migrations: typeof boMigrations) {
  if (direction === 'latest') await ensureDatabase(url);
  const knex = createKnex(url, { poolMax: 2 });
  try {
    const names = direction === 'latest' ? await migrateLatest(knex, migrations) : await migrateRollback(knex, migrations, all);
    const verb = direction === 'latest' ? 'applied' : 'rolled back';
    console.log(`${label} (${redact(url)}): ${names.length ? `${verb} ${names.join(', ')}` : `nothing to do`}`);
  } finally {
    await knex.destroy();
  }
}

try {
  await run('bo', BO_URL, boMigrations);
  await run('member', MEMBER_URL, memberMigrations);
} catch (err) {
  console.error(`migration failed: ${(err as Error).message}`);
  process.exit(1);
}
