import type { Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = 'ord_amt, ord_qty, cncl_amt, cncl_qty, dc_amt_2nd, dc_amt_3rd';
const MEASURES = MEASURE_LIST.split(', ')
  .map((c) => `${c} BIGINT NOT NULL`)
  .join(', ');
const SUMS_OF = (columns: string) => ({
  columns,
  sums: columns
    .split(', ')
    .map((c) => `SUM(${c})`)
    .join(', '),
});

/**
 * The dimension rollups of events and page views summed over every site (issue 15): what the
 * period and hourly reports without a site condition read. With three sites a category's 31 days
 * were ~9,400 event rows (one per value, day and site) grouped into 31; these hold one per value
 * and day. Same keys as the per-site tables (0102, 0107) without the site.
 *
 * Backfill: grouped from the per-site rows (which the builds keep equal to their sources); a
 * month's `day_cnt` counts the every-site daily rows summed. Written out here rather than derived
 * from tables.ts, so this migration keeps doing what it did.
 */
const TABLES: Record<string, string> = {
  agg_dim_daily_all: `agrt_gb_cd CHAR(2) NOT NULL, dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL,
    ${MEASURES}, PRIMARY KEY (agrt_dt, agrt_gb_cd, dim_cd, dim_val),
    KEY idx_agg_dim_daily_all_read (agrt_gb_cd, dim_cd, dim_val, agrt_dt, ${MEASURE_LIST})`,
  agg_dim_monthly_all: `agrt_gb_cd CHAR(2) NOT NULL, dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_mon DATE NOT NULL,
    ${MEASURES}, day_cnt INT NOT NULL, PRIMARY KEY (agrt_mon, agrt_gb_cd, dim_cd, dim_val),
    KEY idx_agg_dim_monthly_all_read (agrt_gb_cd, dim_cd, dim_val, agrt_mon, ${MEASURE_LIST})`,
  agg_dim_hourly_all: `agrt_gb_cd CHAR(2) NOT NULL, dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL,
    agrt_hour TINYINT NOT NULL, ${MEASURES}, PRIMARY KEY (agrt_dt, agrt_gb_cd, dim_cd, dim_val, agrt_hour)`,
  agg_inflow_dim_daily_all: `dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL, inf_cnt INT NOT NULL,
    PRIMARY KEY (agrt_dt, dim_cd, dim_val), KEY idx_agg_inflow_dim_daily_all_read (dim_cd, dim_val, agrt_dt, inf_cnt)`,
  agg_inflow_dim_monthly_all: `dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_mon DATE NOT NULL, inf_cnt INT NOT NULL,
    day_cnt INT NOT NULL, PRIMARY KEY (agrt_mon, dim_cd, dim_val), KEY idx_agg_inflow_dim_monthly_all_read (dim_cd, dim_val, agrt_mon, inf_cnt)`,
  agg_inflow_dim_hourly_all: `dim_cd VARCHAR(5) NOT NULL, dim_val VARCHAR(50) NOT NULL, agrt_dt DATE NOT NULL, agrt_hour TINYINT NOT NULL,
    inf_cnt INT NOT NULL, PRIMARY KEY (agrt_dt, dim_cd, dim_val, agrt_hour)`,
};

/** Each every-site table from its per-site one: the key but the site, and the sums. */
const COPIES = [
  ['agg_dim_daily', 'agg_dim_daily_all', 'agrt_dt, agrt_gb_cd, dim_cd, dim_val', SUMS_OF(MEASURE_LIST)],
  ['agg_dim_hourly', 'agg_dim_hourly_all', 'agrt_dt, agrt_gb_cd, dim_cd, dim_val, agrt_hour', SUMS_OF(MEASURE_LIST)],
  ['agg_inflow_dim_daily', 'agg_inflow_dim_daily_all', 'agrt_dt, dim_cd, dim_val', SUMS_OF('inf_cnt')],
  ['agg_inflow_dim_hourly', 'agg_inflow_dim_hourly_all', 'agrt_dt, dim_cd, dim_val, agrt_hour', SUMS_OF('inf_cnt')],
] as const;

export const dimRollupsAllSitesMigration: Migration = {
  name: '0110-dim-rollups-all-sites',
  up: async (knex) => {
    // May run again after a stop halfway (DDL commits as it goes): the tables are made afresh.
    for (const name of Object.keys(TABLES)) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
    for (const [name, columns] of Object.entries(TABLES)) await knex.raw(`CREATE TABLE \`${name}\` (${columns}) ${T}`);
    // Day by day: each statement reads one day's per-site rows in key order (no temporary table).
    for (const [from, to, keys, { columns, sums }] of COPIES) {
      const [days] = (await knex.raw(`SELECT DISTINCT DATE_FORMAT(agrt_dt, '%Y-%m-%d') AS d FROM ${from} ORDER BY d`)) as [{ d: string }[]];
      const insert = `INSERT INTO ${to} (${keys}, ${columns}) SELECT ${keys}, ${sums} FROM ${from} WHERE agrt_dt = ? GROUP BY ${keys}`;
      for (const { d } of days) await knex.raw(insert, [d]);
    }
    for (const [daily, monthly, keys, { columns, sums }] of [
      ['agg_dim_daily_all', 'agg_dim_monthly_all', 'agrt_gb_cd, dim_cd, dim_val', SUMS_OF(MEASURE_LIST)],
      ['agg_inflow_dim_daily_all', 'agg_inflow_dim_monthly_all', 'dim_cd, dim_val', SUMS_OF('inf_cnt')],
    ] as const) {
      await knex.raw(
        `INSERT INTO ${monthly} (${keys}, agrt_mon, ${columns}, day_cnt)
         SELECT ${keys}, DATE_FORMAT(agrt_dt, '%Y-%m-01'), ${sums}, COUNT(*) FROM ${daily}
         GROUP BY ${keys}, DATE_FORMAT(agrt_dt, '%Y-%m-01')`,
      );
    }
  },
  down: async (knex) => {
    for (const name of Object.keys(TABLES).reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
  },
};
