import type { Knex } from '@bo/db';
import type { IdempotencyRow } from '../model.ts';

/** The Idempotency-Key records of limit changes (`staff_dc_lim_idem`). */

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
  return (await db('staff_dc_lim_idem')
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
    .first()) as IdempotencyRow | undefined;
}

/** Take over a claim whose owner's lease ran out; 1 when this caller now owns it. */
export async function takeOverIdempotencyClaim(
  db: Knex,
  key: string,
  previousOwner: string | null,
  ownerId: string,
  leaseEnd: string,
  now: string,
): Promise<number> {
  return db('staff_dc_lim_idem')
    .where({ idem_key: key, proc_stat: 'PROCESSING' })
    .andWhere('owner_id', previousOwner)
    .andWhere('lease_end_dtm', '<=', now)
    .update({ owner_id: ownerId, lease_end_dtm: leaseEnd });
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
