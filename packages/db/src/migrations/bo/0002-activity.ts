import type { Migration } from '../../migrate.ts';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

/**
 * Activity tables of docs/data-model.md §2. Indexes follow the reads: statistics and the
 * worker scan half-open `evt_dtm` / `inflow_dtm` ranges (the agrtGb index covers every column
 * the period and hourly reports sum, so unfiltered reports never touch the rows; filtered ones
 * go by goods within one agrtGb); the dashboard filters reviews by time, restock requests by
 * waiting flag, questions by supplier and status, and lists the newest questions.
 */
const TABLES: Record<string, string> = {
  ord: `ord_no VARCHAR(20) NOT NULL PRIMARY KEY, site_no VARCHAR(10) NOT NULL, mbr_no VARCHAR(20) NOT NULL,
    ord_dtm DATETIME NOT NULL, pay_way_cd VARCHAR(10) NOT NULL, KEY idx_ord_dtm (ord_dtm), KEY idx_ord_mbr (mbr_no)`,
  ord_stat_evt: `evt_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, ord_no VARCHAR(20) NOT NULL, ord_goods_seq INT NOT NULL,
    site_no VARCHAR(10) NOT NULL, goods_no VARCHAR(20) NOT NULL, agrt_gb_cd CHAR(2) NOT NULL, evt_gb_cd CHAR(2) NOT NULL,
    evt_dtm DATETIME NOT NULL, qty INT NOT NULL, amt BIGINT NOT NULL, dc_amt_2nd BIGINT NOT NULL DEFAULT 0,
    dc_amt_3rd BIGINT NOT NULL DEFAULT 0,
    KEY idx_evt_agrt_dtm (agrt_gb_cd, evt_dtm, site_no, goods_no, evt_gb_cd, qty, amt, dc_amt_2nd, dc_amt_3rd),
    KEY idx_evt_dtm (evt_dtm), KEY idx_evt_goods_dtm (goods_no, agrt_gb_cd, evt_dtm),
    KEY idx_evt_ord (ord_no)`,
  goods_inflow_log: `log_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, goods_no VARCHAR(20) NOT NULL, site_no VARCHAR(10) NOT NULL,
    inflow_dtm DATETIME NOT NULL, KEY idx_inflow_dtm (inflow_dtm)`,
  goods_review: `rev_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, goods_no VARCHAR(20) NOT NULL, site_no VARCHAR(10) NOT NULL,
    mbr_no VARCHAR(20) NOT NULL, star_score TINYINT NOT NULL, rev_cont TEXT NULL, reg_dtm DATETIME NOT NULL,
    del_yn CHAR(1) NOT NULL DEFAULT 'N', rev_disp_stat_cd VARCHAR(2) NOT NULL,
    KEY idx_review_reg (reg_dtm), KEY idx_review_goods (goods_no, reg_dtm)`,
  restock_noti_req: `req_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, goods_no VARCHAR(20) NOT NULL, site_no VARCHAR(10) NOT NULL,
    mbr_no VARCHAR(20) NOT NULL, req_dtm DATETIME NOT NULL, noti_yn CHAR(1) NOT NULL DEFAULT 'N',
    KEY idx_restock_wait (noti_yn, goods_no)`,
  goods_qna: `quest_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, site_no VARCHAR(10) NOT NULL, mbr_no VARCHAR(20) NOT NULL,
    goods_no VARCHAR(20) NOT NULL, entr_no VARCHAR(20) NOT NULL, quest_typ_cd VARCHAR(10) NULL, quest_title VARCHAR(300) NULL,
    quest_cont TEXT NULL, quest_dtm DATETIME NOT NULL, proc_stat_cd VARCHAR(2) NOT NULL, proc_stat_dtm DATETIME NULL,
    KEY idx_qna_entr_stat (entr_no, proc_stat_cd, quest_dtm), KEY idx_qna_stat_dtm (proc_stat_cd, quest_dtm),
    KEY idx_qna_goods (goods_no), KEY idx_qna_dtm (quest_dtm, quest_no)`,
  goods_doc_page: `goods_no VARCHAR(20) NOT NULL, file_nm VARCHAR(300) NOT NULL, page_no INT NOT NULL, page_text MEDIUMTEXT NOT NULL,
    PRIMARY KEY (goods_no, file_nm, page_no)`,
};

export const activityMigration: Migration = {
  name: '0002-bo-activity',
  up: async (knex) => {
    for (const [name, columns] of Object.entries(TABLES)) await knex.raw(`CREATE TABLE \`${name}\` (${columns}) ${T}`);
  },
  down: async (knex) => {
    for (const name of Object.keys(TABLES).reverse()) await knex.raw(`DROP TABLE IF EXISTS \`${name}\``);
  },
};
