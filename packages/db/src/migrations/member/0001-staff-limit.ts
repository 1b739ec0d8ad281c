import type { Migration } from '../../migrate.ts';

const T = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci';

/** Member tables of docs/data-model.md §5. */
export const staffLimitMigration: Migration = {
  name: '0001-member-staff-limit',
  up: async (knex) => {
    await knex.raw(`CREATE TABLE mbr (
      mbr_no VARCHAR(20) NOT NULL PRIMARY KEY, mbr_nm VARCHAR(100) NOT NULL, mbr_stat_cd VARCHAR(2) NOT NULL,
      staff_yn CHAR(1) NOT NULL DEFAULT 'N') ${T}`);
    await knex.raw(`CREATE TABLE staff_dc_lim (
      mbr_no VARCHAR(20) NOT NULL PRIMARY KEY, lim_amt BIGINT NOT NULL, rmnd_amt BIGINT NOT NULL, upd_dtm DATETIME NOT NULL,
      CONSTRAINT chk_staff_dc_lim_range CHECK (rmnd_amt >= 0 AND rmnd_amt <= lim_amt)) ${T}`);
    await knex.raw(`CREATE TABLE staff_dc_lim_hist (
      hist_no BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, mbr_no VARCHAR(20) NOT NULL, rsrv_use_gb_cd VARCHAR(2) NOT NULL,
      req_amt BIGINT NOT NULL, aply_amt BIGINT NOT NULL, bef_rmnd_amt BIGINT NOT NULL, aft_rmnd_amt BIGINT NOT NULL,
      ord_no VARCHAR(20) NOT NULL, claim_no VARCHAR(20) NULL, ord_fvr_cost_seq VARCHAR(20) NULL, idem_key VARCHAR(200) NULL,
      reg_dtm DATETIME(3) NOT NULL, KEY idx_hist_mbr (mbr_no, hist_no), KEY idx_hist_ord (ord_no)) ${T}`);
  },
  down: async (knex) => {
    for (const t of ['staff_dc_lim_hist', 'staff_dc_lim', 'mbr']) await knex.raw(`DROP TABLE IF EXISTS ${t}`);
  },
};
