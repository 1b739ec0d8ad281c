import type { Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];

/**
 * Ten-day roll-ups of the category list's every-site rows (issue 15): per (agrtGb, ten days,
 * category, MD) the sums and count of the daily rows of days 1–10, 11–20 or 21 to the month's end,
 * keyed by the span's first day (`agrt_tdy`). A 31-day list reads the part of the month before
 * the current one from daily rows: 21 days of ~660 rows on the 10th of a month. Through these it
 * reads at most nine days and two ten-day rows per key.
 *
 * Backfill: every day of `agg_ctg_daily_all`, grouped by its span. Written out here rather than
 * derived from tables.ts, so this migration keeps doing what it did.
 */
const TABLE = 'agg_ctg_tenday_all';
const SPAN_START =
  "DATE_FORMAT(agrt_dt, CONCAT('%Y-%m-', CASE WHEN DAY(agrt_dt) <= 10 THEN '01' WHEN DAY(agrt_dt) <= 20 THEN '11' ELSE '21' END))";

export const tenDayCategoryMigration: Migration = {
  name: '0111-ten-day-category',
  up: async (knex) => {
    // May run again after a stop halfway (DDL commits as it goes): the table is made afresh.
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
    await knex.raw(
      `CREATE TABLE ${TABLE} (agrt_gb_cd CHAR(2) NOT NULL, agrt_tdy DATE NOT NULL, std_ctg_no VARCHAR(20) NOT NULL,
        md_id VARCHAR(50) NOT NULL DEFAULT '', ${MEASURE_LIST.map((c) => `${c} BIGINT NOT NULL`).join(', ')}, day_cnt INT NOT NULL,
        PRIMARY KEY (agrt_gb_cd, agrt_tdy, std_ctg_no, md_id)) ${T}`,
    );
    await knex.raw(
      `INSERT INTO ${TABLE} (agrt_gb_cd, agrt_tdy, std_ctg_no, md_id, ${MEASURE_LIST.join(', ')}, day_cnt)
       SELECT agrt_gb_cd, ${SPAN_START}, std_ctg_no, md_id, ${MEASURE_LIST.map((c) => `SUM(${c})`).join(', ')}, COUNT(*)
       FROM agg_ctg_daily_all WHERE agrt_gb_cd IN ('01', '02')
       GROUP BY agrt_gb_cd, ${SPAN_START}, std_ctg_no, md_id`,
    );
  },
  down: async (knex) => {
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  },
};
