import type { MemberRow } from './model.ts';

/**
 * docs/data-model.md §5: a staff member is an active (`10`) member with `staff_yn = 'Y'`
 * and a limit row; anything else is error 6101. The limit row is checked by the caller,
 * which reads it under a lock. The same rule as SQL: data-access/staff-limits.ts.
 */
export const isActiveStaff = (member: MemberRow | undefined): boolean => member?.mbrStatCd === '10' && member.staffYn === 'Y';
