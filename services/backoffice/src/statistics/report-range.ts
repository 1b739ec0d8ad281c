import { addDays, addMonths, compactDay, daysBetween, eachDay, eachMonth, monthsBetween, monthStart, nextMonthStart } from '@bo/db';
import type { FieldError } from '@bo/contracts';
import { validationError } from '@bo/service-kit';
import type { DayRange, Period, PeriodConditions } from './model.ts';

/** Longest ranges a statistics request may cover (inclusive counts). */
export const MAX_RANGE_DAYS = 366;
export const MAX_RANGE_MONTHS = 36;

const compactMonth = (month: string) => month.replace('-', '');

function checkBounds(
  errors: FieldError[],
  fields: [string, string],
  values: [string | undefined, string | undefined],
  count: (from: string, to: string) => number,
  max: number,
  unit: string,
): void {
  fields.forEach((field, i) => {
    if (!values[i]) errors.push({ field, message: 'is required' });
  });
  const [from, to] = values;
  if (!from || !to) return;
  if (to < from) errors.push({ field: fields[1], message: `must not be before ${fields[0]}` });
  else if (count(from, to) > max)
    errors.push({ field: fields[1], message: `must be at most ${max} ${unit} after ${fields[0]} (both included)` });
}

/** One day range `startDate..endDate` (both included), as the aggregate lists take it. */
export function requestedDays(startDate: string, endDate: string): DayRange {
  const errors: FieldError[] = [];
  checkBounds(errors, ['startDate', 'endDate'], [startDate, endDate], (a, b) => daysBetween(a, b) + 1, MAX_RANGE_DAYS, 'days');
  if (errors.length) throw validationError(errors);
  return { fromDay: startDate, toDay: addDays(endDate, 1) };
}

/** calendarType `date` needs startDate/endDate, `month` needs startMonth/endMonth; the other pair is ignored. */
export function requestedPeriod(c: PeriodConditions): Period {
  const errors: FieldError[] = [];
  if (c.calendarType === 'date') {
    checkBounds(errors, ['startDate', 'endDate'], [c.startDate, c.endDate], (a, b) => daysBetween(a, b) + 1, MAX_RANGE_DAYS, 'days');
    if (errors.length) throw validationError(errors);
    return daysPeriod(c.startDate!, c.endDate!);
  }
  checkBounds(
    errors,
    ['startMonth', 'endMonth'],
    [c.startMonth, c.endMonth],
    (a, b) => monthsBetween(a, b) + 1,
    MAX_RANGE_MONTHS,
    'months',
  );
  if (errors.length) throw validationError(errors);
  return monthsPeriod(c.startMonth!, c.endMonth!);
}

const daysPeriod = (from: string, to: string): Period => ({
  grain: 'day',
  labels: eachDay(from, to).map(compactDay),
  range: { fromDay: from, toDay: addDays(to, 1) },
});

const monthsPeriod = (from: string, to: string): Period => ({
  grain: 'month',
  labels: eachMonth(from, to).map(compactMonth),
  range: { fromDay: monthStart(from), toDay: nextMonthStart(to) },
});

/** The comparison period: the same number of days or months, ending where `p` starts. */
export function previousPeriod(p: Period): Period {
  const n = p.labels.length;
  if (p.grain === 'day') return daysPeriod(addDays(p.range.fromDay, -n), addDays(p.range.fromDay, -1));
  const firstMonth = p.range.fromDay.slice(0, 7);
  return monthsPeriod(addMonths(firstMonth, -n), addMonths(firstMonth, -1));
}

/** `yyyyMMdd~yyyyMMdd` of a day range, the label of a whole range. */
export const rangeLabel = (r: DayRange): string => `${compactDay(r.fromDay)}~${compactDay(addDays(r.toDay, -1))}`;
