import { createHash, randomUUID } from 'node:crypto';
import { ERRORS, type StaffDcLimIncDecRequest } from '@bo/contracts';
import type { Knex } from '@bo/db';
import { AppError, fieldError } from '@bo/service-kit';
import {
  deleteExpiredIdempotencyKey,
  deleteIdempotencyClaim,
  findIdempotencyKey,
  insertIdempotencyClaim,
  takeOverIdempotencyClaim,
} from './data-access/idempotency-keys.ts';
import type { ChangeOutcome, IdempotencyRow, RecordableError } from './model.ts';
import { platformMoment } from './platform-clock.ts';

/**
 * The IETF `Idempotency-Key` header for `dcLimIncDec`.
 *
 * Scope: one key space for the whole member service. Internal callers share one access token,
 * so there is no caller identity to scope by; the fingerprint covers the whole request
 * (member included), so a key reused for another member or amount is refused with 422
 * instead of silently starting a second change.
 *
 * Life of a key: claimed (`PROCESSING`, with an owner and a lease) in its own statement, then
 * turned into `DONE` with the outcome inside the transaction that changes the balance (the
 * limit-change procedure, migration 0103). A
 * duplicate that finds `PROCESSING` gets 409; one that finds `DONE` gets the recorded outcome.
 * If the owner dies, its lease runs out and the next retry takes the claim over; the dead
 * owner can no longer record (or apply) anything because recording checks ownership inside
 * its transaction. Keys expire after IDEMPOTENCY_KEY_TTL_HOURS: a request with an expired key
 * deletes that row and starts afresh; the background sweep (`key-sweeper.ts`) deletes the rest.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

const MAX_KEY = 200;
// The draft's sf-string form ("…", escapes not supported) or the bare value most clients send.
const QUOTED = new RegExp(`^"([\\x20\\x21\\x23-\\x5B\\x5D-\\x7E]{1,${MAX_KEY}})"$`);
const BARE = new RegExp(`^[\\x21\\x23-\\x7E]{1,${MAX_KEY}}$`);

export function parseIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const key = QUOTED.exec(value)?.[1] ?? (BARE.test(value) ? value : undefined);
  if (key === undefined)
    throw fieldError(IDEMPOTENCY_HEADER, `must be 1 to ${MAX_KEY} visible ASCII characters, optionally in double quotes`);
  return key;
}

/** Hash of the canonical request: fixed field order, absent and empty optional fields alike. */
export function fingerprint(change: StaffDcLimIncDecRequest): string {
  const canonical = [change.mbrNo, change.rsrvUseGbCd, change.ocurAmt, change.ordNo, change.claimNo || null, change.ordFvrCostSeq || null];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

export interface KeyStore {
  knex: Knex;
  timeZone: string;
  ttlHours: number;
  /** How long a claim stays with its owner before a retry may take it over. */
  leaseSeconds: number;
}

export type Claim = { owner: string } | { replay: ChangeOutcome };

const RECORDABLE: readonly RecordableError[] = ['STAFF_NOT_FOUND', 'LIMIT_INSUFFICIENT', 'CHANGE_KEY_REUSED'];

/**
 * The recorded outcome (written by the limit-change procedure, migration 0103): 200 with what
 * was applied and left, or 900 with the outcome's name. Records from before the procedure hold
 * the ErrorCode body instead, or nothing for a success.
 */
function decode(row: IdempotencyRow): ChangeOutcome {
  const body = JSON.parse(row.respBody ?? '{}') as { outcome?: string; code?: string; applied?: number | null; remaining?: number | null };
  if (row.respStatus === 200)
    return { ...(body.applied == null ? {} : { applied: body.applied }), ...(body.remaining == null ? {} : { remaining: body.remaining }) };
  const error = RECORDABLE.find((name) => name === body.outcome || ERRORS[name].code === body.code);
  if (!error) throw new Error(`unknown recorded outcome ${row.respStatus} ${row.respBody}`);
  return { error };
}

const isDuplicateKey = (err: unknown) => (err as { errno?: number } | undefined)?.errno === 1062;

/** Claim the key for this request, or learn that it was (or is being) handled already. */
export async function claimKey(store: KeyStore, key: string, reqHash: string, mbrNo: string): Promise<Claim> {
  const owner = randomUUID();
  // A few rounds cover the races where the row we collided with vanished or changed hands.
  for (let round = 0; round < 3; round++) {
    const now = platformMoment(store.timeZone);
    const leaseEnd = now.plus(store.leaseSeconds);
    try {
      await insertIdempotencyClaim(store.knex, {
        key,
        reqHash,
        mbrNo,
        ownerId: owner,
        leaseEnd,
        at: now.seconds,
        expires: now.plus(store.ttlHours * 3600),
      });
      return { owner };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const row = await findIdempotencyKey(store.knex, key);
    if (!row) continue;
    if (row.expDtm <= now.seconds) {
      await deleteExpiredIdempotencyKey(store.knex, key, now.seconds);
      continue;
    }
    if (row.reqHash !== reqHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (row.procStat === 'DONE') return { replay: decode(row) };
    if (row.leaseEndDtm > now.seconds) throw new AppError('IDEMPOTENCY_IN_PROGRESS');
    if (await takeOverIdempotencyClaim(store.knex, key, row.ownerId, owner, leaseEnd, now.seconds)) return { owner };
  }
  throw new AppError('IDEMPOTENCY_IN_PROGRESS');
}

/** After a failure that recorded nothing, free the key so the caller's retry runs at once. */
export async function releaseClaim(store: KeyStore, key: string, owner: string): Promise<void> {
  await deleteIdempotencyClaim(store.knex, key, owner);
}
