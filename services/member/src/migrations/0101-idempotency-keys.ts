import type { Migration } from '@bo/db';

/**
 * Idempotency-Key records of `dcLimIncDec`. The key is ASCII with a binary collation because
 * keys are case-sensitive opaque values. A row is claimed (`PROCESSING`, with an owner and a
 * lease) before the change runs, and turned into `DONE` with the outcome inside the same
 * transaction as the balance change, so "applied" and "recorded" never diverge.
 */
export const idempotencyKeysMigration: Migration = {
  name: '0101-member-idempotency-keys',
  up: async (knex) => {
    await knex.raw(`CREATE TABLE staff_dc_lim_idem (
      idem_key VARCHAR(200) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY,
      req_hash CHAR(64) NOT NULL, mbr_no VARCHAR(20) NOT NULL, proc_stat VARCHAR(10) NOT NULL,
      owner_id CHAR(36) NULL, lease_end_dtm DATETIME NOT NULL, resp_status SMALLINT NULL, resp_body TEXT NULL,
      reg_dtm DATETIME NOT NULL, exp_dtm DATETIME NOT NULL,
      KEY idx_idem_exp (exp_dtm)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`);
  },
  down: async (knex) => {
    await knex.raw('DROP TABLE IF EXISTS staff_dc_lim_idem');
  },
};
