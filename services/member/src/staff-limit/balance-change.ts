import type { LimitRow } from './repository.ts';

/** ME016: `10` increase (restores limit, e.g. on a cancel), `20` decrease (uses limit on an order). */
export const INCREASE = '10';
export const DECREASE = '20';

export type BalanceChange = { ok: true; before: number; after: number; applied: number } | { ok: false };

/**
 * Spec 4.5 rules 3 and 4: an increase stops at the limit (the applied amount says how much of
 * the request was kept, so a capped part is visible in the history); a decrease below 0 is
 * refused whole.
 */
export function changeBalance(limit: LimitRow, rsrvUseGbCd: string, amount: number): BalanceChange {
  const before = limit.rmndAmt;
  if (rsrvUseGbCd === INCREASE) {
    const after = Math.min(limit.limAmt, before + amount);
    return { ok: true, before, after, applied: after - before };
  }
  if (before - amount < 0) return { ok: false };
  return { ok: true, before, after: before - amount, applied: amount };
}
