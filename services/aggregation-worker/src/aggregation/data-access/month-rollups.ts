import { eachDay, execute, monthStart, nextMonthStart, selectRows, type Db } from '@bo/db';
import { AGRT_GBS, everySiteTables, LIST_AGGREGATES, MEASURE_COLUMNS, tenDayStart, tenDayStartSql, type ListKind } from '@bo/aggregates';
import type { DaySpan, Totals } from '../model.ts';
import { lockBuild } from './build-log.ts';
import { markAllCumulativeStale, markCumulativeStale } from './cumulative-rollups.ts';
import { addOnDuplicate } from './byte-grouping.ts';
import { COLUMN_SUMS } from './list-aggregates.ts';

/**
 * The monthly roll-ups of the four list aggregates: one row per (agrtGb, month, site, key)
 * holding the sums of that month's daily rows and how many there are (`day_cnt`). The day build
 * keeps them equal to the daily rows inside its own transaction: it takes the day's old rows out
 * of the month before replacing them and adds the new ones after, so a reader sees the old day
 * in both tables or the new day in both.
 */

/**
 * Builds of two days of one month would each update the same roll-up rows, in two statements,
 * and could deadlock; holding this row lock from before the first of them until commit makes
 * them take turns. Only the same kind and month wait: other days and kinds go on in parallel.
 */
const lockMonth = (db: Db, kind: ListKind, month: string): Promise<void> => lockBuild(db, `${kind}-month`, month);

/** The roll-up's key: the daily key and the attributes recorded on each day. */
const monthKeysOf = (kind: ListKind) => [...LIST_AGGREGATES[kind].keys, ...LIST_AGGREGATES[kind].attributes];

/** The span a roll-up row sums: its column, the span's first day for a day, and the same in SQL of a date column. */
interface Span {
  column: string;
  of: (day: string) => string;
  sqlOf: (column: string) => string;
}

const MONTH: Span = { column: 'agrt_mon', of: monthStart, sqlOf: (c) => `DATE_FORMAT(${c}, '%Y-%m-01')` };
const TEN_DAYS: Span = { column: 'agrt_tdy', of: tenDayStart, sqlOf: tenDayStartSql };

/**
 * A daily table and its monthly roll-up: the same keys, the sums, and the month's `day_cnt`; or,
 * with `span`, a roll-up by another span inside the month (ten days), kept the same way.
 */
export interface MonthRollup {
  daily: string;
  monthly: string;
  span?: Span;
  /** In the order roll-up rows are locked (their primary key order). */
  keys: readonly string[];
  sums: readonly string[];
  /** Values of the leading primary-key column the daily table's day reads must name. */
  leading?: { column: string; values: readonly string[] };
}

/** The roll-up of one of the four list aggregates (their keys lead with agrtGb and site). */
const listRollup = (kind: ListKind): MonthRollup => ({
  daily: LIST_AGGREGATES[kind].daily,
  monthly: LIST_AGGREGATES[kind].monthly,
  keys: ['agrt_gb_cd', 'site_no', ...monthKeysOf(kind)],
  sums: MEASURE_COLUMNS,
  leading: { column: 'agrt_gb_cd', values: AGRT_GBS },
});

/** The same for the every-site rows (no site in the key), for the lists that have them. */
const allSitesRollup = (kind: ListKind, allSites: { daily: string; monthly: string }): MonthRollup => ({
  daily: allSites.daily,
  monthly: allSites.monthly,
  keys: ['agrt_gb_cd', ...monthKeysOf(kind)],
  sums: MEASURE_COLUMNS,
  leading: { column: 'agrt_gb_cd', values: AGRT_GBS },
});

/**
 * The every-site rows by ten days, for the lists that have them; under the month's lock, as the
 * month's. From per-site daily rows a day adds one row per site to a key's ten days (the insert
 * sums them), and `day_cnt` counts daily rows, as the running sums do.
 */
const tenDaysRollup = (kind: ListKind, tenDays: string): MonthRollup => ({
  ...allSitesRollup(kind, { daily: everySiteTables(kind).daily, monthly: tenDays }),
  span: TEN_DAYS,
});

const rollupsOf = (kind: ListKind): MonthRollup[] => {
  const { allSites, tenDays } = LIST_AGGREGATES[kind];
  return [listRollup(kind), ...(allSites ? [allSitesRollup(kind, allSites)] : []), ...(tenDays ? [tenDaysRollup(kind, tenDays)] : [])];
};

/** `days` cut where the roll-up's span changes (a month: one piece; ten days: up to three). */
function piecesOf(span: Span, days: DaySpan): DaySpan[] {
  const pieces: DaySpan[] = [];
  for (const day of eachDay(days.first, days.last)) {
    const last = pieces[pieces.length - 1];
    if (last && span.of(last.last) === span.of(day)) last.last = day;
    else pieces.push({ first: day, last: day });
  }
  return pieces;
}

/**
 * Adds (`sign` 1) or takes away (`sign` -1) the daily rows of `days` to or from their month's
 * roll-up rows, creating the rows a key did not have yet; returns the affected-row count (0
 * when the days have no rows). The rows are read in key order, so roll-up rows lock in one order.
 * Several days of one span are summed per key first (the span bound, not computed per row: a
 * computed span in the grouping key made a goods month's grouping 2-3x slower), so a month
 * built in one go upserts each roll-up row once instead of once per day. The caller holds the
 * month's lock.
 */
export async function applyDaysToMonth(db: Db, r: MonthRollup, days: DaySpan, sign: 1 | -1): Promise<number> {
  const sums = [...r.sums, 'day_cnt'];
  const keys = r.keys.map((k) => `d.${k}`).join(', ');
  const leading = r.leading ? `d.${r.leading.column} IN (${r.leading.values.map(() => '?').join(', ')}) AND ` : '';
  const span = r.span ?? MONTH;
  const minus = sign > 0 ? '' : '-';
  let affected = 0;
  for (const piece of piecesOf(span, days)) {
    // One day: its rows are the roll-up's rows already.
    const select =
      piece.first === piece.last
        ? `SELECT ${keys}, ?, ${r.sums.map((c) => `${minus}d.${c}`).join(', ')}, ${sign}
           FROM ${r.daily} d WHERE ${leading}d.agrt_dt = ?
           ORDER BY ${keys}`
        : `SELECT ${keys}, ?, ${r.sums.map((c) => `${minus}SUM(d.${c})`).join(', ')}, ${minus}COUNT(*)
           FROM ${r.daily} d WHERE ${leading}d.agrt_dt BETWEEN ? AND ?
           GROUP BY ${keys} ORDER BY ${keys}`;
    const result = await execute(
      db,
      `INSERT INTO ${r.monthly} (${[...r.keys, span.column, ...sums].join(', ')})
       ${select}
       ${addOnDuplicate(r.monthly, sums)}`,
      [span.of(piece.first), ...(r.leading?.values ?? []), piece.first, ...(piece.first === piece.last ? [] : [piece.last])],
    );
    affected += result.affectedRows;
  }
  return affected;
}

/** Drop the roll-up rows of the spans holding `days` left with no day (only a rebuild can leave a key without days). */
export async function dropEmptyMonthRows(db: Db, r: MonthRollup, days: DaySpan): Promise<void> {
  const span = r.span ?? MONTH;
  const q = db(r.monthly)
    .whereBetween(span.column, [span.of(days.first), span.of(days.last)])
    .andWhere({ day_cnt: 0 });
  if (r.leading) q.whereIn(r.leading.column, r.leading.values);
  await q.delete();
}

/**
 * Before the days' daily rows are replaced: lock the month and take the days' current rows out
 * of it. Keys that no longer have a day in the month are removed by `addDaysToMonth`.
 */
export async function takeDaysFromMonth(db: Db, kind: ListKind, days: DaySpan): Promise<number> {
  await lockMonth(db, kind, monthStart(days.first));
  let taken = 0;
  for (const r of rollupsOf(kind)) taken += await applyDaysToMonth(db, r, days, -1);
  return taken;
}

/**
 * After the days' daily rows are written: add them to the month, then drop rows left with no day;
 * then mark the running sums stale from the month on (the worker writes them again once idle).
 */
export async function addDaysToMonth(db: Db, kind: ListKind, days: DaySpan, taken: number): Promise<void> {
  for (const r of rollupsOf(kind)) {
    await applyDaysToMonth(db, r, days, 1);
    // A first build took nothing out, so it cannot have emptied a key.
    if (taken > 0) await dropEmptyMonthRows(db, r, days);
  }
  await markCumulativeStale(db, kind, days.first);
}

/**
 * Rebuild one month's roll-up rows (per site, every site, by ten days) from its daily rows, for a month found to differ from them
 * (a daily table changed by hand, or a roll-up written before the days it sums); every month of
 * the running sums is marked for the refresh.
 */
export async function rollUpMonth(db: Db, kind: ListKind, month: string): Promise<number> {
  await lockMonth(db, kind, month);
  // The per-site rows written (the every-site rows follow them).
  let written: number | undefined;
  const next = nextMonthStart(month);
  for (const r of rollupsOf(kind)) {
    const span = r.span ?? MONTH;
    await db(r.monthly).whereIn('agrt_gb_cd', AGRT_GBS).andWhere(span.column, '>=', month).andWhere(span.column, '<', next).delete();
    const keys = r.keys.join(', ');
    const result = await execute(
      db,
      `INSERT INTO ${r.monthly} (${[...r.keys, span.column, ...MEASURE_COLUMNS, 'day_cnt'].join(', ')})
       SELECT ${keys}, ${span.sqlOf('agrt_dt')}, ${COLUMN_SUMS}, COUNT(*)
       FROM ${r.daily} WHERE agrt_gb_cd IN (?, ?) AND agrt_dt >= ? AND agrt_dt < ?
       GROUP BY ${keys}, ${span.sqlOf('agrt_dt')}`,
      [...AGRT_GBS, month, next],
    );
    written ??= result.affectedRows;
  }
  await markAllCumulativeStale(db, kind);
  return written ?? 0;
}

export type MonthTotals = Totals & { day_cnt: number };

/** Per agrtGb: the sums and day count of a month's roll-up rows, and the same over its daily rows. */
export async function monthTotals(db: Db, kind: ListKind, month: string): Promise<{ rollup: MonthTotals[]; daily: MonthTotals[] }> {
  const sums = MEASURE_COLUMNS.map((c) => db.raw(`SUM(${c}) AS ${c}`));
  const [rollup, daily] = await Promise.all([
    db(LIST_AGGREGATES[kind].monthly)
      .select('agrt_gb_cd', ...sums, db.raw('SUM(day_cnt) AS day_cnt'))
      .whereIn('agrt_gb_cd', AGRT_GBS)
      .andWhere({ agrt_mon: month })
      .groupBy('agrt_gb_cd'),
    db(LIST_AGGREGATES[kind].daily)
      .select('agrt_gb_cd', ...sums, db.raw('COUNT(*) AS day_cnt'))
      .whereIn('agrt_gb_cd', AGRT_GBS)
      .andWhere('agrt_dt', '>=', month)
      .andWhere('agrt_dt', '<', nextMonthStart(month))
      .groupBy('agrt_gb_cd'),
  ]);
  return { rollup: rollup as MonthTotals[], daily: daily as MonthTotals[] };
}

/**
 * Keys whose ten-day rows of `month` (`yyyy-MM-01`) differ from the sums of the daily rows they
 * sum, span by span (0 for a list without ten-day rows).
 */
export async function tenDayKeysDiffering(db: Db, kind: ListKind, month: string): Promise<number> {
  const { tenDays } = LIST_AGGREGATES[kind];
  if (!tenDays) return 0;
  const keys = monthKeysOf(kind).join(', ');
  const sums = [...MEASURE_COLUMNS, 'day_cnt'];
  const next = nextMonthStart(month);
  const [row] = await selectRows<{ n: number }>(
    db,
    `SELECT COUNT(*) AS n FROM (
       SELECT 1 FROM (
         SELECT agrt_gb_cd, agrt_tdy, ${keys}, ${sums.join(', ')} FROM ${tenDays}
          WHERE agrt_gb_cd IN (?, ?) AND agrt_tdy >= ? AND agrt_tdy < ?
         UNION ALL
         SELECT agrt_gb_cd, ${TEN_DAYS.sqlOf('agrt_dt')}, ${keys}, ${MEASURE_COLUMNS.map((c) => `-${c}`).join(', ')}, -1 FROM ${everySiteTables(kind).daily}
          WHERE agrt_gb_cd IN (?, ?) AND agrt_dt >= ? AND agrt_dt < ?
       ) u GROUP BY agrt_gb_cd, agrt_tdy, ${keys} HAVING ${sums.map((s) => `SUM(${s}) <> 0`).join(' OR ')}
     ) d`,
    [...AGRT_GBS, month, next, ...AGRT_GBS, month, next],
  );
  return Number(row?.n ?? 0);
}
