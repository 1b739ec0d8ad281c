import { addMonths, eachMonth, type Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];
const SUMS = [...MEASURE_LIST, 'day_cnt'].map((c) => `SUM(${c})`).join(', ');
const COLUMNS = [...MEASURE_LIST, 'day_cnt'].join(', ');

/**
 * Running sums of the goods list's monthly rows, every site together (issue 15), as 0108 keeps
 * for the category list: per (agrtGb, month, goods, supplier recorded) the sums and daily-row count
 * of every month up to and including it. A 12-month goods list grouped ~230,000 monthly rows
 * (20,000 goods, three sites) into ~20,000; one supplier's read ~16,000 into ~1,400. Through these
 * it reads two rows per (goods, supplier). The supplier's reads go through a covering index led by
 * (agrtGb, month, supplier).
 *
 * Backfill: month after month, the previous month's running sums plus the month's rows of every
 * site. Written out here rather than derived from tables.ts, so this migration keeps doing what it did.
 */
const TABLE = 'agg_goods_cum_all';

export const cumulativeGoodsMigration: Migration = {
  name: '0109-cumulative-goods',
  up: async (knex) => {
    // May run again after a stop halfway (DDL commits as it goes): the table is made afresh.
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
    await knex.raw(
      `CREATE TABLE ${TABLE} (agrt_gb_cd CHAR(2) NOT NULL, agrt_mon DATE NOT NULL, goods_no VARCHAR(20) NOT NULL,
        entr_no VARCHAR(20) NOT NULL, ${MEASURE_LIST.map((c) => `${c} BIGINT NOT NULL`).join(', ')}, day_cnt INT NOT NULL,
        PRIMARY KEY (agrt_gb_cd, agrt_mon, goods_no, entr_no),
        KEY idx_agg_goods_cum_entr (agrt_gb_cd, agrt_mon, entr_no, ${COLUMNS})) ${T}`,
    );
    const [[span]] = (await knex.raw(
      `SELECT DATE_FORMAT(MIN(agrt_mon), '%Y-%m') AS first, DATE_FORMAT(MAX(agrt_mon), '%Y-%m') AS last
         FROM agg_goods_monthly WHERE agrt_gb_cd IN ('01', '02')`,
    )) as [{ first: string | null; last: string | null }[]];
    if (!span?.first || !span.last) return;
    for (const month of eachMonth(span.first, span.last)) {
      await knex.raw(
        `INSERT INTO ${TABLE} (agrt_gb_cd, agrt_mon, goods_no, entr_no, ${COLUMNS})
         SELECT agrt_gb_cd, ?, goods_no, entr_no, ${SUMS} FROM (
           SELECT agrt_gb_cd, goods_no, entr_no, ${COLUMNS} FROM ${TABLE} WHERE agrt_gb_cd IN ('01', '02') AND agrt_mon = ?
           UNION ALL
           SELECT agrt_gb_cd, goods_no, entr_no, ${COLUMNS} FROM agg_goods_monthly WHERE agrt_gb_cd IN ('01', '02') AND agrt_mon = ?
         ) u GROUP BY agrt_gb_cd, goods_no, entr_no`,
        [`${month}-01`, `${addMonths(month, -1)}-01`, `${month}-01`],
      );
    }
  },
  down: async (knex) => {
    await knex.raw(`DROP TABLE IF EXISTS ${TABLE}`);
  },
};
