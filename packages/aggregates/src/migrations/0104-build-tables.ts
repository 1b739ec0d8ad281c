import type { Migration } from '@bo/db';

/**
 * Names that say what the worker's book-keeping tables hold (issue 19: "status" meant four
 * things): `agg_day_status` → `agg_built_day`; the two lock tables become one,
 * `agg_build_lock` (the list-month locks now take kind `<kind>-month` in it).
 */
export const buildTablesMigration: Migration = {
  name: '0104-build-tables',
  up: async (knex) => {
    await knex.raw('RENAME TABLE agg_day_status TO agg_built_day, agg_day_lock TO agg_build_lock');
    await knex.raw('DROP TABLE agg_month_lock');
  },
  down: async (knex) => {
    await knex.raw('RENAME TABLE agg_built_day TO agg_day_status, agg_build_lock TO agg_day_lock');
    await knex.raw(
      'CREATE TABLE agg_month_lock (kind VARCHAR(20) NOT NULL, agrt_mon DATE NOT NULL, PRIMARY KEY (kind, agrt_mon)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci',
    );
  },
};
