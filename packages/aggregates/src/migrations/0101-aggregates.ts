import type { Migration } from '@bo/db';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

/**
 * The measures every daily aggregate row carries. Discounts are stored net
 * (occurrences − cancellations), as docs/data-model.md §3 defines them.
 */
const MEASURES = `ord_amt BIGINT NOT NULL, ord_qty BIGINT NOT NULL, cncl_amt BIGINT NOT NULL, cncl_qty BIGINT NOT NULL,
  dc_amt_2nd BIGINT NOT NULL, dc_amt_3rd BIGINT NOT NULL`;

/**
 * Primary keys lead with (agrt_gb_cd, agrt_dt): every statistics read is one agrtGb over a
 * day range, and the worker replaces one day at a time.
 */
const TABLES: Record<string, string> = {
  agg_ctg_daily: `agrt_gb_cd CHAR(2) NOT NULL, agrt_dt DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    std_ctg_no VARCHAR(20) NOT NULL, md_id VARCHAR(50) NOT NULL DEFAULT '', ${MEASURES},
    PRIMARY KEY (agrt_gb_cd, agrt_dt, site_no, std_ctg_no, md_id)`,
  agg_payway_daily: `agrt_gb_cd CHAR(2) NOT NULL, agrt_dt DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    pay_way_cd VARCHAR(10) NOT NULL, ${MEASURES}, PRIMARY KEY (agrt_gb_cd, agrt_dt, site_no, pay_way_cd)`,
  agg_goods_daily: `agrt_gb_cd CHAR(2) NOT NULL, agrt_dt DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    goods_no VARCHAR(20) NOT NULL, entr_no VARCHAR(20) NOT NULL, ${MEASURES},
    PRIMARY KEY (agrt_gb_cd, agrt_dt, site_no, goods_no), KEY idx_agg_goods_goods (goods_no, agrt_gb_cd, agrt_dt, ord_qty, cncl_qty),
    KEY idx_agg_goods_entr (entr_no, agrt_gb_cd, agrt_dt)`,
  agg_entr_daily: `agrt_gb_cd CHAR(2) NOT NULL, agrt_dt DATE NOT NULL, site_no VARCHAR(10) NOT NULL,
    entr_no VARCHAR(20) NOT NULL, ${MEASURES}, PRIMARY KEY (agrt_gb_cd, agrt_dt, site_no, entr_no)`,
  agg_inflow_hourly: `agrt_dt DATE NOT NULL, agrt_hour TINYINT NOT NULL, site_no VARCHAR(10) NOT NULL,
    goods_no VARCHAR(20) NOT NULL, inf_cnt INT NOT NULL,
    PRIMARY KEY (agrt_dt, agrt_hour, site_no, goods_no), KEY idx_agg_inflow_goods (goods_no, agrt_dt, inf_cnt)`,
  /** One row per (kind, day[, hour]) build: who asked, when, how many rows, outcome. */
  agg_run_log: `run_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, kind VARCHAR(20) NOT NULL, agrt_dt DATE NOT NULL,
    agrt_hour TINYINT NULL, requested_by VARCHAR(20) NOT NULL, job_id VARCHAR(200) NULL, started_dtm DATETIME(3) NOT NULL,
    finished_dtm DATETIME(3) NULL, row_cnt INT NULL, outcome VARCHAR(20) NOT NULL, error_msg VARCHAR(2000) NULL,
    KEY idx_run_log_kind_dt (kind, agrt_dt)`,
  /** What each (kind, day) was last built from: the source high-water mark at build time. */
  agg_day_status: `kind VARCHAR(20) NOT NULL, agrt_dt DATE NOT NULL, agrt_hour TINYINT NOT NULL DEFAULT -1,
    built_max_no BIGINT NOT NULL, row_cnt INT NOT NULL, built_dtm DATETIME(3) NOT NULL,
    PRIMARY KEY (kind, agrt_dt, agrt_hour)`,
  /** Source high-water marks (`ord_stat_evt.evt_no`, `goods_inflow_log.log_no`) for late-data detection. */
  agg_watermark: `source_nm VARCHAR(40) NOT NULL PRIMARY KEY, last_no BIGINT NOT NULL, upd_dtm DATETIME(3) NOT NULL`,
};

export const aggregateTablesMigration: Migration = {
  name: '0101-agg-tables',
  up: async (knex) => {
    for (const [name, columns] of Object.entries(TABLES)) await knex.raw(`CREATE TABLE \`${name}\` (${columns}) ${T}`);
  },
  down: async (knex) => {
    for (const name of Object.keys(TABLES).reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
  },
};
