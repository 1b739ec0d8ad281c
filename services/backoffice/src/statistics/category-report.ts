import type { Knex } from '@bo/db';
import type { CategoryStatusRow } from '@bo/contracts';
import { siteName } from './data-access/condition-names.ts';
import { categoryTotals } from './data-access/list-sums.ts';
import { withNetMeasures } from './measures.ts';
import type { CategoryReportQuery, CategoryTotals } from './model.ts';
import { requestedDays } from './report-range.ts';

const totalsOf = (knex: Knex, q: CategoryReportQuery, limit?: number) =>
  categoryTotals(
    knex,
    { agrtGb: q.agrtGb, range: requestedDays(q.startDate, q.endDate), siteNo: q.siteNo },
    { stdCtgNo: q.stdCtgNo, mdId: q.mdId },
    limit,
  );

const categoryRow = (r: CategoryTotals, siteNm: string | null): CategoryStatusRow =>
  withNetMeasures(
    {
      stdCtgNo: r.stdCtgNo,
      stdCtgNm: r.stdCtgNm,
      siteNm,
      // The aggregate stores goods without an MD as '' (a key column cannot be NULL).
      mdId: r.mdId || null,
      mdNm: r.mdNm,
    },
    r,
  );

/**
 * Rows per (standard category, MD) from the daily category aggregate, net amount descending;
 * `stdCtgNo` covers the category's descendants. `limit` gives the TOP-N form.
 */
export async function categoryReport(knex: Knex, q: CategoryReportQuery, limit?: number): Promise<CategoryStatusRow[]> {
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q, limit), siteName(knex, q.siteNo)]);
  return rows.map((r) => categoryRow(r, siteNm));
}

/** All rows one at a time, as the database sends them (the Excel download). */
export async function* categoryReportRows(knex: Knex, q: CategoryReportQuery): AsyncGenerator<CategoryStatusRow> {
  const totals = totalsOf(knex, q);
  const siteNm = await siteName(knex, q.siteNo);
  for await (const r of totals.stream()) yield categoryRow(r, siteNm);
}
