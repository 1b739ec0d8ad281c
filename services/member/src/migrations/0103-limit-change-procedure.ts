import type { Migration } from '@bo/db';
import { naturalKeySql } from './0102-change-natural-key.ts';

/**
 * One limit change as one stored procedure, so a change costs the service one round trip
 * (`CALL`) instead of four (BEGIN, the history insert, the balance update, COMMIT): the
 * service was CPU-bound on its database client (issue 15, README › Performance). The
 * procedure runs the same transaction the service used to run statement by statement:
 *
 * 1. The history row is written from the member's limit row, read FOR UPDATE (concurrent
 *    changes of one member queue there), by the rule of spec 4.5: an increase stops at the
 *    limit (the applied amount says how much was kept), a decrease below 0 writes nothing.
 *    The row carries the change's natural key (migration 0102); a repeat hits the unique index.
 * 2. Written: the balance becomes the row's "after" (the two cannot differ).
 *    Not written: an earlier change with the same natural key is replayed when the amount is
 *    the same, refused as CHANGE_KEY_REUSED when it is not; otherwise the refusal's reason
 *    (STAFF_NOT_FOUND or LIMIT_INSUFFICIENT). These reads come after the locking insert, so
 *    they see whatever a competing change committed while this one waited for the lock.
 * 3. With an Idempotency-Key, its outcome is recorded in the same transaction, only while
 *    this caller still owns the claim (else LEASE_LOST and nothing is kept).
 *
 * Any error rolls the whole transaction back before it leaves the procedure (a lock-wait
 * timeout would otherwise leave it open on the pooled connection); the service retries
 * deadlocks and lock-wait timeouts. The result is one row: outcome, applied, remaining.
 * The statements are the same on MariaDB 10.11 and MySQL 8/9.
 */
export const LIMIT_CHANGE_PROCEDURE = 'staff_dc_lim_change';

export const ACTIVE_STAFF = "m.mbr_stat_cd = '10' AND m.staff_yn = 'Y'";

/** The procedure's arguments (0104 keeps them). */
export const PARAMETERS = `        IN p_mbr_no VARCHAR(20), IN p_gb VARCHAR(2), IN p_amount BIGINT, IN p_ord_no VARCHAR(20), IN p_claim_no VARCHAR(20),
        IN p_seq VARCHAR(20), IN p_idem_key VARCHAR(200) CHARACTER SET ascii, IN p_owner CHAR(36), IN p_at DATETIME(3), IN p_at_seconds DATETIME`;

/**
 * Nothing was written: the outcome of an earlier change with the same natural key (replayed when
 * the amount is the same, else CHANGE_KEY_REUSED), or why not (LIMIT_INSUFFICIENT, STAFF_NOT_FOUND).
 */
export const NOT_APPLIED_OUTCOME = `          SELECT h.req_amt, h.aply_amt, h.aft_rmnd_amt INTO v_req, v_applied, v_remaining
            FROM staff_dc_lim l
            JOIN staff_dc_lim_hist h ON h.nat_key = ${naturalKeySql('l.mbr_no', 'p_gb', 'p_ord_no', 'p_claim_no', 'p_seq')}
           WHERE l.mbr_no = p_mbr_no;
          IF v_req = p_amount THEN
            SET v_outcome = 'REPLAYED';
          ELSE
            SET v_applied = NULL, v_remaining = NULL;
            IF v_req IS NOT NULL THEN
              SET v_outcome = 'CHANGE_KEY_REUSED';
            ELSEIF EXISTS (SELECT 1 FROM mbr m JOIN staff_dc_lim l ON l.mbr_no = m.mbr_no WHERE m.mbr_no = p_mbr_no AND ${ACTIVE_STAFF}) THEN
              SET v_outcome = 'LIMIT_INSUFFICIENT';
            ELSE
              SET v_outcome = 'STAFF_NOT_FOUND';
            END IF;
          END IF;
`;

/** With an Idempotency-Key its outcome is recorded while this caller owns it; then COMMIT and the one-row answer. */
export const RECORD_AND_ANSWER = `        IF p_idem_key IS NOT NULL THEN
          UPDATE staff_dc_lim_idem
             SET proc_stat = 'DONE', owner_id = NULL,
                 resp_status = IF(v_outcome IN ('APPLIED', 'REPLAYED'), 200, 900),
                 resp_body = JSON_OBJECT('outcome', v_outcome, 'applied', v_applied, 'remaining', v_remaining)
           WHERE idem_key = p_idem_key AND owner_id = p_owner AND proc_stat = 'PROCESSING';
          IF ROW_COUNT() = 0 THEN
            ROLLBACK;
            SELECT 'LEASE_LOST' AS outcome, NULL AS applied, NULL AS remaining;
            LEAVE change_proc;
          END IF;
        END IF;

        COMMIT;
        SELECT v_outcome AS outcome, v_applied AS applied, v_remaining AS remaining;
`;

export const limitChangeProcedureMigration: Migration = {
  name: '0103-member-limit-change-procedure',
  up: async (knex) => {
    await knex.raw(`CREATE PROCEDURE ${LIMIT_CHANGE_PROCEDURE}(
${PARAMETERS})
      change_proc: BEGIN
        DECLARE v_dup INT DEFAULT 0;
        DECLARE v_rows INT DEFAULT 0;
        DECLARE v_outcome VARCHAR(20);
        DECLARE v_req BIGINT DEFAULT NULL;
        DECLARE v_applied BIGINT DEFAULT NULL;
        DECLARE v_remaining BIGINT DEFAULT NULL;
        DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;

        START TRANSACTION;
        BEGIN
          DECLARE CONTINUE HANDLER FOR 1062 SET v_dup = 1;
          INSERT INTO staff_dc_lim_hist
            (mbr_no, rsrv_use_gb_cd, req_amt, aply_amt, bef_rmnd_amt, aft_rmnd_amt, ord_no, claim_no, ord_fvr_cost_seq, idem_key, nat_key, reg_dtm)
          SELECT l.mbr_no, p_gb, p_amount,
                 CASE WHEN p_gb = '10' THEN LEAST(l.lim_amt, l.rmnd_amt + p_amount) - l.rmnd_amt ELSE p_amount END,
                 l.rmnd_amt,
                 CASE WHEN p_gb = '10' THEN LEAST(l.lim_amt, l.rmnd_amt + p_amount) ELSE l.rmnd_amt - p_amount END,
                 p_ord_no, p_claim_no, p_seq, p_idem_key,
                 ${naturalKeySql('l.mbr_no', 'p_gb', 'p_ord_no', 'p_claim_no', 'p_seq')},
                 p_at
            FROM staff_dc_lim l
           WHERE l.mbr_no = p_mbr_no AND (p_gb = '10' OR l.rmnd_amt >= p_amount)
             AND EXISTS (SELECT 1 FROM mbr m WHERE m.mbr_no = l.mbr_no AND ${ACTIVE_STAFF})
             FOR UPDATE;
          SET v_rows = ROW_COUNT();
        END;

        IF v_dup = 0 AND v_rows = 1 THEN
          UPDATE staff_dc_lim l JOIN staff_dc_lim_hist h ON h.mbr_no = l.mbr_no
             SET l.rmnd_amt = h.aft_rmnd_amt, l.upd_dtm = p_at_seconds
           WHERE h.hist_no = LAST_INSERT_ID();
          SELECT aply_amt, aft_rmnd_amt INTO v_applied, v_remaining FROM staff_dc_lim_hist WHERE hist_no = LAST_INSERT_ID();
          SET v_outcome = 'APPLIED';
        ELSE
${NOT_APPLIED_OUTCOME}        END IF;

${RECORD_AND_ANSWER}      END`);
  },
  down: async (knex) => {
    await knex.raw(`DROP PROCEDURE IF EXISTS ${LIMIT_CHANGE_PROCEDURE}`);
  },
};
