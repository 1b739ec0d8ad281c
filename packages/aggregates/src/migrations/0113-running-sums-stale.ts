import type { Migration } from '@bo/db';

/**
 * Which running sums (`agg_ctg_cum_all`, `agg_goods_cum_all`) are behind their monthly rows, and
 * from which month on: a day build marks its month here instead of moving the running sums of its
 * month and every later one (a day of January rebuilt in November moved eleven months of them,
 * ~5 of the goods day's 8 s), and the worker brings them up to date once its queue is idle. The
 * lists read the monthly rows for the months marked, so an answer never depends on the refresh.
 */
const TABLE = 'agg_cum_stale';

export const runningSumsStaleMigration: Migration = {
  name: '0113-running-sums-stale',
  up: async (knex) => {
    await knex.raw(
      `CREATE TABLE IF NOT EXISTS ${TABLE} (kind VARCHAR(20) NOT NULL PRIMARY KEY, from_mon DATE NOT NULL)
       ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
    );
  },
  down: async (knex) => {
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  },
};
