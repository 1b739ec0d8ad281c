import { RSRV_USE_GB } from '@bo/contracts';
import type { BalanceRule } from './model.ts';

/**
 * Spec 4.5 rules 3 and 4: an increase stops at the limit (the applied amount says how much of
 * the request was kept, so a capped part is visible in the history); a decrease below 0 is
 * refused whole. Written as SQL so that one statement reads the locked balance, checks the
 * rule and writes the history row, instead of a locking read and a round trip per step.
 */
export function balanceRule(rsrvUseGbCd: string): BalanceRule {
  // ME016: `10` increase (restores limit, e.g. on a cancel), `20` decrease (uses limit on an order).
  if (rsrvUseGbCd === RSRV_USE_GB.INCREASE) {
    const after = 'LEAST(l.lim_amt, l.rmnd_amt + :amount)';
    return { after, applied: `${after} - l.rmnd_amt`, allowed: 'TRUE' };
  }
  return { after: 'l.rmnd_amt - :amount', applied: ':amount', allowed: 'l.rmnd_amt >= :amount' };
}
