import type { Migration } from '@bo/db';
import { aggregateTablesMigration } from './0101-aggregates.ts';
import { periodRollupsMigration } from './0102-period-rollups.ts';
import { monthlyRollupsMigration } from './0103-monthly-rollups.ts';

/** The worker's own tables in the bo database, run by the same `db:migrate` command. */
export const aggregateMigrations: readonly Migration[] = [aggregateTablesMigration, periodRollupsMigration, monthlyRollupsMigration];
