import { addMonths, eachMonth, type Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];
const SUMS = [...MEASURE_LIST, 'day_cnt'].map((c) => `SUM(${c})`).join(', ');
const COLUMNS = [...MEASURE_LIST, 'day_cnt'].join(', ');

/**
 * Running sums of the category list's every-site monthly rows (issue 15): per (agrtGb, month,
 * category, MD) the sums and day count of every month up to and including it, for each month from
 * the first with rows to the last. A 12-month category list grouped ~9,000 monthly rows into ~800
 * keys through a temporary table; through these it reads two rows per key (the last month's
 * running sums minus those of the month before the first).
 *
 * Backfill: month after month, the previous month's running sums plus the month's rows.
 * Written out here rather than derived from tables.ts, so this migration keeps doing what it did.
 */
const TABLE = 'agg_ctg_cum_all';

export const cumulativeCategoryMigration: Migration = {
  name: '0108-cumulative-category',
  up: async (knex) => {
    // May run again after a stop halfway (DDL commits as it goes): the table is made afresh.
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
    await knex.raw(
      `CREATE TABLE ${TABLE} (agrt_gb_cd CHAR(2) NOT NULL, agrt_mon DATE NOT NULL, std_ctg_no VARCHAR(20) NOT NULL,
        md_id VARCHAR(50) NOT NULL DEFAULT '', ${MEASURE_LIST.map((c) => `${c} BIGINT NOT NULL`).join(', ')}, day_cnt INT NOT NULL,
        PRIMARY KEY (agrt_gb_cd, agrt_mon, std_ctg_no, md_id)) ${T}`,
    );
    const [[span]] = (await knex.raw(
      `SELECT DATE_FORMAT(MIN(agrt_mon), '%Y-%m') AS first, DATE_FORMAT(MAX(agrt_mon), '%Y-%m') AS last
         FROM agg_ctg_monthly_all WHERE agrt_gb_cd IN ('01', '02')`,
    )) as [{ first: string | null; last: string | null }[]];
    if (!span?.first || !span.last) return;
    for (const month of eachMonth(span.first, span.last)) {
      await knex.raw(
        `INSERT INTO ${TABLE} (agrt_gb_cd, agrt_mon, std_ctg_no, md_id, ${COLUMNS})
         SELECT agrt_gb_cd, ?, std_ctg_no, md_id, ${SUMS} FROM (
           SELECT agrt_gb_cd, std_ctg_no, md_id, ${COLUMNS} FROM ${TABLE} WHERE agrt_gb_cd IN ('01', '02') AND agrt_mon = ?
           UNION ALL
           SELECT agrt_gb_cd, std_ctg_no, md_id, ${COLUMNS} FROM agg_ctg_monthly_all WHERE agrt_gb_cd IN ('01', '02') AND agrt_mon = ?
         ) u GROUP BY agrt_gb_cd, std_ctg_no, md_id`,
        [`${month}-01`, `${addMonths(month, -1)}-01`, `${month}-01`],
      );
    }
  },
  down: async (knex) => {
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  },
};
