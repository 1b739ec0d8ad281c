import type { Knex } from '@bo/db';
import type { EnterpriseStatusRow } from '@bo/contracts';
import { siteName } from './data-access/condition-names.ts';
import { enterpriseTotals } from './data-access/list-sums.ts';
import { withNetMeasures } from './measures.ts';
import type { EnterpriseReportQuery, EnterpriseTotals } from './model.ts';
import { requestedDays } from './report-range.ts';

const totalsOf = (knex: Knex, q: EnterpriseReportQuery) =>
  enterpriseTotals(knex, { agrtGb: q.agrtGb, range: requestedDays(q.startDate, q.endDate), siteNo: q.siteNo }, { entrNo: q.entrNo });

const enterpriseRow = (r: EnterpriseTotals, siteNm: string | null): EnterpriseStatusRow =>
  withNetMeasures({ entrNo: r.entrNo, entrNm: r.entrNm, siteNm }, r);

/** Rows per supplier from the daily supplier aggregate, net amount descending. */
export async function enterpriseReport(knex: Knex, q: EnterpriseReportQuery): Promise<EnterpriseStatusRow[]> {
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q), siteName(knex, q.siteNo)]);
  return rows.map((r) => enterpriseRow(r, siteNm));
}

/** The same rows one at a time, as the database sends them (downloads of every supplier). */
export async function* enterpriseReportRows(knex: Knex, q: EnterpriseReportQuery): AsyncGenerator<EnterpriseStatusRow> {
  const totals = totalsOf(knex, q);
  const siteNm = await siteName(knex, q.siteNo);
  for await (const r of totals.stream()) yield enterpriseRow(r, siteNm);
}
