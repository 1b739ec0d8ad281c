import type { Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = 'ord_amt, ord_qty, cncl_amt, cncl_qty, dc_amt_2nd, dc_amt_3rd';
const MEASURES = MEASURE_LIST.split(', ')
  .map((c) => `${c} BIGINT NOT NULL`)
  .join(', ');

/**
 * The rollups the period and hourly status reports read instead of summing raw events and the
 * goods-level inflow aggregate (issue 9: a 31-day report summed millions of rows).
 *
 * - `agg_site_hourly`, `agg_dim_daily`, `agg_dim_monthly`: kind `period`, built per day from
 *   `ord_stat_evt`; a monthly row sums the daily rows of its month (`day_cnt` of them) and is kept
 *   so by the day build, in the same transaction.
 * - `agg_inflow_site_hourly`, `agg_inflow_dim_daily`, `agg_inflow_dim_monthly`: written by every
 *   inflow build in the same transaction as `agg_inflow_hourly`, so they always equal its sums.
 *
 * A dimension (`dim_cd`) is one goods attribute a report filters by: `ctg` std_ctg_no, `entr`
 * entr_no, `brand` brand_no, `md` md_id; `all` (dim_val '') is every goods. Goods are filed under
 * the attributes `agg_goods_dim` holds for them; the reader corrects for goods whose attributes
 * have changed since (filters go through the goods' current attributes).
 */
const TABLES: Record<string, string> = {
  agg_site_hourly: `agrt_gb_cd CHAR(2) NOT NULL, agrt_dt DATE NOT NULL, agrt_hour TINYINT NOT NULL, site_no VARCHAR(10) NOT NULL,
    ${MEASURES}, PRIMARY KEY (agrt_gb_cd, agrt_dt, agrt_hour, site_no)`,
  // Primary keys lead with the date, so a build's deletes stay inside its own day or month (a
  // scan into other days' rows would wait on their builds and deadlock with them); the reports
  // read through covering keys led by the dimension value, one contiguous range per value.
  agg_dim_daily: `agrt_gb_cd CHAR(2) NOT NULL, dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL,
    site_no VARCHAR(10) NOT NULL, ${MEASURES}, PRIMARY KEY (agrt_dt, agrt_gb_cd, dim_cd, dim_val, site_no),
    KEY idx_agg_dim_daily_read (agrt_gb_cd, dim_cd, dim_val, agrt_dt, site_no, ${MEASURE_LIST})`,
  agg_dim_monthly: `agrt_gb_cd CHAR(2) NOT NULL, dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_mon DATE NOT NULL,
    site_no VARCHAR(10) NOT NULL, ${MEASURES}, day_cnt INT NOT NULL, PRIMARY KEY (agrt_mon, agrt_gb_cd, dim_cd, dim_val, site_no),
    KEY idx_agg_dim_monthly_read (agrt_gb_cd, dim_cd, dim_val, agrt_mon, site_no, ${MEASURE_LIST})`,
  agg_inflow_site_hourly: `agrt_dt DATE NOT NULL, agrt_hour TINYINT NOT NULL, site_no VARCHAR(10) NOT NULL, inf_cnt INT NOT NULL,
    PRIMARY KEY (agrt_dt, agrt_hour, site_no)`,
  agg_inflow_dim_daily: `dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    inf_cnt INT NOT NULL, PRIMARY KEY (agrt_dt, dim_cd, dim_val, site_no), KEY idx_agg_inflow_dim_daily_read (dim_cd, dim_val, agrt_dt, site_no, inf_cnt)`,
  agg_inflow_dim_monthly: `dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_mon DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    inf_cnt INT NOT NULL, day_cnt INT NOT NULL, PRIMARY KEY (agrt_mon, dim_cd, dim_val, site_no),
    KEY idx_agg_inflow_dim_monthly_read (dim_cd, dim_val, agrt_mon, site_no, inf_cnt)`,
  /** The attributes each goods is filed under, as first seen; never updated (see above). */
  agg_goods_dim: `goods_no VARCHAR(20) NOT NULL PRIMARY KEY, std_ctg_no VARCHAR(20) NOT NULL, entr_no VARCHAR(20) NOT NULL,
    brand_no VARCHAR(20) NULL, md_id VARCHAR(50) NULL, KEY idx_agg_goods_dim_ctg (std_ctg_no), KEY idx_agg_goods_dim_entr (entr_no),
    KEY idx_agg_goods_dim_brand (brand_no), KEY idx_agg_goods_dim_md (md_id)`,
  /** One row per (kind, day or month) that builds lock before rewriting a rollup other builds also write. */
  agg_day_lock: `kind VARCHAR(20) NOT NULL, agrt_dt DATE NOT NULL, PRIMARY KEY (kind, agrt_dt)`,
};

/**
 * The inflow rollups start from what `agg_inflow_hourly` already holds, so reports read the same
 * page-view counts right after the upgrade; the `period` rollups start empty (the reports read
 * raw events for days the kind has not built) and are built by the schedule or a rerun.
 * Written out here rather than imported, so this migration keeps doing what it did.
 */
const BACKFILL = [
  `INSERT INTO agg_goods_dim (goods_no, std_ctg_no, entr_no, brand_no, md_id)
   SELECT goods_no, std_ctg_no, entr_no, brand_no, md_id FROM goods`,
  `INSERT INTO agg_inflow_site_hourly (agrt_dt, agrt_hour, site_no, inf_cnt)
   SELECT agrt_dt, agrt_hour, site_no, SUM(inf_cnt) FROM agg_inflow_hourly GROUP BY agrt_dt, agrt_hour, site_no`,
];

const DIM_VALUE = `CASE x.dim_cd WHEN 'all' THEN '' WHEN 'ctg' THEN s.std_ctg_no WHEN 'entr' THEN s.entr_no
  WHEN 'brand' THEN s.brand_no WHEN 'md' THEN s.md_id END`;

/** One day at a time: each statement groups one day's rows in memory (all at once spills to disk for hours). */
const BACKFILL_INFLOW_DIM_DAY = `INSERT INTO agg_inflow_dim_daily (dim_cd, dim_val, agrt_dt, site_no, inf_cnt)
  SELECT x.dim_cd, ${DIM_VALUE} AS dim_val, i.agrt_dt, i.site_no, SUM(i.inf_cnt)
  FROM agg_inflow_hourly i LEFT JOIN agg_goods_dim s ON s.goods_no = i.goods_no
  JOIN (SELECT 'all' AS dim_cd UNION ALL SELECT 'ctg' UNION ALL SELECT 'entr' UNION ALL SELECT 'brand' UNION ALL SELECT 'md') x
    ON ${DIM_VALUE} IS NOT NULL
  WHERE i.agrt_dt = ?
  GROUP BY x.dim_cd, dim_val, i.agrt_dt, i.site_no`;

const BACKFILL_INFLOW_DIM_MONTHS = `INSERT INTO agg_inflow_dim_monthly (dim_cd, dim_val, agrt_mon, site_no, inf_cnt, day_cnt)
  SELECT dim_cd, dim_val, DATE_FORMAT(agrt_dt, '%Y-%m-01'), site_no, SUM(inf_cnt), COUNT(*) FROM agg_inflow_dim_daily
  GROUP BY dim_cd, dim_val, DATE_FORMAT(agrt_dt, '%Y-%m-01'), site_no`;

export const periodRollupsMigration: Migration = {
  name: '0102-period-rollups',
  up: async (knex) => {
    for (const [name, columns] of Object.entries(TABLES)) await knex.raw(`CREATE TABLE \`${name}\` (${columns}) ${T}`);
    for (const sql of BACKFILL) await knex.raw(sql);
    const [days] = (await knex.raw("SELECT DISTINCT DATE_FORMAT(agrt_dt, '%Y-%m-%d') AS d FROM agg_inflow_hourly")) as [{ d: string }[]];
    for (const { d } of days) await knex.raw(BACKFILL_INFLOW_DIM_DAY, [d]);
    await knex.raw(BACKFILL_INFLOW_DIM_MONTHS);
  },
  down: async (knex) => {
    for (const name of Object.keys(TABLES).reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
  },
};
