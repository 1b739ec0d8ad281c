import { addMonths, eachMonth, type Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];
const COLUMNS = [...MEASURE_LIST, 'day_cnt'].join(', ');

/**
 * Ten-day roll-ups of the goods list, every site together (issue 15), as 0111 keeps for the
 * category list: per (agrtGb, ten days, goods, supplier recorded) the sums of the per-site daily
 * rows of days 1–10, 11–20 or 21 to the month's end and how many there are (`day_cnt`), keyed by
 * the span's first day (`agrt_tdy`). A 31-day goods list on the 10th of a month read 21 days of
 * the month before from per-site daily rows (its statement 2.1–2.3× the one on a month's last
 * day). The supplier's reads go through a covering index led by (agrtGb, ten days, supplier).
 *
 * Backfill: month by month (one statement each, not one over every day), every per-site daily row
 * grouped by its span. Written out here rather than derived from tables.ts, so this migration
 * keeps doing what it did.
 */
const TABLE = 'agg_goods_tenday_all';
const SPAN_START =
  "DATE_FORMAT(agrt_dt, CONCAT('%Y-%m-', CASE WHEN DAY(agrt_dt) <= 10 THEN '01' WHEN DAY(agrt_dt) <= 20 THEN '11' ELSE '21' END))";

export const tenDayGoodsMigration: Migration = {
  name: '0112-ten-day-goods',
  up: async (knex) => {
    // May run again after a stop halfway (DDL commits as it goes): the table is made afresh.
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
    await knex.raw(
      `CREATE TABLE ${TABLE} (agrt_gb_cd CHAR(2) NOT NULL, agrt_tdy DATE NOT NULL, goods_no VARCHAR(20) NOT NULL,
        entr_no VARCHAR(20) NOT NULL, ${MEASURE_LIST.map((c) => `${c} BIGINT NOT NULL`).join(', ')}, day_cnt INT NOT NULL,
        PRIMARY KEY (agrt_gb_cd, agrt_tdy, goods_no, entr_no),
        KEY idx_agg_goods_tdy_entr (agrt_gb_cd, agrt_tdy, entr_no, ${COLUMNS})) ${T}`,
    );
    const [[span]] = (await knex.raw(
      `SELECT DATE_FORMAT(MIN(agrt_mon), '%Y-%m') AS first, DATE_FORMAT(MAX(agrt_mon), '%Y-%m') AS last
         FROM agg_goods_monthly WHERE agrt_gb_cd IN ('01', '02')`,
    )) as [{ first: string | null; last: string | null }[]];
    if (!span?.first || !span.last) return;
    for (const month of eachMonth(span.first, span.last))
      await knex.raw(
        `INSERT INTO ${TABLE} (agrt_gb_cd, agrt_tdy, goods_no, entr_no, ${COLUMNS})
         SELECT agrt_gb_cd, ${SPAN_START}, goods_no, entr_no, ${MEASURE_LIST.map((c) => `SUM(${c})`).join(', ')}, COUNT(*)
         FROM agg_goods_daily WHERE agrt_gb_cd IN ('01', '02') AND agrt_dt >= ? AND agrt_dt < ?
         GROUP BY agrt_gb_cd, ${SPAN_START}, goods_no, entr_no`,
        [`${month}-01`, `${addMonths(month, 1)}-01`],
      );
  },
  down: async (knex) => {
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  },
};
