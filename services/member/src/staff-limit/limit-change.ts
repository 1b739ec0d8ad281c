import type { StaffDcLimIncDecRequest } from '@bo/contracts';
import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import type { MemberConfig } from '../config.ts';
import { balanceRule } from './balance-change.ts';
import { claimKey, fingerprint, recordOutcome, releaseClaim, type KeyStore } from './idempotency.ts';
import { platformMoment } from './platform-clock.ts';
import { findMemberWithLimit, insertHistoryFromLockedLimit, setRemainingFromHistory } from './data-access/staff-limits.ts';
import type { ChangeOutcome } from './model.ts';
import { isActiveStaff } from './staff-eligibility.ts';
import { inRetriedTransaction } from './transaction-retry.ts';

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
 * per Idempotency-Key. `replayed` says the outcome is the recorded one of an earlier request.
 */
export async function changeStaffLimit(
  deps: LimitChangeDeps,
  change: StaffDcLimIncDecRequest,
  key?: string,
): Promise<{ outcome: ChangeOutcome; replayed: boolean }> {
  if (!key) return { outcome: await applyChange(deps, change), replayed: false };
  const claim = await claimKey(deps.keys, key, fingerprint(change), change.mbrNo);
  if ('replay' in claim) return { outcome: claim.replay, replayed: true };
  try {
    return { outcome: await applyChange(deps, change, { key, owner: claim.owner }), replayed: false };
  } catch (err) {
    await releaseClaim(deps.keys, key, claim.owner).catch((e: unknown) =>
      deps.logger.warn('releasing an idempotency key failed; its lease will free it', { message: (e as Error).message }),
    );
    throw err;
  }
}

/**
 * One transaction: the limit row is locked (concurrent changes of a member queue on it), the
 * new balance, its history row and the key's outcome commit together or not at all. Every
 * statement is a round trip made while the row is locked, so the change takes two: the history
 * row written from the locked balance by the rule, then the balance set from that row.
 */
function applyChange(
  deps: LimitChangeDeps,
  change: StaffDcLimIncDecRequest,
  claim?: { key: string; owner: string },
): Promise<ChangeOutcome> {
  return inRetriedTransaction(deps.knex, deps.maxAttempts, async (trx) => {
    const outcome = await applyToLockedLimit(trx, deps, change, claim?.key ?? null);
    if (claim) await recordOutcome(trx, claim.key, claim.owner, outcome);
    return outcome;
  });
}

async function applyToLockedLimit(
  trx: Knex.Transaction,
  deps: LimitChangeDeps,
  change: StaffDcLimIncDecRequest,
  key: string | null,
): Promise<ChangeOutcome> {
  const at = platformMoment(deps.timeZone);
  const request = {
    mbrNo: change.mbrNo,
    rsrvUseGbCd: change.rsrvUseGbCd,
    requested: change.ocurAmt,
    ordNo: change.ordNo,
    claimNo: change.claimNo || null,
    ordFvrCostSeq: change.ordFvrCostSeq || null,
    idemKey: key,
    at: at.millis,
  };
  const histNo = await insertHistoryFromLockedLimit(trx, request, balanceRule(change.rsrvUseGbCd));
  if (histNo !== undefined) {
    await setRemainingFromHistory(trx, histNo, at.seconds);
    return {};
  }
  // Nothing written: the refusal's reason, read after the limit row was locked (when there is one).
  const member = await findMemberWithLimit(trx, change.mbrNo);
  return !member || !isActiveStaff(member) || member.limAmt == null ? { error: 'STAFF_NOT_FOUND' } : { error: 'LIMIT_INSUFFICIENT' };
}
