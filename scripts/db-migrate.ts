/**
 * `pnpm db:migrate` migrates both databases, creating them if missing.
 * `pnpm db:rollback [--all]` undoes the last batch (or everything) of both.
 */
import { parseCommandLine, usageError } from '@bo/service-kit/command-line';

const [direction, ...rest] = process.argv.slice(2);
const USAGE =
  direction === 'rollback'
    ? 'usage: pnpm db:rollback [--all]\n  --all   undo every migration of both databases (default: the last batch)'
    : 'usage: pnpm db:migrate\n  creates the bo and member databases if missing and applies every migration';
const typed = rest.filter((a) => a !== '--');
const values = direction === 'rollback' ? parseCommandLine(USAGE, { all: { type: 'boolean' } }, typed) : parseCommandLine(USAGE, {}, typed);
if (direction !== 'rollback' && direction !== 'latest') usageError(`unknown direction ${direction}`, USAGE);

// The migrations (and the database drivers) load once the arguments parse.
const { migrateAll } = await import('./migrations.ts');
try {
  await migrateAll(direction, 'all' in values && values.all === true);
} catch (err) {
  console.error(`migration failed: ${(err as Error).message}`);
  process.exit(1);
}
