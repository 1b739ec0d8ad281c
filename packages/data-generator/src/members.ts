import { addDays } from '@bo/db';
import { KOREAN_GIVEN_NAMES, KOREAN_SURNAMES } from './brand-catalog.ts';
import { lastSecondOfLastDay, type Plan } from './plan.ts';
import { createRandom } from './random.ts';
import type { RowSink } from './row-sink.ts';
import { hms } from './time-of-day.ts';

export const MBR_COLUMNS = ['mbr_no', 'mbr_nm', 'mbr_stat_cd', 'staff_yn'] as const;
export const STAFF_LIMIT_COLUMNS = ['mbr_no', 'lim_amt', 'rmnd_amt', 'upd_dtm'] as const;

export const memberNumber = (n: number): string => `M${String(n).padStart(9, '0')}`;

const LIMITS = [300_000, 500_000, 1_000_000, 1_500_000, 2_000_000];

/**
 * The staff cases the discount-limit rules need, on the first staff positions:
 * 0 full limit left, 1 nothing left, 2 withdrawn staff (limit row kept), 3 staff flag without
 * a limit row, 4 a former staff member (flag cleared, limit row left behind).
 */
type StaffCase = 'full' | 'empty' | 'withdrawn' | 'no-limit-row' | 'former' | 'random';
const FIXED_CASES: readonly StaffCase[] = ['full', 'empty', 'withdrawn', 'no-limit-row', 'former'];

/** Members of the member database: about 1 % staff with discount limits, the rest shoppers. */
export async function generateMembers(plan: Plan, sinks: { mbr: RowSink; staffLimit: RowSink }): Promise<void> {
  const random = createRandom(plan.seed).fork(30);
  const staffCount = Math.max(FIXED_CASES.length + 10, Math.round(plan.members / 100));
  const stride = Math.floor(plan.members / staffCount);
  let staffIndex = 0;
  for (let n = 1; n <= plan.members; n++) {
    const mbrNo = memberNumber(n);
    const name = random.pick(KOREAN_SURNAMES) + random.pick(KOREAN_GIVEN_NAMES);
    const isStaffSlot = (n - 1) % stride === 0 && staffIndex < staffCount;
    let stat = random.chance(0.03) ? '90' : '10';
    let staffYn = 'N';
    if (isStaffSlot) {
      const c: StaffCase = FIXED_CASES[staffIndex] ?? 'random';
      staffIndex++;
      staffYn = c === 'former' ? 'N' : 'Y';
      stat = c === 'withdrawn' || (c === 'random' && random.chance(0.08)) ? '90' : '10';
      if (c !== 'no-limit-row') {
        const lim = random.pick(LIMITS);
        const rmnd =
          c === 'full'
            ? lim
            : c === 'empty'
              ? 0
              : random.chance(0.1)
                ? 0
                : random.chance(0.15)
                  ? lim
                  : Math.round((lim * random.next()) / 1000) * 1000;
        const day = random.int(0, plan.days - 1);
        const sec = random.int(0, day === plan.days - 1 ? lastSecondOfLastDay(plan) : 86_399);
        const upd = `${addDays(plan.start, day)} ${hms(sec)}`;
        const w = sinks.staffLimit.write(`${mbrNo}\t${lim}\t${rmnd}\t${upd}\n`);
        if (w) await w;
      }
    }
    const w = sinks.mbr.write(`${mbrNo}\t${name}\t${stat}\t${staffYn}\n`);
    if (w) await w;
  }
}
