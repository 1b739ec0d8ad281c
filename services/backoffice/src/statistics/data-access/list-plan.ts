import { addDays, addMonths, bind, monthStart, nextMonthStart } from '@bo/db';
import { LIST_AGGREGATES, tenDaySpans, type ListKind } from '@bo/aggregates';
import type { DailyScope, DayRange } from '../model.ts';

/**
 * Which aggregate rows an aggregate list reads for a day range, as a plan (no SQL): whole months
 * from the monthly roll-ups or running sums, pieces of months from ten-day and daily rows, each
 * piece read only when the month's own rows say it is needed (the lists of few keys read their
 * pieces from daily rows alone). `list-sums.ts` renders a plan as one statement; a plan's shape
 * (not its bound values) keys the compiled SQL.
 */

/** The days `a` and `b` share (none when `fromDay >= toDay`). */
const overlap = (a: DayRange, b: DayRange): DayRange => ({
  fromDay: a.fromDay > b.fromDay ? a.fromDay : b.fromDay,
  toDay: a.toDay < b.toDay ? a.toDay : b.toDay,
});

const sameDays = (a: DayRange, b: DayRange): boolean => a.fromDay === b.fromDay && a.toDay === b.toDay;

/** A calendar month `[yyyy-MM-01, next month's 1st)` and the days of a range inside it. */
interface MonthPiece {
  month: DayRange;
  days: DayRange;
}

/**
 * `range` cut at month starts: `months`, the whole calendar months inside it (`[first month's
 * 1st, day after the last one)`), when there is one, and `partial`, the pieces of the other
 * months (at most the first and the last), each with its calendar month. Together they cover
 * `range` exactly once.
 */
function splitByMonths(range: DayRange): { months?: DayRange; partial: MonthPiece[] } {
  const out: { months?: DayRange; partial: MonthPiece[] } = { partial: [] };
  for (let start = monthStart(range.fromDay); start < range.toDay;) {
    const month = { fromDay: start, toDay: nextMonthStart(start) };
    const days = overlap(range, month);
    if (sameDays(days, month)) out.months = { fromDay: out.months?.fromDay ?? month.fromDay, toDay: month.toDay };
    else out.partial.push({ month, days });
    start = month.toDay;
  }
  return out;
}

/** Days `[from, to)` of a plan, both bound values. */
export interface PlanRange {
  from: string;
  to: string;
}

/** The table a part reads: daily rows, ten-day roll-ups (`tenDays`) or monthly roll-ups. */
export type Level = 'day' | 'tenDays' | 'month';

/**
 * One part of a list read: the rows of the monthly, ten-day or daily table in `range` (or on the
 * one month, ten days or day `at`), read only when the month has (`when`) or has not (`unless`)
 * daily rows in the other ranges, or only while the list's running sums are marked stale at or
 * before the month `ifStale` (the stand-in for a `running` part).
 */
export type PartPlan =
  | ({
      level: Level;
      when?: PlanRange[];
      unless?: PlanRange[];
      ifStale?: string;
    } & (
      | { range: PlanRange }
      /**
       * One calendar month, ten days or day (its first day, bound), read as `agrt_mon = at`,
       * `agrt_tdy = at` or `agrt_dt = at`: the primary key (agrtGb, month or day, keys …) then
       * gives the rows in key order, and the every-site tables' rows are summed as they come instead
       * of through a temporary table (a month of the category list: 3.1 instead of 6.3 ms alone).
       */
      | { at: string }
    ))
  /**
   * Whole months `[first, last]` from the list's running sums (`cumulative`), given as the first
   * days of `last` and of the month `before` `first`, bound: each key's sums through `last` minus
   * those through `before`, two rows per key read in key order, none grouped. Read only while
   * the sums are current through `last` (no stale mark at or before it).
   */
  | { running: { last: string; before: string } }
  /**
   * Any range from the list's running sums by day (`runningDays`): each key's sums through the
   * range's `last` day minus those through the day `before` its first, both bound; read only while
   * the sums are current through the month `month` (the first day of `last`'s month, bound), so
   * this part alone answers nothing while they are stale (`rowQuery` then reads the other plan).
   */
  | { runningDays: { last: string; before: string; month: string } };

/**
 * What an aggregate list reads, as a plan for `compiledRead`: its shape (which list, which
 * filters, how the range splits) and, bound, its values. `filters` are the list's own.
 */
export interface ListPlan<F> {
  list: ListKind;
  agrtGb: string;
  siteNo?: string;
  parts: PartPlan[];
  filters: F;
}

const bound = (range: DayRange): PlanRange => ({ from: bind(range.fromDay), to: bind(range.toDay) });

/** The days of `outer` before and after `inner` (which it holds), the empty ones left out. */
const outside = (outer: DayRange, inner: DayRange): DayRange[] =>
  [
    { fromDay: outer.fromDay, toDay: inner.fromDay },
    { fromDay: inner.toDay, toDay: outer.toDay },
  ].filter((r) => r.fromDay < r.toDay);

const isOneDay = (r: DayRange): boolean => addDays(r.fromDay, 1) === r.toDay;

/** The daily rows of `days`, read as one day (`at`, in key order) when they are one. */
const dailyPart = (days: DayRange): PartPlan =>
  isOneDay(days) ? { level: 'day', at: bind(days.fromDay) } : { level: 'day', range: bound(days) };

/**
 * The lists of few keys (6 payment methods at full scale), which read the pieces of months from
 * their daily rows alone, without asking in the statement whether the month's row would serve:
 * for so few keys that test and the union of parts cost more than the daily rows they save. Full
 * scale, the statement alone, 3 alternating runs, the same answers: 31 days 1.34 -> 1.04 ms (one
 * method 0.92 -> 0.72), 2025-12-15..2026-11-20 1.80 -> 1.39. Not the supplier list (50 keys): its
 * month so far is 50 monthly rows instead of 300 daily ones (11-01..12-06 1.73 -> 2.07 ms).
 */
const PIECES_FROM_DAYS: ReadonlySet<ListKind> = new Set(['payway']);

/** The month's ten-day spans that hold days of `days`. */
const spansOf = (days: DayRange, month: DayRange): DayRange[] =>
  tenDaySpans(month.fromDay).filter((span) => {
    const piece = overlap(days, span);
    return piece.fromDay < piece.toDay;
  });

/**
 * The parts of `days`, a piece of `month` read only when the month has daily rows outside it
 * (`monthOutside`; always when it is not given), from the month's ten-day rows: a whole span
 * inside the piece is one row per key; a span the piece cuts is read like the month itself, its
 * ten-day row when the span has no daily rows outside the piece, else its days. On the 10th, the
 * 21 days of the month before in a 31-day list are two ten-day rows per key instead of 21 daily ones.
 */
function tenDayParts(days: DayRange, month: DayRange, monthOutside?: PlanRange[]): PartPlan[] {
  const when = monthOutside ? { when: monthOutside } : {};
  return spansOf(days, month).flatMap((span): PartPlan[] => {
    const piece = overlap(days, span);
    if (sameDays(piece, span)) return [{ level: 'tenDays', at: bind(span.fromDay), ...when }];
    if (isOneDay(piece)) return [{ level: 'day', at: bind(piece.fromDay), ...when }];
    // The span's other days are inside the month's other days: their rows imply the month's.
    const spanOutside = outside(span, piece).map(bound);
    return [
      { level: 'tenDays', at: bind(span.fromDay), ...when, unless: spanOutside },
      { level: 'day', range: bound(piece), when: spanOutside },
    ];
  });
}

/**
 * The parts that give the sums of `range` exactly, from the fewest rows. Whole months come from
 * the monthly roll-up (a 12-month list reads 12 rows per key instead of 365), or, two months or
 * more of a list with running sums read for every site (`running`), from those (2 rows per key,
 * the 12-month category statement 35 -> 19 ms alone at medium scale). A monthly row is
 * the sum of its month's daily rows, so it also serves a part of a month when the month has no
 * daily rows outside that part — the usual "last 31 days" or "this month" ending yesterday, the
 * last built day: the month so far is one row per key, not up to 30. Whether it has is asked
 * inside the same statement (one snapshot, so a day built meanwhile cannot slip in): the piece
 * reads its monthly rows when the month has no daily rows outside it, and its daily rows
 * otherwise (or, where the list has ten-day rows, those and the fewest days: `tenDayParts`); a
 * piece of one day reads its daily rows, no fewer. Where the monthly rows are per site
 * (`monthsPerSite`) and the ten-day rows serve, a piece inside one span is read from that span.
 * The lists of few keys (`piecesFromDays`) read their pieces from the daily rows alone.
 */
function partsOf(
  range: DayRange,
  how: { running: boolean; tenDays: boolean; monthsPerSite: boolean; piecesFromDays: boolean },
): PartPlan[] {
  const { running, tenDays, monthsPerSite, piecesFromDays } = how;
  const { months, partial } = splitByMonths(range);
  const monthBefore = (day: string) => monthStart(addMonths(day, -1));
  const wholeMonths = (r: DayRange): PartPlan[] => {
    if (monthBefore(r.toDay) === r.fromDay) return [{ level: 'month', at: bind(r.fromDay) }];
    if (!running) return [{ level: 'month', range: bound(r) }];
    // The same months from their monthly rows while day builds have left the sums behind.
    const last = monthBefore(r.toDay);
    return [
      { running: { last: bind(last), before: bind(monthBefore(r.fromDay)) } },
      { level: 'month', range: bound(r), ifStale: bind(last) },
    ];
  };
  const whole = months ? wholeMonths(months) : [];
  // The days before and after the whole months, or the whole range in one piece when it has none.
  if (piecesFromDays) return [...whole, ...(months ? outside(range, months) : [range]).map(dailyPart)];
  return [
    ...whole,
    ...partial.flatMap(({ month, days }): PartPlan[] => {
      // One day is one daily row per key: its month's row cannot be fewer, so no test is asked.
      if (isOneDay(days)) return [dailyPart(days)];
      // Where the monthly rows are per site (the goods list), a piece inside one ten-day span
      // reads that span's every-site rows instead of the month's: one row per key, not one per
      // site. The month so far on the 1st-10th: 31 days for one supplier 11.6 -> 10.8 ms alone.
      if (tenDays && monthsPerSite && spansOf(days, month).length === 1) return tenDayParts(days, month);
      const monthOutside = outside(month, days).map(bound);
      return [
        { level: 'month', at: bind(month.fromDay), unless: monthOutside },
        ...(tenDays ? tenDayParts(days, month, monthOutside) : [{ level: 'day' as const, range: bound(days), when: monthOutside }]),
      ];
    }),
  ];
}

/**
 * The plan of list `list` over `scope` with the list's `filters` (each bound, or absent). The
 * running sums and ten-day rows are of every site: a list with a site condition reads the monthly
 * and daily rows.
 */
export const listPlan = <F>(list: ListKind, scope: DailyScope, filters: F): ListPlan<F> => ({
  list,
  agrtGb: bind(scope.agrtGb),
  ...(scope.siteNo ? { siteNo: bind(scope.siteNo) } : {}),
  parts: partsOf(scope.range, {
    running: !scope.siteNo && LIST_AGGREGATES[list].cumulative !== undefined,
    tenDays: !scope.siteNo && LIST_AGGREGATES[list].tenDays !== undefined,
    monthsPerSite: LIST_AGGREGATES[list].allSites === undefined,
    piecesFromDays: PIECES_FROM_DAYS.has(list),
  }),
  filters,
});

/**
 * The plan of `list` over `scope` from its running sums by day alone, when it has them, no site
 * condition is given (they are of every site) and the range is longer than a day (one day is one
 * daily row per key, fewer than two): answers nothing while they are stale, when the `listPlan`
 * one serves instead.
 */
export function runningDaysPlan<F>(list: ListKind, scope: DailyScope, filters: F): ListPlan<F> | undefined {
  if (scope.siteNo || LIST_AGGREGATES[list].runningDays === undefined || isOneDay(scope.range)) return undefined;
  const last = addDays(scope.range.toDay, -1);
  const days = { last: bind(last), before: bind(addDays(scope.range.fromDay, -1)), month: bind(monthStart(last)) };
  return { list, agrtGb: bind(scope.agrtGb), parts: [{ runningDays: days }], filters };
}

/** The given filters, bound; absent ones left out (they are part of the shape). */
export const boundFilters = <F extends Record<string, string | undefined>>(f: F): F =>
  Object.fromEntries(Object.entries(f).flatMap(([k, v]) => (v ? [[k, bind(v)]] : []))) as F;
