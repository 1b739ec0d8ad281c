import type { Migration } from '@bo/db';
import { aggregateTablesMigration } from './0101-aggregates.ts';

/** The worker's own tables in the bo database, run by the same `db:migrate` command. */
export const aggregateMigrations: readonly Migration[] = [aggregateTablesMigration];
