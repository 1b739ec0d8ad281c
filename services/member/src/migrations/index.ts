import { memberBaseMigrations, type Migration } from '@bo/db';
import { idempotencyKeysMigration } from './0101-idempotency-keys.ts';
import { changeNaturalKeyMigration } from './0102-change-natural-key.ts';
import { limitChangeProcedureMigration } from './0103-limit-change-procedure.ts';
import { limitChangeReadsFirstMigration } from './0104-limit-change-reads-first.ts';

export { LIMIT_CHANGE_PROCEDURE } from './0103-limit-change-procedure.ts';

/** The member service's own tables and routines (beyond the platform's member tables, docs/data-model.md §5). */
export const memberServiceMigrations: readonly Migration[] = [
  idempotencyKeysMigration,
  changeNaturalKeyMigration,
  limitChangeProcedureMigration,
  limitChangeReadsFirstMigration,
];

/** Everything the member database needs: the platform's member tables, then the service's own. */
export const memberMigrations: readonly Migration[] = [...memberBaseMigrations, ...memberServiceMigrations];
