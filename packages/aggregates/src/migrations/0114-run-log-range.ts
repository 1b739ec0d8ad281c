import type { Migration } from '@bo/db';

/**
 * A build may replace a range of days of one month in one job (the reruns' bulk mode): the run
 * log names its last day in `to_dt` (NULL for a one-day or one-hour build, as before).
 */
const TABLE = 'agg_run_log';

export const runLogRangeMigration: Migration = {
  name: '0114-run-log-range',
  up: async (knex) => {
    if (!(await knex.schema.hasColumn(TABLE, 'to_dt'))) await knex.raw(`ALTER TABLE ${TABLE} ADD COLUMN to_dt DATE NULL AFTER agrt_dt`);
  },
  down: async (knex) => {
    if (await knex.schema.hasColumn(TABLE, 'to_dt')) await knex.raw(`ALTER TABLE ${TABLE} DROP COLUMN to_dt`);
  },
};
