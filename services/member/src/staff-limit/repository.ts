import type { Knex } from '@bo/db';
import type { BalanceRule } from './balance-change.ts';
import { ACTIVE_STAFF_SQL } from './staff-eligibility.ts';

/** Staff discount limit SQL: members, limits, history and Idempotency-Key records. */

export interface MemberRow {
  /** As stored: the lookup is case-insensitive, so this may differ from what the caller sent. */
  mbrNo: string;
  mbrStatCd: string;
  staffYn: string;
}

export interface LimitRow {
  limAmt: number;
  rmndAmt: number;
}

/** What the caller asked for, as the history row records it. */
export interface HistoryRequest {
  mbrNo: string;
  rsrvUseGbCd: string;
  requested: number;
  ordNo: string;
  claimNo: string | null;
  ordFvrCostSeq: string | null;
  idemKey: string | null;
  /** DATETIME(3) platform local time. */
  at: string;
}

export interface IdempotencyRow {
  reqHash: string;
  procStat: 'PROCESSING' | 'DONE';
  ownerId: string | null;
  leaseEndDtm: string;
  respStatus: number | null;
  respBody: string | null;
  expDtm: string;
}

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
export async function insertHistoryFromLockedLimit(trx: Knex.Transaction, change: HistoryRequest, rule: BalanceRule): Promise<number | undefined> {
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
  await trx.raw('UPDATE staff_dc_lim l JOIN staff_dc_lim_hist h ON h.mbr_no = l.mbr_no SET l.rmnd_amt = h.aft_rmnd_amt, l.upd_dtm = ? WHERE h.hist_no = ?', [
    at,
    histNo,
  ]);
}

export async function insertIdempotencyClaim(
  db: Knex,
  c: { key: string; reqHash: string; mbrNo: string; ownerId: string; leaseEnd: string; at: string; expires: string },
): Promise<void> {
  await db('staff_dc_lim_idem').insert({
    idem_key: c.key,
    req_hash: c.reqHash,
    mbr_no: c.mbrNo,
    proc_stat: 'PROCESSING',
    owner_id: c.ownerId,
    lease_end_dtm: c.leaseEnd,
    reg_dtm: c.at,
    exp_dtm: c.expires,
  });
}

export async function findIdempotencyKey(db: Knex, key: string): Promise<IdempotencyRow | undefined> {
  return db('staff_dc_lim_idem')
    .select({
      reqHash: 'req_hash',
      procStat: 'proc_stat',
      ownerId: 'owner_id',
      leaseEndDtm: 'lease_end_dtm',
      respStatus: 'resp_status',
      respBody: 'resp_body',
      expDtm: 'exp_dtm',
    })
    .where({ idem_key: key })
    .first();
}

/** Take over a claim whose owner's lease ran out; 1 when this caller now owns it. */
export async function takeOverIdempotencyClaim(db: Knex, key: string, previousOwner: string | null, ownerId: string, leaseEnd: string, now: string): Promise<number> {
  return db('staff_dc_lim_idem')
    .where({ idem_key: key, proc_stat: 'PROCESSING' })
    .andWhere('owner_id', previousOwner)
    .andWhere('lease_end_dtm', '<=', now)
    .update({ owner_id: ownerId, lease_end_dtm: leaseEnd });
}

/** Store the outcome; 0 when this caller no longer owns the claim (its lease was taken over). */
export async function recordIdempotencyOutcome(trx: Knex.Transaction, key: string, ownerId: string, status: number, body: string | null): Promise<number> {
  return trx('staff_dc_lim_idem')
    .where({ idem_key: key, owner_id: ownerId, proc_stat: 'PROCESSING' })
    .update({ proc_stat: 'DONE', owner_id: null, resp_status: status, resp_body: body });
}

export async function deleteIdempotencyClaim(db: Knex, key: string, ownerId: string): Promise<void> {
  await db('staff_dc_lim_idem').where({ idem_key: key, owner_id: ownerId, proc_stat: 'PROCESSING' }).delete();
}

export async function deleteExpiredIdempotencyKey(db: Knex, key: string, now: string): Promise<void> {
  await db('staff_dc_lim_idem').where({ idem_key: key }).andWhere('exp_dtm', '<=', now).delete();
}

/** Bounded so one sweep never holds locks for long; the next sweep takes the rest. */
export async function deleteExpiredIdempotencyKeys(db: Knex, now: string, limit: number): Promise<number> {
  return db('staff_dc_lim_idem').where('exp_dtm', '<=', now).limit(limit).delete();
}
