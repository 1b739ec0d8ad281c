import type { Knex } from '@bo/db';
import { seededDraw } from './seeded-random.ts';

/** Staff members of the limit benchmark: their own number range, reset before every measurement. */
export const STAFF_LIMIT = 1_000_000;
export const STAFF_START_REMAINING = 200_000;

export const staffNo = (i: number): string => `BSTF${String(i + 1).padStart(6, '0')}`;

export interface StaffOp {
  mbrNo: string;
  rsrvUseGbCd: '10' | '20';
  ocurAmt: number;
  ordNo: string;
}

/** Make sure the staff members exist with their limit rows. */
export async function ensureStaff(knex: Knex, members: number): Promise<string[]> {
  const numbers = Array.from({ length: members }, (_, i) => staffNo(i));
  for (let i = 0; i < numbers.length; i += 500) {
    const chunk = numbers.slice(i, i + 500);
    await knex('mbr')
      .insert(chunk.map((mbr_no) => ({ mbr_no, mbr_nm: `벤치 직원 ${mbr_no.slice(4)}`, mbr_stat_cd: '10', staff_yn: 'Y' })))
      .onConflict('mbr_no')
      .merge(['mbr_stat_cd', 'staff_yn']);
    await knex('staff_dc_lim')
      .insert(chunk.map((mbr_no) => ({ mbr_no, lim_amt: STAFF_LIMIT, rmnd_amt: STAFF_START_REMAINING, upd_dtm: '2025-01-01 00:00:00' })))
      .onConflict('mbr_no')
      .ignore();
  }
  return numbers;
}

/** Every member back to the same starting amount with no history, so runs compare like with like. */
export async function resetStaff(knex: Knex, numbers: readonly string[]): Promise<void> {
  await knex('staff_dc_lim').whereIn('mbr_no', numbers).update({ lim_amt: STAFF_LIMIT, rmnd_amt: STAFF_START_REMAINING });
  await knex('staff_dc_lim_hist').whereIn('mbr_no', numbers).delete();
}

/**
 * A seeded mix of increases and decreases; decreases are slightly larger so some members run
 * dry and the "below 0" rule (6102) is exercised under contention too.
 */
export function planStaffOps(seed: number, numbers: readonly string[], count: number): StaffOp[] {
  const random = seededDraw(seed ^ 0x5747);
  return Array.from({ length: count }, (_, i) => {
    const decrease = random.chance(0.6);
    return {
      mbrNo: random.pick(numbers),
      rsrvUseGbCd: decrease ? '20' : '10',
      ocurAmt: random.int(1_000, decrease ? 60_000 : 40_000),
      ordNo: `BO${String(i + 1).padStart(10, '0')}`,
    };
  });
}
