import type { Knex, Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

const MEASURE_LIST = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];
const MEASURES = MEASURE_LIST.map((c) => `${c} BIGINT NOT NULL`).join(', ');
const COVERED = MEASURE_LIST.join(', ');
const SUMS = MEASURE_LIST.map((c) => `SUM(${c})`).join(', ');

/**
 * Every-site roll-ups of the category, payment-method and supplier lists (issue 15): the daily and monthly rows with
 * the site left out, one row per (agrtGb, day | month, key, attributes). A list without a site
 * condition — the usual one, and every list the bench measures — reads these instead of one row
 * per site (a third of the rows with three sites). The day build writes them from the day's
 * per-site rows in the same transaction, so both always hold the same sums. The goods list has
 * none: a goods mostly sells on one site a day, so they saved little and cost 44 % of its build.
 *
 * Written out here rather than derived from tables.ts, so this migration keeps doing what it did.
 */
const ROLLUPS = [
  {
    from: ['agg_ctg_daily', 'agg_ctg_monthly'],
    to: ['agg_ctg_daily_all', 'agg_ctg_monthly_all'],
    keys: ['std_ctg_no', 'md_id'],
    columns: `std_ctg_no VARCHAR(20) NOT NULL, md_id VARCHAR(50) NOT NULL DEFAULT ''`,
    indexes: (dt: string) => [`KEY idx_${dt}_md (md_id, agrt_gb_cd, ${dt}, ${COVERED})`],
  },
  {
    from: ['agg_payway_daily', 'agg_payway_monthly'],
    to: ['agg_payway_daily_all', 'agg_payway_monthly_all'],
    keys: ['pay_way_cd'],
    columns: 'pay_way_cd VARCHAR(10) NOT NULL',
    indexes: () => [],
  },
  {
    from: ['agg_entr_daily', 'agg_entr_monthly'],
    to: ['agg_entr_daily_all', 'agg_entr_monthly_all'],
    keys: ['entr_no'],
    columns: 'entr_no VARCHAR(20) NOT NULL',
    indexes: () => [],
  },
];

type Rollup = (typeof ROLLUPS)[number];

const tableSql = (r: Rollup, table: string, dt: 'agrt_dt' | 'agrt_mon') =>
  `CREATE TABLE \`${table}\` (agrt_gb_cd CHAR(2) NOT NULL, ${dt} DATE NOT NULL, ${r.columns}, ${MEASURES}${dt === 'agrt_mon' ? ', day_cnt INT NOT NULL' : ''},
    ${['PRIMARY KEY (agrt_gb_cd, ' + dt + ', ' + r.keys.join(', ') + ')', ...r.indexes(dt)].join(', ')}) ${T}`;

/** The days the per-site tables hold, month by month (a year of goods rows in one grouping is millions). */
async function backfill(knex: Knex, r: Rollup): Promise<void> {
  const [daily, monthly] = r.to;
  const keys = r.keys.join(', ');
  const [months] = (await knex.raw(
    `SELECT DISTINCT DATE_FORMAT(agrt_dt, '%Y-%m-01') AS m FROM \`${r.from[0]}\` WHERE agrt_gb_cd IN ('01', '02') ORDER BY m`,
  )) as [{ m: string }[]];
  for (const { m } of months) {
    await knex.raw(
      `INSERT INTO \`${daily}\` (agrt_gb_cd, agrt_dt, ${keys}, ${COVERED})
       SELECT agrt_gb_cd, agrt_dt, ${keys}, ${SUMS} FROM \`${r.from[0]}\`
       WHERE agrt_gb_cd IN ('01', '02') AND agrt_dt >= ? AND agrt_dt < ? + INTERVAL 1 MONTH
       GROUP BY agrt_gb_cd, agrt_dt, ${keys}`,
      [m, m],
    );
    await knex.raw(
      `INSERT INTO \`${monthly}\` (agrt_gb_cd, agrt_mon, ${keys}, ${COVERED}, day_cnt)
       SELECT agrt_gb_cd, ?, ${keys}, ${SUMS}, COUNT(*) FROM \`${daily}\`
       WHERE agrt_gb_cd IN ('01', '02') AND agrt_dt >= ? AND agrt_dt < ? + INTERVAL 1 MONTH
       GROUP BY agrt_gb_cd, ${keys}`,
      [m, m, m],
    );
  }
}

export const allSiteRollupsMigration: Migration = {
  name: '0105-all-site-rollups',
  up: async (knex) => {
    // May run again after a stop halfway (DDL commits as it goes): each table is made afresh.
    for (const r of ROLLUPS) {
      for (const t of r.to) await knex.raw(`DROP TABLE IF EXISTS \`${t}\``);
      await knex.raw(tableSql(r, r.to[0]!, 'agrt_dt'));
      await knex.raw(tableSql(r, r.to[1]!, 'agrt_mon'));
      await backfill(knex, r);
    }
  },
  down: async (knex) => {
    for (const r of [...ROLLUPS].reverse()) for (const t of [...r.to].reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${t}\``);
  },
};
