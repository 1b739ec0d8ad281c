import type { Knex } from '@bo/db';
import type { BalanceRule, HistoryRequest, LimitRow, MemberRow } from '../model.ts';

/** Staff discount limit SQL: members, limits and the history of changes. */

/** An active staff member as SQL over the member row `m`: the rule of `isActiveStaff` (staff-eligibility.ts). */
const ACTIVE_STAFF_SQL = "m.mbr_stat_cd = '10' AND m.staff_yn = 'Y'";

export async function findMemberWithLimit(db: Knex, mbrNo: string): Promise<(MemberRow & Partial<LimitRow>) | undefined> {
  return db('mbr as m')
    .leftJoin('staff_dc_lim as l', 'l.mbr_no', 'm.mbr_no')
    .select({ mbrNo: 'm.mbr_no', mbrStatCd: 'm.mbr_stat_cd', staffYn: 'm.staff_yn', limAmt: 'l.lim_amt', rmndAmt: 'l.rmnd_amt' })
    .where('m.mbr_no', mbrNo)
    .first();
}

/**
 * The history row of one change, computed by the rule from the member's limit row in the same
 * statement. The row is read with FOR UPDATE, so it stays locked until the transaction ends
 * and concurrent changes of one member queue here. No row is written when the member is not
 * active staff, has no limit row, or the rule refuses the change. Returns the new row's
 * number (hist_no), or undefined when nothing was written.
 */
export async function insertHistoryFromLockedLimit(
  trx: Knex.Transaction,
  change: HistoryRequest,
  rule: BalanceRule,
): Promise<number | undefined> {
  const [result] = (await trx.raw(
    `INSERT INTO staff_dc_lim_hist
       (mbr_no, rsrv_use_gb_cd, req_amt, aply_amt, bef_rmnd_amt, aft_rmnd_amt, ord_no, claim_no, ord_fvr_cost_seq, idem_key, reg_dtm)
     SELECT l.mbr_no, :rsrvUseGbCd, :amount, ${rule.applied}, l.rmnd_amt, ${rule.after}, :ordNo, :claimNo, :ordFvrCostSeq, :idemKey, :at
       FROM staff_dc_lim l
      WHERE l.mbr_no = :mbrNo AND ${rule.allowed}
        AND EXISTS (SELECT 1 FROM mbr m WHERE m.mbr_no = l.mbr_no AND ${ACTIVE_STAFF_SQL})
        FOR UPDATE`,
    {
      mbrNo: change.mbrNo,
      rsrvUseGbCd: change.rsrvUseGbCd,
      amount: change.requested,
      ordNo: change.ordNo,
      claimNo: change.claimNo,
      ordFvrCostSeq: change.ordFvrCostSeq,
      idemKey: change.idemKey,
      at: change.at,
    },
  )) as [{ affectedRows: number; insertId: number }];
  return result.affectedRows ? result.insertId : undefined;
}

/** The stored balance becomes the "after" of the change's history row: the two cannot differ. */
export async function setRemainingFromHistory(trx: Knex.Transaction, histNo: number, at: string): Promise<void> {
  await trx.raw(
    'UPDATE staff_dc_lim l JOIN staff_dc_lim_hist h ON h.mbr_no = l.mbr_no SET l.rmnd_amt = h.aft_rmnd_amt, l.upd_dtm = ? WHERE h.hist_no = ?',
    [at, histNo],
  );
}
