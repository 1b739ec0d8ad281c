import type { EventBucket, Measures } from './model.ts';

/** The fields docs/data-model.md §3 derives from the six sums. */
export interface NetMeasures {
  dcAmt2nd: number;
  dcAmt3rd: number;
  ordAmt: number;
  cnclAmt: number;
  finalOrdAmt: number;
  ordQty: number;
  cnclQty: number;
  finalOrdQty: number;
}

export const ZERO_MEASURES: Measures = { ordAmt: 0, ordQty: 0, cnclAmt: 0, cnclQty: 0, dcAmt2nd: 0, dcAmt3rd: 0 };

/**
 * `row` with the net measures of `m` (occurrences − cancellations) written onto it, in the wire's
 * field order. Assigned, not spread: spreading them into a row literal cost ten times the row
 * itself (820 category rows: 0.45 -> 0.04 ms). The sums arrive from the database, nothing is
 * recounted here.
 */
export function withNetMeasures<R extends object>(row: R, m: Measures): R & NetMeasures {
  const out = row as R & NetMeasures;
  out.dcAmt2nd = m.dcAmt2nd;
  out.dcAmt3rd = m.dcAmt3rd;
  out.ordAmt = m.ordAmt;
  out.cnclAmt = m.cnclAmt;
  out.finalOrdAmt = m.ordAmt - m.cnclAmt;
  out.ordQty = m.ordQty;
  out.cnclQty = m.cnclQty;
  out.finalOrdQty = m.ordQty - m.cnclQty;
  return out;
}

/** The net measures alone. */
export const netMeasures = (m: Measures): NetMeasures => withNetMeasures({}, m);

/** A period's total is the sum of its (already summed) buckets. */
export const addMeasures = (a: Measures, b: Measures): Measures => ({
  ordAmt: a.ordAmt + b.ordAmt,
  ordQty: a.ordQty + b.ordQty,
  cnclAmt: a.cnclAmt + b.cnclAmt,
  cnclQty: a.cnclQty + b.cnclQty,
  dcAmt2nd: a.dcAmt2nd + b.dcAmt2nd,
  dcAmt3rd: a.dcAmt3rd + b.dcAmt3rd,
});

/** `m` times `k` (−1: what a correction takes away). */
export const scaleMeasures = (m: Measures, k: number): Measures => ({
  ordAmt: k * m.ordAmt,
  ordQty: k * m.ordQty,
  cnclAmt: k * m.cnclAmt,
  cnclQty: k * m.cnclQty,
  dcAmt2nd: k * m.dcAmt2nd,
  dcAmt3rd: k * m.dcAmt3rd,
});

/** Only the six measure columns of a database row (which may carry keys and names too). */
export const measuresOf = (row: Measures): Measures => ({
  ordAmt: row.ordAmt,
  ordQty: row.ordQty,
  cnclAmt: row.cnclAmt,
  cnclQty: row.cnclQty,
  dcAmt2nd: row.dcAmt2nd,
  dcAmt3rd: row.dcAmt3rd,
});

/** The sums and page views of a run of buckets (a period's total). */
export const totalOf = (buckets: readonly EventBucket[]): { measures: Measures; infCnt: number } => ({
  measures: buckets.reduce((sum, b) => addMeasures(sum, b.measures), ZERO_MEASURES),
  infCnt: buckets.reduce((sum, b) => sum + b.infCnt, 0),
});
