import type { Knex } from '@bo/db';
import type { EnterpriseStatusRow } from '@bo/contracts';
import { requestedDays } from './report-range.ts';
import { enterpriseTotals, siteName, type EnterpriseTotals } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface EnterpriseStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  entrNo?: string | undefined;
  siteNo?: string | undefined;
}

const totalsOf = (knex: Knex, q: EnterpriseStatusQuery) =>
  enterpriseTotals(knex, { agrtGb: q.agrtGb, range: requestedDays(q.startDate, q.endDate), siteNo: q.siteNo }, { entrNo: q.entrNo });

const enterpriseRow = (r: EnterpriseTotals, siteNm: string | null): EnterpriseStatusRow => ({
  entrNo: r.entrNo,
  entrNm: r.entrNm,
  siteNm,
  ...netMeasures(measuresOf(r)),
});

/** Rows per supplier from the daily supplier aggregate, net amount descending. */
export async function enterpriseStatus(knex: Knex, q: EnterpriseStatusQuery): Promise<EnterpriseStatusRow[]> {
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q), siteName(knex, q.siteNo)]);
  return rows.map((r) => enterpriseRow(r, siteNm));
}

/** The same rows one at a time, as the database sends them (downloads of every supplier). */
export async function* enterpriseStatusRows(knex: Knex, q: EnterpriseStatusQuery): AsyncGenerator<EnterpriseStatusRow> {
  const totals = totalsOf(knex, q);
  const siteNm = await siteName(knex, q.siteNo);
  for await (const r of totals.stream()) yield enterpriseRow(r, siteNm);
}
