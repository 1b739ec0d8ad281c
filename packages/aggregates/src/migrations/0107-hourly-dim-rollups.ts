import { addDays, type Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = 'ord_amt, ord_qty, cncl_amt, cncl_qty, dc_amt_2nd, dc_amt_3rd';
const MEASURES = MEASURE_LIST.split(', ')
  .map((c) => `${c} BIGINT NOT NULL`)
  .join(', ');

/**
 * The hourly report with a category or MD condition (issue 15): per (dimension, value, day, hour,
 * site) the event sums (`agg_dim_hourly`, kind `period`) and the page views
 * (`agg_inflow_dim_hourly`, every inflow build), filed like the daily dimension rollups through
 * `agg_goods_dim`. Before them the report read each matching goods' events and page views goods by
 * goods (~60 ms of server time for a top category's two days at full scale).
 *
 * Primary keys lead with the day (a build's delete stays inside its day) and serve the reads too:
 * the report names its one or two days as equalities, so the server reads one key range per (day,
 * value), and the build writes a single index (a covering key led by the value cost the build as
 * much again). Only filed dimensions appear (no `all`: the site rollups serve the report without a
 * goods condition).
 *
 * Backfill, day by day: page views from `agg_inflow_hourly` (which the inflow rollups always
 * equal), event sums from the events of each day the worker recorded built for `period` (as they
 * are now; the nightly reconciliation compares the two and rebuilds a day that differs).
 * Written out here rather than derived from tables.ts, so this migration keeps doing what it did.
 */
const TABLES: Record<string, string> = {
  agg_dim_hourly: `agrt_gb_cd CHAR(2) NOT NULL, dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL,
    agrt_hour TINYINT NOT NULL, site_no VARCHAR(10) NOT NULL, ${MEASURES},
    PRIMARY KEY (agrt_dt, agrt_gb_cd, dim_cd, dim_val, agrt_hour, site_no)`,
  agg_inflow_dim_hourly: `dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL, agrt_hour TINYINT NOT NULL,
    site_no VARCHAR(10) NOT NULL, inf_cnt INT NOT NULL, PRIMARY KEY (agrt_dt, dim_cd, dim_val, agrt_hour, site_no)`,
};

const DIMS = `(SELECT 'ctg' AS dim_cd UNION ALL SELECT 'md')`;
const DIM_VALUE = `CASE x.dim_cd WHEN 'ctg' THEN s.std_ctg_no WHEN 'md' THEN s.md_id END`;
const SUMS = `SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.amt ELSE 0 END), SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.qty ELSE 0 END),
  SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.amt ELSE 0 END), SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.qty ELSE 0 END),
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_2nd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_2nd ELSE 0 END),
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_3rd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_3rd ELSE 0 END)`;

const BACKFILL_VIEWS_DAY = `INSERT INTO agg_inflow_dim_hourly (dim_cd, dim_val, agrt_dt, agrt_hour, site_no, inf_cnt)
  SELECT x.dim_cd, ${DIM_VALUE} AS dim_val, i.agrt_dt, i.agrt_hour, i.site_no, SUM(i.inf_cnt)
  FROM agg_inflow_hourly i JOIN agg_goods_dim s ON s.goods_no = i.goods_no JOIN ${DIMS} x ON ${DIM_VALUE} IS NOT NULL
  WHERE i.agrt_dt = ?
  GROUP BY x.dim_cd, dim_val, i.agrt_dt, i.agrt_hour, i.site_no`;

const BACKFILL_EVENTS_DAY = `INSERT INTO agg_dim_hourly (agrt_gb_cd, dim_cd, dim_val, agrt_dt, agrt_hour, site_no, ${MEASURE_LIST})
  SELECT e.agrt_gb_cd, x.dim_cd, ${DIM_VALUE} AS dim_val, ?, HOUR(e.evt_dtm), e.site_no, ${SUMS}
  FROM ord_stat_evt e JOIN agg_goods_dim s ON s.goods_no = e.goods_no JOIN ${DIMS} x ON ${DIM_VALUE} IS NOT NULL
  WHERE e.agrt_gb_cd IN ('01', '02') AND e.evt_dtm >= ? AND e.evt_dtm < ?
  GROUP BY e.agrt_gb_cd, x.dim_cd, dim_val, HOUR(e.evt_dtm), e.site_no`;

export const hourlyDimRollupsMigration: Migration = {
  name: '0107-hourly-dim-rollups',
  up: async (knex) => {
    for (const [name, columns] of Object.entries(TABLES)) await knex.raw(`CREATE TABLE \`${name}\` (${columns}) ${T}`);
    const [viewDays] = (await knex.raw("SELECT DISTINCT DATE_FORMAT(agrt_dt, '%Y-%m-%d') AS d FROM agg_inflow_hourly")) as [
      { d: string }[],
    ];
    for (const { d } of viewDays) await knex.raw(BACKFILL_VIEWS_DAY, [d]);
    const [eventDays] = (await knex.raw(
      "SELECT DATE_FORMAT(agrt_dt, '%Y-%m-%d') AS d FROM agg_built_day WHERE kind = 'period' AND agrt_hour = -1",
    )) as [{ d: string }[]];
    for (const { d } of eventDays) await knex.raw(BACKFILL_EVENTS_DAY, [d, `${d} 00:00:00`, `${addDays(d, 1)} 00:00:00`]);
  },
  down: async (knex) => {
    for (const name of Object.keys(TABLES).reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
  },
};
