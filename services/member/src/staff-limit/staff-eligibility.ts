import type { MemberRow } from './repository.ts';

/**
 * DATA-MODEL.md section 5: a staff member is an active (`10`) member with `staff_yn = 'Y'`
 * and a limit row; anything else is error 6101. The limit row is checked by the caller,
 * which reads it under a lock.
 */
export const isActiveStaff = (member: MemberRow | undefined): boolean => member?.mbrStatCd === '10' && member.staffYn === 'Y';
