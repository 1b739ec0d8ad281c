import type { Migration } from '@bo/db';
import { idempotencyKeysMigration } from './0101-idempotency-keys.ts';

/** The member service's own tables (beyond DATA-MODEL.md section 5), run by `db:migrate`. */
export const memberServiceMigrations: readonly Migration[] = [idempotencyKeysMigration];
