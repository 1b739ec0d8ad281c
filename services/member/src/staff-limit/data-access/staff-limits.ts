import type { Knex } from '@bo/db';
import type { HistoryRequest, LimitRow, MemberRow, ProcedureOutcome } from '../model.ts';

/** Staff discount limit SQL: members, limits and the history of changes. */

/** Created by member migration 0103 (its LIMIT_CHANGE_PROCEDURE), its body replaced by 0104. */
const LIMIT_CHANGE_PROCEDURE = 'staff_dc_lim_change';

export async function findMemberWithLimit(db: Knex, mbrNo: string): Promise<(MemberRow & Partial<LimitRow>) | undefined> {
  return (await db('mbr as m')
    .leftJoin('staff_dc_lim as l', 'l.mbr_no', 'm.mbr_no')
    .select({ mbrNo: 'm.mbr_no', mbrStatCd: 'm.mbr_stat_cd', staffYn: 'm.staff_yn', limAmt: 'l.lim_amt', rmndAmt: 'l.rmnd_amt' })
    .where('m.mbr_no', mbrNo)
    .first()) as (MemberRow & Partial<LimitRow>) | undefined;
}

interface ProcedureRow {
  outcome: ProcedureOutcome;
  applied: number | string | null;
  remaining: number | string | null;
}

/**
 * One limit change, its history row, its balance and (with a key) its recorded outcome, in one
 * transaction run by the database (migrations 0103, 0104): one round trip. The procedure rolls back
 * by itself on any error, so a failed call leaves no transaction open on the connection.
 */
export async function callLimitChange(
  db: Knex,
  change: HistoryRequest & { owner: string | null; atSeconds: string },
): Promise<{ outcome: ProcedureOutcome; applied?: number; remaining?: number }> {
  const [results] = (await db.raw(`CALL ${LIMIT_CHANGE_PROCEDURE}(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
    change.mbrNo,
    change.rsrvUseGbCd,
    change.requested,
    change.ordNo,
    change.claimNo,
    change.ordFvrCostSeq,
    change.idemKey,
    change.owner,
    change.at,
    change.atSeconds,
  ])) as [[ProcedureRow[], ...unknown[]]];
  const row = results[0][0];
  if (!row) throw new Error(`${LIMIT_CHANGE_PROCEDURE} returned no outcome`);
  return {
    outcome: row.outcome,
    ...(row.applied == null ? {} : { applied: Number(row.applied) }),
    ...(row.remaining == null ? {} : { remaining: Number(row.remaining) }),
  };
}
