import { AGRT_GB, type AgrtGb } from '@bo/contracts';

/**
 * The six sums every order-event aggregate row carries, by column, with the field name reads
 * return them under. Discounts are net (occurrences − cancellations): docs/data-model.md §3.
 */
export const MEASURES = {
  ord_amt: 'ordAmt',
  ord_qty: 'ordQty',
  cncl_amt: 'cnclAmt',
  cncl_qty: 'cnclQty',
  dc_amt_2nd: 'dcAmt2nd',
  dc_amt_3rd: 'dcAmt3rd',
} as const;

export type MeasureColumn = keyof typeof MEASURES;
export type MeasureField = (typeof MEASURES)[MeasureColumn];
/** The six sums of a read row, under their field names. */
export type Measures = Record<MeasureField, number>;

export const MEASURE_COLUMNS = Object.keys(MEASURES) as MeasureColumn[];
export const MEASURE_FIELDS = Object.values(MEASURES);

/** The two report kinds every event aggregate is built for: `01` order status, `02` sales status. */
export const AGRT_GBS: readonly AgrtGb[] = [AGRT_GB.ORDER, AGRT_GB.SALES];

/**
 * Each measure as a sum over raw order-status events `e` (`ord_stat_evt`): occurrences (`10`)
 * add, cancellations (`20`) go to their own columns, discounts are net.
 */
export const EVENT_MEASURE_SUMS: Record<MeasureColumn, string> = {
  ord_amt: "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.amt ELSE 0 END)",
  ord_qty: "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.qty ELSE 0 END)",
  cncl_amt: "SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.amt ELSE 0 END)",
  cncl_qty: "SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.qty ELSE 0 END)",
  dc_amt_2nd: "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_2nd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_2nd ELSE 0 END)",
  dc_amt_3rd: "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_3rd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_3rd ELSE 0 END)",
};

/** `SUM(<alias>.<column>) AS <field>, …`: the six sums of aggregate rows `alias`, as reads name them. */
export const measureSums = (alias: string): string => MEASURE_COLUMNS.map((c) => `SUM(${alias}.${c}) AS ${MEASURES[c]}`).join(', ');
