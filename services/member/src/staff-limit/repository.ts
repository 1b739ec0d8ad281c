import type { Knex } from '@bo/db';

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

export interface HistoryRow {
  mbrNo: string;
  rsrvUseGbCd: string;
  requested: number;
  applied: number;
  before: number;
  after: number;
  ordNo: string;
  claimNo: string | null;
  ordFvrCostSeq: string | null;
  idemKey: string | null;
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

export async function findMember(db: Knex, mbrNo: string): Promise<MemberRow | undefined> {
  return db('mbr').select({ mbrNo: 'mbr_no', mbrStatCd: 'mbr_stat_cd', staffYn: 'staff_yn' }).where({ mbr_no: mbrNo }).first();
}

export async function findMemberWithLimit(db: Knex, mbrNo: string): Promise<(MemberRow & Partial<LimitRow>) | undefined> {
  return db('mbr as m')
    .leftJoin('staff_dc_lim as l', 'l.mbr_no', 'm.mbr_no')
    .select({ mbrNo: 'm.mbr_no', mbrStatCd: 'm.mbr_stat_cd', staffYn: 'm.staff_yn', limAmt: 'l.lim_amt', rmndAmt: 'l.rmnd_amt' })
    .where('m.mbr_no', mbrNo)
    .first();
}

/** Bounds how long this transaction waits for a row lock, so a stuck holder turns into a retry. */
export async function setLockWait(trx: Knex.Transaction, seconds: number): Promise<void> {
  await trx.raw('SET SESSION innodb_lock_wait_timeout = ?', [seconds]);
}

/** The limit row, locked until the transaction ends: concurrent changes of one member queue here. */
export async function lockLimit(trx: Knex.Transaction, mbrNo: string): Promise<LimitRow | undefined> {
  return trx('staff_dc_lim').select({ limAmt: 'lim_amt', rmndAmt: 'rmnd_amt' }).where({ mbr_no: mbrNo }).forUpdate().first();
}

export async function updateRemaining(trx: Knex.Transaction, mbrNo: string, rmndAmt: number, at: string): Promise<void> {
  await trx('staff_dc_lim').where({ mbr_no: mbrNo }).update({ rmnd_amt: rmndAmt, upd_dtm: at });
}

export async function insertHistory(trx: Knex.Transaction, h: HistoryRow): Promise<void> {
  await trx('staff_dc_lim_hist').insert({
    mbr_no: h.mbrNo,
    rsrv_use_gb_cd: h.rsrvUseGbCd,
    req_amt: h.requested,
    aply_amt: h.applied,
    bef_rmnd_amt: h.before,
    aft_rmnd_amt: h.after,
    ord_no: h.ordNo,
    claim_no: h.claimNo,
    ord_fvr_cost_seq: h.ordFvrCostSeq,
    idem_key: h.idemKey,
    reg_dtm: h.at,
  });
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
