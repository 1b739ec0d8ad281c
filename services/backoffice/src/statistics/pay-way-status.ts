import type { Knex } from '@bo/db';
import type { PayWayStatusRow } from '@bo/contracts';
import { rangeLabel, requestedDays } from './report-range.ts';
import { payWayTotals, siteName } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface PayWayStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  payWayCd?: string | undefined;
  siteNo?: string | undefined;
}

/** Rows per payment method (OM013) from the daily payment-method aggregate, net amount descending. */
export async function payWayStatus(knex: Knex, q: PayWayStatusQuery): Promise<PayWayStatusRow[]> {
  const range = requestedDays(q.startDate, q.endDate);
  const [rows, siteNm] = await Promise.all([
    payWayTotals(knex, { agrtGb: q.agrtGb, range, siteNo: q.siteNo }, { payWayCd: q.payWayCd }),
    siteName(knex, q.siteNo),
  ]);
  const agrtDt = rangeLabel(range);
  return rows.map((r) => ({
    siteNo: q.siteNo ?? null,
    agrtDt,
    agrtGb: q.agrtGb,
    payWayCd: r.payWayCd,
    payWayNm: r.payWayNm,
    siteNm,
    ...netMeasures(measuresOf(r)),
  }));
}
