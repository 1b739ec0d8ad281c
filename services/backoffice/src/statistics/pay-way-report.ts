import type { Knex } from '@bo/db';
import type { PayWayStatusRow } from '@bo/contracts';
import { siteName } from './data-access/condition-names.ts';
import { payWayTotals } from './data-access/list-sums.ts';
import { withNetMeasures } from './measures.ts';
import type { DayRange, PayWayReportQuery, PayWayTotals } from './model.ts';
import { rangeLabel, requestedDays } from './report-range.ts';

const totalsOf = (knex: Knex, q: PayWayReportQuery, range: DayRange) =>
  payWayTotals(knex, { agrtGb: q.agrtGb, range, siteNo: q.siteNo }, { payWayCd: q.payWayCd });

const payWayRow =
  (q: PayWayReportQuery, agrtDt: string, siteNm: string | null) =>
  (r: PayWayTotals): PayWayStatusRow =>
    withNetMeasures({ siteNo: q.siteNo ?? null, agrtDt, agrtGb: q.agrtGb, payWayCd: r.payWayCd, payWayNm: r.payWayNm, siteNm }, r);

/** Rows per payment method (OM013) from the daily payment-method aggregate, net amount descending. */
export async function payWayReport(knex: Knex, q: PayWayReportQuery): Promise<PayWayStatusRow[]> {
  const range = requestedDays(q.startDate, q.endDate);
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q, range), siteName(knex, q.siteNo)]);
  return rows.map(payWayRow(q, rangeLabel(range), siteNm));
}

/** The same rows one at a time, as the database sends them (the Excel download). */
export async function* payWayReportRows(knex: Knex, q: PayWayReportQuery): AsyncGenerator<PayWayStatusRow> {
  const range = requestedDays(q.startDate, q.endDate);
  const totals = totalsOf(knex, q, range);
  const toRow = payWayRow(q, rangeLabel(range), await siteName(knex, q.siteNo));
  for await (const r of totals.stream()) yield toRow(r);
}
