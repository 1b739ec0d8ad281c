import type { StaffDcLimStat } from '@bo/contracts';
import type { Knex } from '@bo/db';
import { AppError } from '@bo/service-kit';
import { findMemberWithLimit } from './data-access/staff-limits.ts';
import { isActiveStaff } from './staff-eligibility.ts';

/** Spec 4.5 `getDsctLmtStatBO`: the remaining and total limit of a staff member; 6101 for anyone else. */
export async function readStaffLimit(knex: Knex, mbrNo: string): Promise<StaffDcLimStat> {
  const row = await findMemberWithLimit(knex, mbrNo);
  if (!row || !isActiveStaff(row) || row.limAmt == null || row.rmndAmt == null) throw new AppError('STAFF_NOT_FOUND');
  return { mbrNo: row.mbrNo, rmndAmt: row.rmndAmt, limAmt: row.limAmt };
}
