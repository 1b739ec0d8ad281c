import type { Router } from 'express';
import { APPLIED_AMOUNT_HEADER, findOperation, REMAINING_AMOUNT_HEADER, type StaffDcLimIncDecRequest } from '@bo/contracts';
import { AppError, mountOperation } from '@bo/service-kit';
import type { MemberDeps } from '../deps.ts';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey } from './idempotency.ts';
import { changeStaffLimit, limitChangeDeps } from './limit-change.ts';
import { readStaffLimit } from './read-limit.ts';

/** Staff discount limit operations (spec 4.5); the internal-only guard runs before them. */
export function mountStaffLimitRoutes(router: Router, deps: MemberDeps): void {
  const changeDeps = limitChangeDeps(deps.config, deps.knex, deps.logger);

  mountOperation<unknown, StaffDcLimIncDecRequest>(router, findOperation('dcLimIncDec'), async ({ body, req, res }) => {
    const key = parseIdempotencyKey(req.get(IDEMPOTENCY_HEADER));
    const { outcome, replayed } = await changeStaffLimit(changeDeps, body, key);
    // Not in the draft; tells a caller (and whoever reads its logs) that nothing was applied this time.
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    if (outcome.error) throw new AppError(outcome.error);
    // The spec's success has no body; these tell a caller that an increase was capped (applied < ocurAmt).
    if (outcome.applied !== undefined) res.setHeader(APPLIED_AMOUNT_HEADER, String(outcome.applied));
    if (outcome.remaining !== undefined) res.setHeader(REMAINING_AMOUNT_HEADER, String(outcome.remaining));
  });

  mountOperation<{ mbrNo: string }>(router, findOperation('getDsctLmtStatBO'), ({ query }) => readStaffLimit(deps.knex, query.mbrNo));
}
