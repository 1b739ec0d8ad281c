import type { Knex } from '@bo/db';
import type { CategoryStatusRow } from '@bo/contracts';
import { requestedDays } from './report-range.ts';
import { categoryTotals, siteName } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface CategoryStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  stdCtgNo?: string | undefined;
  mdId?: string | undefined;
  siteNo?: string | undefined;
}

/**
 * Rows per (standard category, MD) from the daily category aggregate, net amount descending;
 * `stdCtgNo` covers the category's descendants. `limit` gives the TOP-N form.
 */
export async function categoryStatus(knex: Knex, q: CategoryStatusQuery, limit?: number): Promise<CategoryStatusRow[]> {
  const range = requestedDays(q.startDate, q.endDate);
  const [rows, siteNm] = await Promise.all([
    categoryTotals(knex, { agrtGb: q.agrtGb, range, siteNo: q.siteNo }, { stdCtgNo: q.stdCtgNo, mdId: q.mdId }, limit),
    siteName(knex, q.siteNo),
  ]);
  return rows.map((r) => ({
    stdCtgNo: r.stdCtgNo,
    stdCtgNm: r.stdCtgNm,
    siteNm,
    // The aggregate stores goods without an MD as '' (a key column cannot be NULL).
    mdId: r.mdId || null,
    mdNm: r.mdNm,
    ...netMeasures(measuresOf(r)),
  }));
}
