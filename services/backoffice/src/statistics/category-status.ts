import type { Knex } from '@bo/db';
import type { CategoryStatusRow } from '@bo/contracts';
import { requestedDays } from './report-range.ts';
import { categoryTotals, siteName, type CategoryTotals } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface CategoryStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  stdCtgNo?: string | undefined;
  mdId?: string | undefined;
  siteNo?: string | undefined;
}

const totalsOf = (knex: Knex, q: CategoryStatusQuery, limit?: number) =>
  categoryTotals(
    knex,
    { agrtGb: q.agrtGb, range: requestedDays(q.startDate, q.endDate), siteNo: q.siteNo },
    { stdCtgNo: q.stdCtgNo, mdId: q.mdId },
    limit,
  );

const categoryRow = (r: CategoryTotals, siteNm: string | null): CategoryStatusRow => ({
  stdCtgNo: r.stdCtgNo,
  stdCtgNm: r.stdCtgNm,
  siteNm,
  // The aggregate stores goods without an MD as '' (a key column cannot be NULL).
  mdId: r.mdId || null,
  mdNm: r.mdNm,
  ...netMeasures(measuresOf(r)),
});

/**
 * Rows per (standard category, MD) from the daily category aggregate, net amount descending;
 * `stdCtgNo` covers the category's descendants. `limit` gives the TOP-N form.
 */
export async function categoryStatus(knex: Knex, q: CategoryStatusQuery, limit?: number): Promise<CategoryStatusRow[]> {
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q, limit), siteName(knex, q.siteNo)]);
  return rows.map((r) => categoryRow(r, siteNm));
}

/** All rows one at a time, as the database sends them (the Excel download). */
export async function* categoryStatusRows(knex: Knex, q: CategoryStatusQuery): AsyncGenerator<CategoryStatusRow> {
  const totals = totalsOf(knex, q);
  const siteNm = await siteName(knex, q.siteNo);
  for await (const r of totals.stream()) yield categoryRow(r, siteNm);
}
