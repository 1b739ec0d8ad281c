import { addDays, addMonths, streamRows, type Knex } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';
import { LIST_AGGREGATES, MEASURE_FIELDS, measureSums, type ListKind } from '@bo/aggregates';
import { whereInCategories, withCategoryDescendants } from '../../shared/category-tree.ts';
import type { CategoryTotals, DailyScope, DayRange, EnterpriseTotals, GoodsTotals, PayWayTotals, RowQuery } from '../model.ts';

/**
 * The SQL of the four aggregate lists (category, payment method, goods, supplier). The database
 * groups and sums; callers get one plain row per key, net amount descending. Day ranges are
 * half-open (`col >= from AND col < to`) so the aggregates' primary keys serve every read.
 */

/** The measures of a grouped derived table `s`. */
const S_MEASURES = MEASURE_FIELDS.map((m) => `s.${m}`);

/** Net amount of a grouped row, the sort key of every aggregate list. */
const NET_DESC = 's.ordAmt - s.cnclAmt DESC';

/** `stat_ctg_tree` = the requested category and every category below it. */
const CATEGORY_TREE = 'stat_ctg_tree';

function withCategoryTree(q: Knex.QueryBuilder, stdCtgNo: string | undefined): void {
  if (stdCtgNo)
    withCategoryDescendants(q, CATEGORY_TREE, (tree) => tree.select('std_ctg_no').from('std_ctg').where('std_ctg_no', stdCtgNo));
}

const inCategoryTree = (q: Knex.QueryBuilder, column: string) => whereInCategories(q, column, CATEGORY_TREE);

/** A calendar month `[yyyy-MM-01, next month's 1st)` and the days of a range inside it. */
export interface MonthPiece {
  month: DayRange;
  days: DayRange;
}

/**
 * `range` cut at month starts: `months`, the whole calendar months inside it (`[first month's
 * 1st, day after the last one)`), when there is one, and `partial`, the pieces of the other
 * months (at most the first and the last), each with its calendar month. Together they cover
 * `range` exactly once.
 */
export function splitByMonths(range: DayRange): { months?: DayRange; partial: MonthPiece[] } {
  const out: { months?: DayRange; partial: MonthPiece[] } = { partial: [] };
  for (let start = `${range.fromDay.slice(0, 7)}-01`; start < range.toDay;) {
    const month = { fromDay: start, toDay: `${addMonths(start.slice(0, 7), 1)}-01` };
    const days = {
      fromDay: range.fromDay > month.fromDay ? range.fromDay : month.fromDay,
      toDay: range.toDay < month.toDay ? range.toDay : month.toDay,
    };
    if (days.fromDay === month.fromDay && days.toDay === month.toDay)
      out.months = { fromDay: out.months?.fromDay ?? month.fromDay, toDay: month.toDay };
    else out.partial.push({ month, days });
    start = month.toDay;
  }
  return out;
}

/** The sums of a grouped union `p` of parts, named as the parts name them. */
const SUMMED_MEASURES = MEASURE_FIELDS.map((m) => `SUM(p.${m}) AS ${m}`).join(', ');

/**
 * The sums per key of one list aggregate over `scope`, from the fewest rows that give them
 * exactly. Whole months come from the monthly roll-up (a 12-month list reads 12 rows per key
 * instead of 365). A monthly row is the sum of its month's daily rows, so it also serves a part
 * of a month when the month has no daily rows outside that part — the usual "last 31 days" or
 * "this month" ending yesterday, the last built day: the month so far is one row per key, not up
 * to 30. Whether it has is asked inside the same statement (one snapshot, so a day built
 * meanwhile cannot slip in): the piece reads its monthly rows when the month has no daily rows
 * outside it, and its daily rows otherwise; a piece of one day reads its daily rows, no fewer.
 * Each part is grouped on its own through its primary key (agrtGb, date, site …) or a
 * filter-led covering index, then the parts are summed again.
 * `narrow` adds the list's filters to every part, on alias `a`; the list's attributes (a goods'
 * supplier) are taken as their MAX per key. The every-site rows (read without a site condition)
 * equal the per-site rows of their day (the worker writes all of them in one transaction), so the
 * numbers are those of the per-site daily rows alone.
 */
function listSums(knex: Knex, list: ListKind, scope: DailyScope, narrow: (q: Knex.QueryBuilder) => void): Knex.QueryBuilder {
  const { keys, attributes: carried } = LIST_AGGREGATES[list];
  // Without a site condition the every-site rows serve: one row per key instead of one per site.
  const tables = (!scope.siteNo && LIST_AGGREGATES[list].allSites) || LIST_AGGREGATES[list];
  const { months, partial } = splitByMonths(scope.range);
  const part = (table: string, column: string, range: DayRange) => {
    const q = knex
      .from(`${table} as a`)
      .select(...keys.map((k) => `a.${k}`), ...carried.map((c) => knex.raw(`MAX(a.${c}) AS ${c}`)), knex.raw(measureSums('a')))
      .where('a.agrt_gb_cd', scope.agrtGb)
      .where(`a.${column}`, '>=', range.fromDay)
      .where(`a.${column}`, '<', range.toDay)
      .groupBy(keys.map((k) => `a.${k}`));
    if (scope.siteNo) q.where('a.site_no', scope.siteNo);
    narrow(q);
    return q;
  };
  /** Daily rows of the piece's month outside the piece (any key, any site: a cheap, safe test). */
  const outside = ({ month, days }: MonthPiece) =>
    knex
      .select(knex.raw('1'))
      .from(`${tables.daily} as o`)
      .where('o.agrt_gb_cd', scope.agrtGb)
      .where((any) => {
        for (const [from, to] of [
          [month.fromDay, days.fromDay],
          [days.toDay, month.toDay],
        ] as const) {
          if (from < to)
            any.orWhere((w) => {
              w.where('o.agrt_dt', '>=', from).where('o.agrt_dt', '<', to);
            });
        }
      });
  const parts = [
    ...(months ? [part(tables.monthly, 'agrt_mon', months)] : []),
    ...partial.flatMap((piece) =>
      // One day is one daily row per key: its month's row cannot be fewer, so no test is asked.
      addDays(piece.days.fromDay, 1) === piece.days.toDay
        ? [part(tables.daily, 'agrt_dt', piece.days)]
        : [
            part(tables.monthly, 'agrt_mon', piece.month).whereNotExists(outside(piece)),
            part(tables.daily, 'agrt_dt', piece.days).whereExists(outside(piece)),
          ],
    ),
  ];
  if (parts.length === 1) return parts[0]!;
  return knex
    .from(knex.queryBuilder().unionAll(parts, true).as('p'))
    .select(...keys.map((k) => `p.${k}`), ...carried.map((c) => knex.raw(`MAX(p.${c}) AS ${c}`)), knex.raw(SUMMED_MEASURES))
    .groupBy(keys.map((k) => `p.${k}`));
}

/** A read as a RowQuery; the stream runs under the pool's stream limit (`streamRows`), as long as the download's client takes to read. */
const rowQuery = <T>(knex: Knex, q: Knex.QueryBuilder): RowQuery<T> => ({
  then: (onFulfilled, onRejected) => (q as unknown as PromiseLike<T[]>).then(onFulfilled, onRejected),
  stream: () => streamRows<T>(knex, q),
});

/** Category aggregate per (std_ctg_no, md_id), net amount descending; `limit` for TOP-N. */
export function categoryTotals(
  knex: Knex,
  scope: DailyScope,
  f: { stdCtgNo?: string | undefined; mdId?: string | undefined },
  limit?: number,
): RowQuery<CategoryTotals> {
  const sums = listSums(knex, 'category', scope, (q) => {
    if (f.mdId) q.where('a.md_id', f.mdId);
    if (f.stdCtgNo) inCategoryTree(q, 'a.std_ctg_no');
  });
  const q = knex
    .select(...S_MEASURES, { stdCtgNo: 's.std_ctg_no', mdId: 's.md_id', stdCtgNm: 'c.std_ctg_nm', mdNm: 'u.user_nm' })
    .from(sums.as('s'))
    .leftJoin('std_ctg as c', 'c.std_ctg_no', 's.std_ctg_no')
    .leftJoin('bo_user as u', 'u.user_id', 's.md_id')
    .orderByRaw(`${NET_DESC}, s.std_ctg_no, s.md_id`);
  withCategoryTree(q, f.stdCtgNo);
  if (limit !== undefined) q.limit(limit);
  return rowQuery(knex, q);
}

/** Payment-method aggregate per pay_way_cd, with its OM013 name. */
export function payWayTotals(knex: Knex, scope: DailyScope, f: { payWayCd?: string | undefined }): RowQuery<PayWayTotals> {
  const sums = listSums(knex, 'payway', scope, (q) => {
    if (f.payWayCd) q.where('a.pay_way_cd', f.payWayCd);
  });
  return rowQuery(
    knex,
    knex
      .select(...S_MEASURES, { payWayCd: 's.pay_way_cd', payWayNm: 'c.cd_nm' })
      .from(sums.as('s'))
      .leftJoin('cm_cd as c', (on) => on.on('c.cd', 's.pay_way_cd').andOnVal('c.grp_cd', CODE_GROUPS.PAYMENT_METHOD))
      .orderByRaw(`${NET_DESC}, s.pay_way_cd`),
  );
}

/**
 * Goods aggregate per goods_no. The supplier is the one the aggregate recorded (the goods'
 * supplier at aggregation time), so the supplier filter and the shown supplier agree.
 */
export function goodsTotals(
  knex: Knex,
  scope: DailyScope,
  f: { goodsNo?: string | undefined; entrNo?: string | undefined },
): RowQuery<GoodsTotals> {
  const sums = listSums(knex, 'goods', scope, (q) => {
    if (f.goodsNo) q.where('a.goods_no', f.goodsNo);
    if (f.entrNo) q.where('a.entr_no', f.entrNo);
  });
  return rowQuery(
    knex,
    knex
      .select(...S_MEASURES, {
        goodsNo: 's.goods_no',
        entrNo: 's.entr_no',
        goodsNm: 'g.goods_nm',
        imgPath: 'g.img_path',
        entrNm: 'n.entr_nm',
      })
      .from(sums.as('s'))
      .leftJoin('goods as g', 'g.goods_no', 's.goods_no')
      .leftJoin('entr as n', 'n.entr_no', 's.entr_no')
      .orderByRaw(`${NET_DESC}, s.goods_no`),
  );
}

/** Supplier aggregate per entr_no. */
export function enterpriseTotals(knex: Knex, scope: DailyScope, f: { entrNo?: string | undefined }): RowQuery<EnterpriseTotals> {
  const sums = listSums(knex, 'entr', scope, (q) => {
    if (f.entrNo) q.where('a.entr_no', f.entrNo);
  });
  return rowQuery(
    knex,
    knex
      .select(...S_MEASURES, { entrNo: 's.entr_no', entrNm: 'n.entr_nm' })
      .from(sums.as('s'))
      .leftJoin('entr as n', 'n.entr_no', 's.entr_no')
      .orderByRaw(`${NET_DESC}, s.entr_no`),
  );
}
