/** The staff-limit component's shapes: member and limit rows, a change as history records it, its outcome, idempotency records. */

export interface MemberRow {
  /** As stored: the lookup is case-insensitive, so this may differ from what the caller sent. */
  mbrNo: string;
  mbrStatCd: string;
  staffYn: string;
}

export interface LimitRow {
  limAmt: number;
  rmndAmt: number;
}

/** What the caller asked for, as the history row records it. */
export interface HistoryRequest {
  mbrNo: string;
  rsrvUseGbCd: string;
  requested: number;
  ordNo: string;
  claimNo: string | null;
  ordFvrCostSeq: string | null;
  idemKey: string | null;
  /** DATETIME(3) platform local time. */
  at: string;
}

export interface IdempotencyRow {
  reqHash: string;
  procStat: 'PROCESSING' | 'DONE';
  ownerId: string | null;
  leaseEndDtm: string;
  respStatus: number | null;
  respBody: string | null;
  expDtm: string;
}

/** The business failures a change can end in; they are outcomes, recorded for idempotent replay like a success. */
export type RecordableError = 'STAFF_NOT_FOUND' | 'LIMIT_INSUFFICIENT' | 'CHANGE_KEY_REUSED';

/**
 * What a change ended in. A success says how much of the request was applied (a capped increase
 * applies less than it asked for) and the remaining amount after it; a change replayed from its
 * natural key or its Idempotency-Key says what the first one applied and left.
 */
export interface ChangeOutcome {
  error?: RecordableError;
  applied?: number;
  remaining?: number;
}

/** What the limit-change procedure answers: an outcome, or that the Idempotency-Key claim was taken over meanwhile. */
export type ProcedureOutcome = 'APPLIED' | 'REPLAYED' | RecordableError | 'LEASE_LOST';
