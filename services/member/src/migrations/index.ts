import { memberBaseMigrations, type Migration } from '@bo/db';
import { idempotencyKeysMigration } from './0101-idempotency-keys.ts';

/** The member service's own tables (beyond the platform's member tables, docs/data-model.md §5). */
export const memberServiceMigrations: readonly Migration[] = [idempotencyKeysMigration];

/** Everything the member database needs: the platform's member tables, then the service's own. */
export const memberMigrations: readonly Migration[] = [...memberBaseMigrations, ...memberServiceMigrations];
