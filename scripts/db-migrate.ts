/**
 * `pnpm db:migrate` migrates both databases, creating them if missing.
 * `pnpm db:rollback [--all]` undoes the last batch (or everything) of both.
 */
import { migrateAll } from './migrations.ts';

try {
  await migrateAll(process.argv[2] === 'rollback' ? 'rollback' : 'latest', process.argv.includes('--all'));
} catch (err) {
  console.error(`migration failed: ${(err as Error).message}`);
  process.exit(1);
}
