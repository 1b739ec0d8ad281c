import type { Migration } from '@bo/db';

/**
 * The natural key of a limit change (issue 17.5, docs/design/staff-limit-changes.md): the order
 * benefit cost it pays for or gives back — member, direction (`rsrvUseGbCd`), order, claim and
 * cost sequence (absent and empty claim or sequence alike). It is stored as the SHA-256 of those
 * fields, byte for byte, under a unique index, so a change arriving twice without an
 * Idempotency-Key cannot write a second history row. The member number is the stored one (the
 * lookup is case-insensitive), so `e1` and `E1` are one member here too.
 */
export const naturalKeySql = (mbrNo: string, rsrvUseGbCd: string, ordNo: string, claimNo: string, ordFvrCostSeq: string): string =>
  `CONVERT(SHA2(CONCAT_WS(CHAR(31), ${mbrNo}, ${rsrvUseGbCd}, ${ordNo}, IFNULL(${claimNo}, ''), IFNULL(${ordFvrCostSeq}, '')), 256) USING ascii) COLLATE ascii_bin`;

export const changeNaturalKeyMigration: Migration = {
  name: '0102-member-change-natural-key',
  up: async (knex) => {
    await knex.raw('ALTER TABLE staff_dc_lim_hist ADD COLUMN nat_key CHAR(64) CHARACTER SET ascii COLLATE ascii_bin NULL AFTER idem_key');
    // History written before the key may hold repeats (the fault this closes): the first change of
    // each key gets it, later repeats keep NULL, which the unique index allows.
    await knex.raw(`UPDATE staff_dc_lim_hist h
      JOIN (SELECT MIN(hist_no) AS hist_no FROM staff_dc_lim_hist
             GROUP BY mbr_no, rsrv_use_gb_cd, ord_no, IFNULL(claim_no, ''), IFNULL(ord_fvr_cost_seq, '')) f ON f.hist_no = h.hist_no
       SET h.nat_key = ${naturalKeySql('h.mbr_no', 'h.rsrv_use_gb_cd', 'h.ord_no', 'h.claim_no', 'h.ord_fvr_cost_seq')}`);
    await knex.raw('ALTER TABLE staff_dc_lim_hist ADD UNIQUE KEY uk_hist_nat_key (nat_key)');
  },
  down: async (knex) => {
    await knex.raw('ALTER TABLE staff_dc_lim_hist DROP INDEX uk_hist_nat_key, DROP COLUMN nat_key');
  },
};
