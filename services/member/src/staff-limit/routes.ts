import type { Router } from 'express';
import type { MemberDeps } from '../app.ts';

/** Staff discount limit operations; built by the member issue. */
export function mountStaffLimitRoutes(_router: Router, _deps: MemberDeps): void {}
