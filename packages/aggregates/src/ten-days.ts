import { nextMonthStart } from '@bo/db';

/**
 * Ten-day spans of a month: days 1–10, 11–20 and 21 to the month's end, each named by its first
 * day. The worker rolls daily rows up into them (`LIST_AGGREGATES[kind].tenDays`) and
 * the lists read them, so both sides cut months the same way through these.
 */

/** The first day of the span holding `day` (`yyyy-MM-dd`): the 1st, 11th or 21st of its month. */
export function tenDayStart(day: string): string {
  const d = Number(day.slice(8, 10));
  return `${day.slice(0, 8)}${d <= 10 ? '01' : d <= 20 ? '11' : '21'}`;
}

/** The same in SQL, of a DATE column. */
export const tenDayStartSql = (column: string): string =>
  `DATE_FORMAT(${column}, CONCAT('%Y-%m-', CASE WHEN DAY(${column}) <= 10 THEN '01' WHEN DAY(${column}) <= 20 THEN '11' ELSE '21' END))`;

/** The three spans of the month starting `month` (`yyyy-MM-01`), as half-open day ranges. */
export function tenDaySpans(month: string): { fromDay: string; toDay: string }[] {
  const m = month.slice(0, 8);
  return [
    { fromDay: `${m}01`, toDay: `${m}11` },
    { fromDay: `${m}11`, toDay: `${m}21` },
    { fromDay: `${m}21`, toDay: nextMonthStart(month) },
  ];
}
