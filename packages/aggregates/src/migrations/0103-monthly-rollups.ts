import type { Knex, Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];
const MEASURES = `${MEASURE_LIST.map((c) => `${c} BIGINT NOT NULL`).join(', ')}`;
const COVERED = MEASURE_LIST.join(', ');

/**
 * Monthly roll-ups of the four list aggregates (issue 9). A 12-month category, payment-method,
 * goods or supplier list summed up to 365 daily rows per key; it now reads the whole months of
 * its range from these tables and only the days of the partial months from the daily tables.
 *
 * A row is the sum of the daily rows of its month with the same (agrtGb, site, key);
 * `day_cnt` counts them, so a row whose days have all been rebuilt away can be told from a row
 * whose sums happen to be zero (the first is deleted, the second is listed, as the daily rows
 * would be). The goods roll-up keeps `entr_no` in its key: the daily rows record the supplier
 * of their day, and a goods that changed supplier mid-month keeps one row per supplier.
 *
 * Secondary keys lead with the list filters and carry the measures, so a filtered read never
 * leaves the index (InnoDB appends the primary key columns to every secondary key).
 */
const ROLLUPS = [
  {
    monthly: 'agg_ctg_monthly',
    daily: 'agg_ctg_daily',
    keys: ['std_ctg_no', 'md_id'],
    columns: `std_ctg_no VARCHAR(20) NOT NULL, md_id VARCHAR(50) NOT NULL DEFAULT ''`,
    indexes: `KEY idx_agg_ctg_mon_md (md_id, agrt_gb_cd, agrt_mon, ${COVERED})`,
  },
  {
    monthly: 'agg_payway_monthly',
    daily: 'agg_payway_daily',
    keys: ['pay_way_cd'],
    columns: 'pay_way_cd VARCHAR(10) NOT NULL',
    indexes: '',
  },
  {
    monthly: 'agg_goods_monthly',
    daily: 'agg_goods_daily',
    keys: ['goods_no', 'entr_no'],
    columns: 'goods_no VARCHAR(20) NOT NULL, entr_no VARCHAR(20) NOT NULL',
    indexes: `KEY idx_agg_goods_mon_entr (entr_no, agrt_gb_cd, agrt_mon, ${COVERED}), KEY idx_agg_goods_mon_goods (goods_no, agrt_gb_cd, agrt_mon)`,
  },
  { monthly: 'agg_entr_monthly', daily: 'agg_entr_daily', keys: ['entr_no'], columns: 'entr_no VARCHAR(20) NOT NULL', indexes: '' },
];

const tableSql = (r: (typeof ROLLUPS)[number]) =>
  `CREATE TABLE \`${r.monthly}\` (agrt_gb_cd CHAR(2) NOT NULL, agrt_mon DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    ${r.columns}, ${MEASURES}, day_cnt INT NOT NULL,
    PRIMARY KEY (agrt_gb_cd, agrt_mon, site_no, ${r.keys.join(', ')})${r.indexes ? `, ${r.indexes}` : ''}) ${T}`;

/**
 * Every month the daily tables already hold, so the lists read the same numbers right after the
 * upgrade: one statement per month keeps each grouping small (a full year of goods rows is
 * millions). Written out here rather than imported, so this migration keeps doing what it did.
 */
async function backfill(knex: Knex, r: (typeof ROLLUPS)[number]): Promise<void> {
  const [months] = (await knex.raw(
    `SELECT DISTINCT DATE_FORMAT(agrt_dt, '%Y-%m-01') AS m FROM \`${r.daily}\` WHERE agrt_gb_cd IN ('01', '02') ORDER BY m`,
  )) as [{ m: string }[]];
  for (const { m } of months) {
    await knex.raw(
      `INSERT INTO \`${r.monthly}\` (agrt_gb_cd, agrt_mon, site_no, ${r.keys.join(', ')}, ${COVERED}, day_cnt)
       SELECT agrt_gb_cd, ?, site_no, ${r.keys.join(', ')}, ${MEASURE_LIST.map((c) => `SUM(${c})`).join(', ')}, COUNT(*)
       FROM \`${r.daily}\` WHERE agrt_gb_cd IN ('01', '02') AND agrt_dt >= ? AND agrt_dt < ? + INTERVAL 1 MONTH
       GROUP BY agrt_gb_cd, site_no, ${r.keys.join(', ')}`,
      [m, m, m],
    );
  }
}

/** The daily goods rows of one supplier: the same index, now carrying the measures. */
const GOODS_ENTR_INDEX = {
  before: 'KEY idx_agg_goods_entr (entr_no, agrt_gb_cd, agrt_dt)',
  after: `KEY idx_agg_goods_entr (entr_no, agrt_gb_cd, agrt_dt, ${COVERED})`,
};

/** One row per (kind, month) that day builds lock first, so two days of a month update its roll-up in turn. */
const MONTH_LOCK = `CREATE TABLE IF NOT EXISTS agg_month_lock (kind VARCHAR(20) NOT NULL, agrt_mon DATE NOT NULL, PRIMARY KEY (kind, agrt_mon)) ${T}`;

export const monthlyRollupsMigration: Migration = {
  name: '0103-monthly-rollups',
  up: async (knex) => {
    // Each step may run again: an upgrade stopped halfway (DDL commits as it goes) is finished by the next run.
    await knex.raw(MONTH_LOCK);
    await knex.raw(`ALTER TABLE agg_goods_daily DROP INDEX idx_agg_goods_entr, ADD ${GOODS_ENTR_INDEX.after}`);
    for (const r of ROLLUPS) {
      await knex.raw(`DROP TABLE IF EXISTS \`${r.monthly}\``);
      await knex.raw(tableSql(r));
      await backfill(knex, r);
    }
  },
  down: async (knex) => {
    for (const r of [...ROLLUPS].reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${r.monthly}\``);
    await knex.raw('DROP TABLE IF EXISTS agg_month_lock');
    await knex.raw(`ALTER TABLE agg_goods_daily DROP INDEX idx_agg_goods_entr, ADD ${GOODS_ENTR_INDEX.before}`);
  },
};
