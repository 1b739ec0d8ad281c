import type { Knex } from '@bo/db';
import type { EnterpriseStatusRow } from '@bo/contracts';
import { requestedDays } from './report-range.ts';
import { enterpriseTotals, siteName } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface EnterpriseStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  entrNo?: string | undefined;
  siteNo?: string | undefined;
}

/** Rows per supplier from the daily supplier aggregate, net amount descending. */
export async function enterpriseStatus(knex: Knex, q: EnterpriseStatusQuery): Promise<EnterpriseStatusRow[]> {
  const range = requestedDays(q.startDate, q.endDate);
  const [rows, siteNm] = await Promise.all([
    enterpriseTotals(knex, { agrtGb: q.agrtGb, range, siteNo: q.siteNo }, { entrNo: q.entrNo }),
    siteName(knex, q.siteNo),
  ]);
  return rows.map((r) => ({ entrNo: r.entrNo, entrNm: r.entrNm, siteNm, ...netMeasures(measuresOf(r)) }));
}
