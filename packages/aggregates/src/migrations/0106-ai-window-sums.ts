import type { Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

/**
 * The AI recommended list's demand per goods over its window (the last `days` whole days before
 * `to_dt`), written by the worker after it builds an inflow or goods day of the window, and the
 * build version of the days it summed. The back-office reads the sums only while that version is
 * still the current one; otherwise it sums the aggregates itself.
 */
export const aiWindowSumsMigration: Migration = {
  name: '0106-ai-window-sums',
  up: async (knex) => {
    await knex.raw('DROP TABLE IF EXISTS agg_ai_window_sum');
    await knex.raw('DROP TABLE IF EXISTS agg_ai_window_ver');
    await knex.raw(`CREATE TABLE agg_ai_window_sum (to_dt DATE NOT NULL, days SMALLINT NOT NULL, goods_no VARCHAR(20) NOT NULL,
      inf_cnt BIGINT NOT NULL, net_qty BIGINT NOT NULL, PRIMARY KEY (to_dt, days, goods_no)) ${T}`);
    await knex.raw(`CREATE TABLE agg_ai_window_ver (to_dt DATE NOT NULL, days SMALLINT NOT NULL, build_ver VARCHAR(200) NOT NULL,
      built_dtm DATETIME(3) NOT NULL, PRIMARY KEY (to_dt, days)) ${T}`);
  },
  down: async (knex) => {
    await knex.raw('DROP TABLE IF EXISTS agg_ai_window_ver');
    await knex.raw('DROP TABLE IF EXISTS agg_ai_window_sum');
  },
};
