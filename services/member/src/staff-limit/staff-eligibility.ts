import type { MemberRow } from './repository.ts';

/**
 * DATA-MODEL.md section 5: a staff member is an active (`10`) member with `staff_yn = 'Y'`
 * and a limit row; anything else is error 6101. The limit row is checked by the caller,
 * which reads it under a lock.
 */
export const isActiveStaff = (member: MemberRow | undefined): boolean => member?.mbrStatCd === '10' && member.staffYn === 'Y';

/** The same rule as SQL over the member row `m`, for statements that check it themselves. */
export const ACTIVE_STAFF_SQL = "m.mbr_stat_cd = '10' AND m.staff_yn = 'Y'";
