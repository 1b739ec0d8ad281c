import { compiledRead, planValues, streamRows, type Knex, type Render } from '@bo/db';
import { CODE_GROUPS } from '@bo/contracts';
import {
  everySiteTables,
  LIST_AGGREGATES,
  MEASURE_COLUMNS,
  MEASURE_FIELDS,
  MEASURES,
  measureSums,
  RUNNING_SUMS_STALE,
  type ListKind,
} from '@bo/aggregates';
import { whereInCategories, withCategoryDescendants } from '../../shared/category-tree.ts';
import type { CategoryTotals, DailyScope, EnterpriseTotals, GoodsTotals, PayWayTotals, RowQuery } from '../model.ts';
import { boundFilters, listPlan, runningDaysPlan, type Level, type ListPlan, type PlanRange } from './list-plan.ts';

/**
 * The SQL of the four aggregate lists (category, payment method, goods, supplier), rendered from
 * their plans (`list-plan.ts`: which rows a range reads). The database groups and sums; callers
 * get one plain row per key, net amount descending. Day ranges are half-open (`col >= from AND
 * col < to`) so the aggregates' primary keys serve every read.
 */

/** The measures of a grouped derived table `s`. */
const S_MEASURES = MEASURE_FIELDS.map((m) => `s.${m}`);

/** Net amount of a grouped row, the sort key of every aggregate list. */
const NET_DESC = 's.ordAmt - s.cnclAmt DESC';

/** `stat_ctg_tree` = the requested category and every category below it. */
const CATEGORY_TREE = 'stat_ctg_tree';

function withCategoryTree(q: Knex.QueryBuilder, stdCtgNo: string | undefined): void {
  if (stdCtgNo !== undefined)
    withCategoryDescendants(q, CATEGORY_TREE, (tree) => tree.select('std_ctg_no').from('std_ctg').where('std_ctg_no', stdCtgNo));
}

const inCategoryTree = (q: Knex.QueryBuilder, column: string) => whereInCategories(q, column, CATEGORY_TREE);

/**
 * Lists whose parts' rows go as they are to the one grouping of all parts, which sorts them
 * (SQL_BIG_RESULT) instead of hashing them into a temporary table. A goods list's part holds about
 * one row per goods (or per goods and site), mostly out of key order (a day range, a site's rows,
 * a supplier's through its index), so grouping each part first was one more temporary table
 * each, for few rows saved. At full scale, the same answers: for one supplier 31 days
 * 18.7-20.0 -> 14.3-15.6 ms alone, to a 10th 12.5 -> 9.6-10.3, 12 months 12.5 -> 11.4-11.8;
 * without a filter 12 months 308 -> 224 ms, to a 10th 271 -> 199, 31 days for one site 477 ->
 * 442. The other lists group many daily or per-site rows per key within a part, mostly in key
 * order (a category list for one site was not faster ungrouped).
 */
const UNGROUPED_PARTS: ReadonlySet<ListKind> = new Set(['goods']);

/** The measures of one aggregate row `a`, named as the grouped parts name their sums. */
const ROW_MEASURES = MEASURE_COLUMNS.map((c) => `a.${c} AS ${MEASURES[c]}`).join(', ');

/** The sums of a grouped union `p` of parts, named as the parts name them. */
const SUMMED_MEASURES = MEASURE_FIELDS.map((m) => `SUM(p.${m}) AS ${m}`).join(', ');

/**
 * The sums per key of the plan's list: each part grouped on its own through its primary key
 * (agrtGb, date, site …) or a filter-led covering index (running sums need no grouping), then
 * the parts summed again. `narrow` adds the list's filters to every part, on alias `a`; the
 * list's attributes (a goods' supplier) are taken as their MAX per key. The every-site rows (read
 * without a site condition) equal the per-site rows of their day (the worker writes all of them
 * in one transaction), so the numbers are those of the per-site daily rows alone. The parts of
 * the lists in UNGROUPED_PARTS are not grouped on their own.
 */
function listSums<F>(knex: Knex, plan: ListPlan<F>, narrow: (q: Knex.QueryBuilder) => void): Knex.QueryBuilder {
  const { keys, attributes: carried } = LIST_AGGREGATES[plan.list];
  const ungroupedParts = UNGROUPED_PARTS.has(plan.list);
  // Without a site condition the every-site rows serve: one row per key instead of one per site.
  const tables = plan.siteNo === undefined ? everySiteTables(plan.list) : LIST_AGGREGATES[plan.list];
  const levels: Record<Level, [table: string | undefined, column: string]> = {
    day: [tables.daily, 'agrt_dt'],
    // Of every site only: `partsOf` (list-plan.ts) asks for them only without a site condition.
    tenDays: [LIST_AGGREGATES[plan.list].tenDays, 'agrt_tdy'],
    month: [tables.monthly, 'agrt_mon'],
  };
  /** Daily rows of the month in `ranges` (any key, any site: a cheap, safe test). */
  const inDays = (ranges: PlanRange[]) =>
    knex
      .select(knex.raw('1'))
      .from(`${tables.daily} as o`)
      .where('o.agrt_gb_cd', plan.agrtGb)
      .where((any) => {
        for (const r of ranges)
          any.orWhere((w) => {
            w.where('o.agrt_dt', '>=', r.from).where('o.agrt_dt', '<', r.to);
          });
      });
  /** A stale mark on the list's running sums at or before month `month`. */
  const staleBy = (month: string) =>
    knex.select(knex.raw('1')).from(`${RUNNING_SUMS_STALE} as z`).where('z.kind', plan.list).where('z.from_mon', '<=', month);
  const parts = plan.parts.map((part) => {
    if ('running' in part) return runningPart(knex, plan, 'month', part.running, narrow).whereNotExists(staleBy(part.running.last));
    if ('runningDays' in part)
      return runningPart(knex, plan, 'day', part.runningDays, narrow).whereNotExists(staleBy(part.runningDays.month));
    const { level, when, unless, ifStale } = part;
    const [table, column] = levels[level];
    if (!table) throw new Error(`list ${plan.list} has no ${level} table here`);
    const q = knex
      .from(`${table} as a`)
      .select(...keys.map((k) => `a.${k}`))
      .where('a.agrt_gb_cd', plan.agrtGb);
    if (ungroupedParts) q.select(...carried.map((c) => `a.${c}`), knex.raw(ROW_MEASURES));
    else q.select(...carried.map((c) => knex.raw(`MAX(a.${c}) AS ${c}`)), knex.raw(measureSums('a'))).groupBy(keys.map((k) => `a.${k}`));
    if ('at' in part) q.where(`a.${column}`, part.at);
    else q.where(`a.${column}`, '>=', part.range.from).where(`a.${column}`, '<', part.range.to);
    if (plan.siteNo !== undefined) q.where('a.site_no', plan.siteNo);
    narrow(q);
    if (when) q.whereExists(inDays(when));
    if (unless) q.whereNotExists(inDays(unless));
    if (ifStale !== undefined) q.whereExists(staleBy(ifStale));
    return q;
  });
  // An ungrouped part may hold several rows per key (one per site, per day).
  if (parts.length === 1 && !ungroupedParts) return parts[0]!;
  const keyColumns = `${ungroupedParts ? 'SQL_BIG_RESULT ' : ''}${keys.map((k) => `p.${k}`).join(', ')}`;
  return knex
    .from(knex.queryBuilder().unionAll(parts, true).as('p'))
    .select(knex.raw(keyColumns), ...carried.map((c) => knex.raw(`MAX(p.${c}) AS ${c}`)), knex.raw(SUMMED_MEASURES))
    .groupBy(keys.map((k) => `p.${k}`));
}

/** The measures of running sums `a` through the last month minus those of `f` through the month before the first. */
const RUNNING_MEASURES = MEASURE_COLUMNS.map((c) => `a.${c} - COALESCE(f.${c}, 0) AS ${MEASURES[c]}`).join(', ');

/**
 * The sums per key and attributes of whole months (`step` month) or any days (`day`) from the
 * list's running sums by that step, on alias `a` for `narrow`. The sums hold every month or day
 * from the first with rows to the last built, so a step past the last (or before the first) is
 * read as the last one at or before it; a key is listed when it has days in the range (its day
 * count grew), as the monthly and daily rows list it.
 */
function runningPart<F>(
  knex: Knex,
  plan: ListPlan<F>,
  step: 'month' | 'day',
  range: { last: string; before: string },
  narrow: (q: Knex.QueryBuilder) => void,
): Knex.QueryBuilder {
  const { cumulative, runningDays, keys: listKeys, attributes } = LIST_AGGREGATES[plan.list];
  const [table, column] = step === 'month' ? [cumulative, 'agrt_mon'] : [runningDays, 'agrt_dt'];
  if (!table) throw new Error(`list ${plan.list} has no running sums by ${step}`);
  const keys = [...listKeys, ...attributes];
  const atOrBefore = (day: string) =>
    knex.from(`${table} as x`).max(`x.${column} as at`).where('x.agrt_gb_cd', plan.agrtGb).where(`x.${column}`, '<=', day);
  const q = knex
    .from(`${table} as a`)
    .join(atOrBefore(range.last).as('l'), 'l.at', `a.${column}`)
    .crossJoin(knex.raw('? as b', [atOrBefore(range.before)]))
    .leftJoin(`${table} as f`, (on) => {
      on.on('f.agrt_gb_cd', 'a.agrt_gb_cd').andOn(`f.${column}`, 'b.at');
      for (const k of keys) on.andOn(`f.${k}`, `a.${k}`);
    })
    .select(...keys.map((k) => `a.${k}`), knex.raw(RUNNING_MEASURES))
    .where('a.agrt_gb_cd', plan.agrtGb)
    .whereRaw('a.day_cnt > COALESCE(f.day_cnt, 0)');
  narrow(q);
  return q;
}

/**
 * A list read as a RowQuery: awaited, from SQL compiled once per shape (compiled-query.ts);
 * streamed, built as usual and run under the pool's stream limit (`streamRows`), as long as the
 * download's client takes to read. When `first` is given (`runningDaysPlan`), the awaited read
 * tries it first and reads `plan` only if it answers nothing (its sums stale, or no rows in the
 * range): one statement in the usual case, each answer from one snapshot. Downloads read `plan`.
 */
const rowQuery = <T, P>(knex: Knex, plan: P, render: Render<P>, first?: P): RowQuery<T> => {
  const read = async (): Promise<T[]> => {
    const rows = first === undefined ? [] : await compiledRead<T, P>(knex, first, render);
    return rows.length ? rows : compiledRead<T, P>(knex, plan, render);
  };
  return {
    then: (onFulfilled, onRejected) => read().then(onFulfilled, onRejected),
    stream: () => streamRows<T>(knex, render(knex, planValues(plan))),
  };
};

type CategoryFilters = { stdCtgNo?: string; mdId?: string };
type CategoryPlan = ListPlan<CategoryFilters> & { limit?: number };

const renderCategory: Render<CategoryPlan> = (knex, plan) => {
  const { stdCtgNo, mdId } = plan.filters;
  const sums = listSums(knex, plan, (q) => {
    if (mdId !== undefined) q.where('a.md_id', mdId);
    if (stdCtgNo !== undefined) inCategoryTree(q, 'a.std_ctg_no');
  });
  const q = knex
    .select(...S_MEASURES, { stdCtgNo: 's.std_ctg_no', mdId: 's.md_id', stdCtgNm: 'c.std_ctg_nm', mdNm: 'u.user_nm' })
    .from(sums.as('s'))
    .leftJoin('std_ctg as c', 'c.std_ctg_no', 's.std_ctg_no')
    .leftJoin('bo_user as u', 'u.user_id', 's.md_id')
    .orderByRaw(`${NET_DESC}, s.std_ctg_no, s.md_id`);
  withCategoryTree(q, stdCtgNo);
  if (plan.limit !== undefined) q.limit(plan.limit);
  return q;
};

/** Category aggregate per (std_ctg_no, md_id), net amount descending; `limit` for TOP-N. */
export function categoryTotals(
  knex: Knex,
  scope: DailyScope,
  f: { stdCtgNo?: string | undefined; mdId?: string | undefined },
  limit?: number,
): RowQuery<CategoryTotals> {
  // The limit is part of the shape: knex writes it into the SQL.
  const filters = boundFilters(f);
  const limited = (p: ListPlan<CategoryFilters>): CategoryPlan => (limit === undefined ? p : { ...p, limit });
  const days = runningDaysPlan('category', scope, filters);
  return rowQuery(knex, limited(listPlan('category', scope, filters)), renderCategory, days && limited(days));
}

type PayWayPlan = ListPlan<{ payWayCd?: string }>;

const renderPayWay: Render<PayWayPlan> = (knex, plan) => {
  const { payWayCd } = plan.filters;
  const sums = listSums(knex, plan, (q) => {
    if (payWayCd !== undefined) q.where('a.pay_way_cd', payWayCd);
  });
  return knex
    .select(...S_MEASURES, { payWayCd: 's.pay_way_cd', payWayNm: 'c.cd_nm' })
    .from(sums.as('s'))
    .leftJoin('cm_cd as c', (on) => on.on('c.cd', 's.pay_way_cd').andOnVal('c.grp_cd', CODE_GROUPS.PAYMENT_METHOD))
    .orderByRaw(`${NET_DESC}, s.pay_way_cd`);
};

/** Payment-method aggregate per pay_way_cd, with its OM013 name. */
export function payWayTotals(knex: Knex, scope: DailyScope, f: { payWayCd?: string | undefined }): RowQuery<PayWayTotals> {
  return rowQuery(knex, listPlan('payway', scope, boundFilters(f)), renderPayWay);
}

type GoodsPlan = ListPlan<{ goodsNo?: string; entrNo?: string }>;

const renderGoods: Render<GoodsPlan> = (knex, plan) => {
  const { goodsNo, entrNo } = plan.filters;
  const sums = listSums(knex, plan, (q) => {
    if (goodsNo !== undefined) q.where('a.goods_no', goodsNo);
    if (entrNo !== undefined) q.where('a.entr_no', entrNo);
  });
  // The names and images from an index of those alone, not the ~40-column rows (migration 0006).
  return knex
    .select(...S_MEASURES, {
      goodsNo: 's.goods_no',
      entrNo: 's.entr_no',
      goodsNm: 'g.goods_nm',
      imgPath: 'g.img_path',
      entrNm: 'n.entr_nm',
    })
    .from(sums.as('s'))
    .leftJoin(knex.raw('goods AS g FORCE INDEX (idx_goods_label)'), 'g.goods_no', 's.goods_no')
    .leftJoin('entr as n', 'n.entr_no', 's.entr_no')
    .orderByRaw(`${NET_DESC}, s.goods_no`);
};

/**
 * Goods aggregate per goods_no. The supplier is the one the aggregate recorded (the goods'
 * supplier at aggregation time), so the supplier filter and the shown supplier agree.
 */
export function goodsTotals(
  knex: Knex,
  scope: DailyScope,
  f: { goodsNo?: string | undefined; entrNo?: string | undefined },
): RowQuery<GoodsTotals> {
  return rowQuery(knex, listPlan('goods', scope, boundFilters(f)), renderGoods);
}

type EnterprisePlan = ListPlan<{ entrNo?: string }>;

const renderEnterprise: Render<EnterprisePlan> = (knex, plan) => {
  const { entrNo } = plan.filters;
  const sums = listSums(knex, plan, (q) => {
    if (entrNo !== undefined) q.where('a.entr_no', entrNo);
  });
  return knex
    .select(...S_MEASURES, { entrNo: 's.entr_no', entrNm: 'n.entr_nm' })
    .from(sums.as('s'))
    .leftJoin('entr as n', 'n.entr_no', 's.entr_no')
    .orderByRaw(`${NET_DESC}, s.entr_no`);
};

/** Supplier aggregate per entr_no. */
export function enterpriseTotals(knex: Knex, scope: DailyScope, f: { entrNo?: string | undefined }): RowQuery<EnterpriseTotals> {
  return rowQuery(knex, listPlan('entr', scope, boundFilters(f)), renderEnterprise);
}
