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
export type RecordableError = 'STAFF_NOT_FOUND' | 'LIMIT_INSUFFICIENT';
export interface ChangeOutcome {
  error?: RecordableError;
}

/** A rule as SQL over the limit row `l`, with the requested amount bound as `:amount`. */
export interface BalanceRule {
  /** The remaining amount after the change. */
  after: string;
  /** How much of the request is kept (a capped increase keeps less than it asked for). */
  applied: string;
  /** When the change may happen at all. */
  allowed: string;
}
