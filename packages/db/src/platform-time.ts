/**
 * Platform local time. Every stored DATETIME is local time of PLATFORM_TIME_ZONE without a
 * zone, so calendar arithmetic is done on `yyyy-MM-dd` text through UTC dates (no DST or
 * process-TZ surprises), and "now" is read once in the platform zone.
 */

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** One formatter per zone: building an Intl.DateTimeFormat costs about ten times a format with it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The last second formatted per zone: a report request asks for "today" and Intl is 1 % of its CPU. */
const lastFormatted = new Map<string, { second: number; text: string }>();

/** `yyyy-MM-dd HH:mm:ss` of an instant, in the given IANA zone. */
export function formatInZone(instant: Date, timeZone: string): string {
  const second = Math.floor(instant.getTime() / 1000);
  const last = lastFormatted.get(timeZone);
  if (last?.second === second) return last.text;
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  const text = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  lastFormatted.set(timeZone, { second, text });
  return text;
}

export const platformNow = (timeZone: string, instant = new Date()): string => formatInZone(instant, timeZone);
/** `yyyy-MM-dd HH:mm:ss.SSS` of an instant in the platform zone, for DATETIME(3) columns. */
export const platformNowMillis = (timeZone: string, instant = new Date()): string =>
  `${formatInZone(instant, timeZone)}.${pad(instant.getUTCMilliseconds(), 3)}`;
export const platformToday = (timeZone: string, instant = new Date()): string => formatInZone(instant, timeZone).slice(0, 10);

// Read by position, not split: `yyyy-MM-dd` is checked where it enters (a third of this file's
// share of a cheap report request went to splitting and mapping).
const toUtc = (day: string) => new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))));
const fromUtc = (dt: Date) => `${dt.getUTCFullYear()}-${pad(dt.getUTCMonth() + 1)}-${pad(dt.getUTCDate())}`;

export function addDays(day: string, n: number): string {
  const dt = toUtc(day);
  dt.setUTCDate(dt.getUTCDate() + n);
  return fromUtc(dt);
}

/** Whole days from `from` to `to` (to − from). */
export const daysBetween = (from: string, to: string): number => Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / 86_400_000);

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

/** `yyyy-MM` plus n months, of a month (`yyyy-MM`) or of the month of a day (`yyyy-MM-dd`). */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const idx = y * 12 + (m - 1) + n;
  return `${Math.floor(idx / 12)}-${pad((idx % 12) + 1)}`;
}

/** `yyyy-MM-01`, the first day of the month of `dayOrMonth` (`yyyy-MM-dd` or `yyyy-MM`): how the tables key months. */
export const monthStart = (dayOrMonth: string): string => `${dayOrMonth.slice(0, 7)}-01`;

/** `yyyy-MM-01` of the month after that of `dayOrMonth`: where a month's half-open range ends. */
export const nextMonthStart = (dayOrMonth: string): string => monthStart(addMonths(dayOrMonth, 1));

export const monthsBetween = (from: string, to: string): number => {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return ty * 12 + tm - (fy * 12 + fm);
};

export function eachMonth(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = from; m <= to; m = addMonths(m, 1)) out.push(m);
  return out;
}

/** The days `from`..`to` (both included) cut at month ends: each piece's first and last day, in order. */
export function monthPieces(from: string, to: string): { first: string; last: string }[] {
  return eachMonth(from.slice(0, 7), to.slice(0, 7)).map((m) => {
    const monthEnd = addDays(nextMonthStart(m), -1);
    return { first: from > monthStart(m) ? from : monthStart(m), last: to < monthEnd ? to : monthEnd };
  });
}

/** The half-open DATETIME range `[day 00:00:00, next day 00:00:00)` of one local day. */
export const dayRange = (day: string): [string, string] => [`${day} 00:00:00`, `${addDays(day, 1)} 00:00:00`];

/** `yyyy-MM-dd` → `yyyyMMdd`. */
export const compactDay = (day: string): string => day.replaceAll('-', '');
