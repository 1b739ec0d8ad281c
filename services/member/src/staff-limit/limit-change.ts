import type { StaffDcLimIncDecRequest } from '@bo/contracts';
import type { Knex } from '@bo/db';
import { AppError, type Logger } from '@bo/service-kit';
import type { MemberConfig } from '../config.ts';
import { claimKey, fingerprint, releaseClaim, type KeyStore } from './idempotency.ts';
import { platformMoment } from './platform-clock.ts';
import { callLimitChange } from './data-access/staff-limits.ts';
import type { ChangeOutcome } from './model.ts';
import { retriedOnLockConflict } from './transaction-retry.ts';

export interface LimitChangeDeps {
  knex: Knex;
  logger: Logger;
  timeZone: string;
  maxAttempts: number;
  keys: KeyStore;
}

export function limitChangeDeps(config: MemberConfig, knex: Knex, logger: Logger): LimitChangeDeps {
  const keys: KeyStore = {
    knex,
    timeZone: config.PLATFORM_TIME_ZONE,
    ttlHours: config.IDEMPOTENCY_KEY_TTL_HOURS,
    // Longer than the worst case of one change (every attempt waiting out its lock wait, plus
    // back-off), so a live owner never loses its claim; a dead one frees it within a minute or so.
    leaseSeconds: config.STAFF_LIMIT_LOCK_WAIT_SECONDS * config.STAFF_LIMIT_MAX_ATTEMPTS + 30,
  };
  return {
    knex,
    logger,
    timeZone: config.PLATFORM_TIME_ZONE,
    maxAttempts: config.STAFF_LIMIT_MAX_ATTEMPTS,
    keys,
  };
}

/**
 * Spec 4.5 `dcLimIncDec`: increase or decrease one staff member's remaining limit, at most once
 * per natural key (the order benefit cost it is for: member, direction, order, claim, cost
 * sequence) and at most once per Idempotency-Key. `replayed` says the outcome is that of an
 * earlier request, which is not applied again.
 */
export async function changeStaffLimit(
  deps: LimitChangeDeps,
  change: StaffDcLimIncDecRequest,
  key?: string,
): Promise<{ outcome: ChangeOutcome; replayed: boolean }> {
  if (!key) return applyChange(deps, change);
  const claim = await claimKey(deps.keys, key, fingerprint(change), change.mbrNo);
  if ('replay' in claim) return { outcome: claim.replay, replayed: true };
  try {
    return await applyChange(deps, change, { key, owner: claim.owner });
  } catch (err) {
    await releaseClaim(deps.keys, key, claim.owner).catch((e: unknown) =>
      deps.logger.warn('releasing an idempotency key failed; its lease will free it', { message: (e as Error).message }),
    );
    throw err;
  }
}

/** One call of the limit-change procedure (one transaction, one round trip), retried on lock conflicts. */
async function applyChange(
  deps: LimitChangeDeps,
  change: StaffDcLimIncDecRequest,
  claim?: { key: string; owner: string },
): Promise<{ outcome: ChangeOutcome; replayed: boolean }> {
  const result = await retriedOnLockConflict(deps.maxAttempts, () => {
    const at = platformMoment(deps.timeZone);
    return callLimitChange(deps.knex, {
      mbrNo: change.mbrNo,
      rsrvUseGbCd: change.rsrvUseGbCd,
      requested: change.ocurAmt,
      ordNo: change.ordNo,
      claimNo: change.claimNo || null,
      ordFvrCostSeq: change.ordFvrCostSeq || null,
      idemKey: claim?.key ?? null,
      owner: claim?.owner ?? null,
      at: at.millis,
      atSeconds: at.seconds,
    });
  });
  switch (result.outcome) {
    case 'APPLIED':
    case 'REPLAYED':
      return { outcome: { applied: result.applied, remaining: result.remaining }, replayed: result.outcome === 'REPLAYED' };
    case 'LEASE_LOST':
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', {
        message: 'This request outlived its Idempotency-Key lease and a retry took the key over',
      });
    default:
      return { outcome: { error: result.outcome }, replayed: false };
  }
}
