import { addMonths, execute, type Db } from '@bo/db';
import { AGRT_GBS, LIST_AGGREGATES, MEASURE_COLUMNS, type ListKind } from '@bo/aggregates';
import type { Totals } from '../model.ts';
import { lockBuild } from './build-log.ts';
import { applyDayToCumulative, rebuildCumulative } from './cumulative-rollups.ts';
import { COLUMN_SUMS } from './list-aggregates.ts';

/**
 * The monthly roll-ups of the four list aggregates: one row per (agrtGb, month, site, key)
 * holding the sums of that month's daily rows and how many there are (`day_cnt`). The day build
 * keeps them equal to the daily rows inside its own transaction: it takes the day's old rows out
 * of the month before replacing them and adds the new ones after, so a reader sees the old day
 * in both tables or the new day in both.
 */

/** `yyyy-MM-01` of the month holding `day`. */
export const monthOf = (day: string): string => `${day.slice(0, 7)}-01`;

/**
 * Builds of two days of one month would each update the same roll-up rows, in two statements,
 * and could deadlock; holding this row lock from before the first of them until commit makes
 * them take turns. Only the same kind and month wait: other days and kinds go on in parallel.
 */
const lockMonth = (db: Db, kind: ListKind, month: string): Promise<void> => lockBuild(db, `${kind}-month`, month);

/** The roll-up's key: the daily key and the attributes recorded on each day. */
const monthKeysOf = (kind: ListKind) => [...LIST_AGGREGATES[kind].keys, ...LIST_AGGREGATES[kind].attributes];

/** A daily table and its monthly roll-up: the same keys, the sums, and the month's `day_cnt`. */
export interface MonthRollup {
  daily: string;
  monthly: string;
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

const rollupsOf = (kind: ListKind): MonthRollup[] => {
  const { allSites } = LIST_AGGREGATES[kind];
  return [listRollup(kind), ...(allSites ? [allSitesRollup(kind, allSites)] : [])];
};

/**
 * Adds (`sign` 1) or takes away (`sign` -1) the daily rows of `day` to or from its month's
 * roll-up rows, creating the rows a key did not have yet; returns the affected-row count (0
 * when the day has no rows). The rows are read in key order, so roll-up rows lock in one order.
 * The caller holds the month's lock.
 */
export async function applyDayToMonth(db: Db, r: MonthRollup, day: string, sign: 1 | -1): Promise<number> {
  const sums = [...r.sums, 'day_cnt'];
  const keys = r.keys.map((k) => `d.${k}`).join(', ');
  const leading = r.leading ? `d.${r.leading.column} IN (${r.leading.values.map(() => '?').join(', ')}) AND ` : '';
  const result = await execute(
    db,
    `INSERT INTO ${r.monthly} (${[...r.keys, 'agrt_mon', ...sums].join(', ')})
     SELECT ${keys}, ?, ${r.sums.map((c) => `${sign > 0 ? '' : '-'}d.${c}`).join(', ')}, ${sign}
     FROM ${r.daily} d WHERE ${leading}d.agrt_dt = ?
     ORDER BY ${keys}
     ON DUPLICATE KEY UPDATE ${sums.map((c) => `${r.monthly}.${c} = ${r.monthly}.${c} + VALUES(${c})`).join(', ')}`,
    [monthOf(day), ...(r.leading?.values ?? []), day],
  );
  return result.affectedRows;
}

/** Drop the month's roll-up rows left with no day (only a rebuild can leave a key without days). */
export async function dropEmptyMonthRows(db: Db, r: MonthRollup, day: string): Promise<void> {
  const q = db(r.monthly).where({ agrt_mon: monthOf(day), day_cnt: 0 });
  if (r.leading) q.whereIn(r.leading.column, r.leading.values);
  await q.delete();
}

/**
 * Before the day's daily rows are replaced: lock the month and take the day's current rows out
 * of it (and out of the running sums from it on). Keys that no longer have a day in the month
 * are removed by `addDayToMonth`.
 */
export async function takeDayFromMonth(db: Db, kind: ListKind, day: string): Promise<number> {
  await lockMonth(db, kind, monthOf(day));
  let taken = 0;
  for (const r of rollupsOf(kind)) taken += await applyDayToMonth(db, r, day, -1);
  await applyDayToCumulative(db, kind, day, -1);
  return taken;
}

/**
 * After the day's daily rows are written: add them to the month, then drop rows left with no day;
 * then add them to the running sums from the month on.
 */
export async function addDayToMonth(db: Db, kind: ListKind, day: string, taken: number): Promise<void> {
  for (const r of rollupsOf(kind)) {
    await applyDayToMonth(db, r, day, 1);
    // A first build took nothing out, so it cannot have emptied a key.
    if (taken > 0) await dropEmptyMonthRows(db, r, day);
  }
  await applyDayToCumulative(db, kind, day, 1);
}

/**
 * Rebuild one month's roll-up rows (per site and every site) from its daily rows, for a month found to differ from them
 * (a daily table changed by hand, or a roll-up written before the days it sums), then every
 * month of the running sums.
 */
export async function rollUpMonth(db: Db, kind: ListKind, month: string): Promise<number> {
  await lockMonth(db, kind, month);
  // The per-site rows written (the every-site rows follow them).
  let written: number | undefined;
  for (const r of rollupsOf(kind)) {
    await db(r.monthly).whereIn('agrt_gb_cd', AGRT_GBS).andWhere({ agrt_mon: month }).delete();
    const keys = r.keys.join(', ');
    const result = await execute(
      db,
      `INSERT INTO ${r.monthly} (${[...r.keys, 'agrt_mon', ...MEASURE_COLUMNS, 'day_cnt'].join(', ')})
       SELECT ${keys}, ?, ${COLUMN_SUMS}, COUNT(*)
       FROM ${r.daily} WHERE agrt_gb_cd IN (?, ?) AND agrt_dt >= ? AND agrt_dt < ?
       GROUP BY ${keys}`,
      [month, ...AGRT_GBS, month, `${addMonths(month.slice(0, 7), 1)}-01`],
    );
    written ??= result.affectedRows;
  }
  await rebuildCumulative(db, kind);
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
      .andWhere('agrt_dt', '<', `${addMonths(month.slice(0, 7), 1)}-01`)
      .groupBy('agrt_gb_cd'),
  ]);
  return { rollup: rollup as MonthTotals[], daily: daily as MonthTotals[] };
}
