import { dayRange, eachDay, execute, monthStart, selectRows, type Db } from '@bo/db';
import {
  AGRT_GBS,
  ALL_GOODS_DIM,
  GOODS_DIM_SNAPSHOT,
  GOODS_DIMENSIONS,
  HOURLY_GOODS_DIMENSIONS,
  INFLOW_AGGREGATES,
  MEASURE_COLUMNS,
  PERIOD_ROLLUPS,
} from '@bo/aggregates';
import type { DaySpan, PartTotals, TimeRange } from '../model.ts';
import { lockBuild } from './build-log.ts';
import { addOnDuplicate, byBytes } from './byte-grouping.ts';
import { COLUMN_SUMS, EVENT_SUMS, EVENT_SUMS_AS_COLUMNS } from './list-aggregates.ts';
import { applyDaysToMonth, dropEmptyMonthRows, type MonthRollup } from './month-rollups.ts';

/**
 * The SQL of the period rollups: what the period and hourly reports read instead of raw events
 * (kind `period`) and instead of the goods-level inflow aggregate (written by every inflow build).
 *
 * Goods are filed under the attributes `agg_goods_dim` recorded when the goods was first seen;
 * those rows are never updated, so every built day files a goods under the same attributes and
 * the reader can correct exactly for the few goods whose attributes changed since. A goods
 * without a snapshot row is filed under `all` only (the reader adds it where it belongs). One
 * that appears between a build's snapshot insert and its filing is filed under `all` only yet
 * has a snapshot row afterwards: the reconciliation, which files the same way, finds that day.
 */

const DIMS_TABLE = `(SELECT '${ALL_GOODS_DIM}' AS dim_cd${GOODS_DIMENSIONS.map((d) => ` UNION ALL SELECT '${d.dimCd}'`).join('')})`;

/** The value a row of snapshot `s` is filed under for dimension `x.dim_cd`; NULL = not filed. */
const DIM_VALUE = `CASE x.dim_cd WHEN '${ALL_GOODS_DIM}' THEN ''${GOODS_DIMENSIONS.map((d) => ` WHEN '${d.dimCd}' THEN s.${d.column}`).join('')} END`;
/** The same as a grouping key (see byte-grouping.ts). */
const DIM_VALUE_BYTES = byBytes(DIM_VALUE);

/**
 * Joins giving a row with goods number `${alias}.goods_no` its dimensions `x` and their values.
 * STRAIGHT_JOIN keeps the rows first, their snapshot row by its key next and the few dimensions
 * last: the server otherwise led with the dimensions and read the snapshot whole (or the rows by
 * goods) once per dimension (page views per category and MD hour: 0.50 → 0.33 s a day).
 */
const dimJoins = (alias: string) =>
  `LEFT JOIN ${GOODS_DIM_SNAPSHOT} s ON s.goods_no = ${alias}.goods_no STRAIGHT_JOIN ${DIMS_TABLE} x ON ${DIM_VALUE} IS NOT NULL`;

/** The same for the dimensions filed per hour (no `all`: a goods without a snapshot row is not filed). */
const HOURLY_DIMS_TABLE = `(${HOURLY_GOODS_DIMENSIONS.map((d) => `SELECT '${d.dimCd}' AS dim_cd`).join(' UNION ALL ')})`;
const hourlyDimJoins = (alias: string) =>
  `STRAIGHT_JOIN ${GOODS_DIM_SNAPSHOT} s ON s.goods_no = ${alias}.goods_no STRAIGHT_JOIN ${HOURLY_DIMS_TABLE} x ON ${DIM_VALUE} IS NOT NULL`;

/** Record the attributes of every goods the snapshot does not hold yet (first seen wins; never updated). */
export async function snapshotNewGoods(db: Db): Promise<void> {
  await db.raw(
    `INSERT IGNORE INTO ${GOODS_DIM_SNAPSHOT} (goods_no, ${GOODS_DIMENSIONS.map((d) => d.column).join(', ')})
     SELECT g.goods_no, ${GOODS_DIMENSIONS.map((d) => `g.${d.column}`).join(', ')}
     FROM goods g LEFT JOIN ${GOODS_DIM_SNAPSHOT} s ON s.goods_no = g.goods_no
     WHERE s.goods_no IS NULL ORDER BY g.goods_no`,
  );
}

/** The dimension rollups, day and month (their keys lead with the day, so no leading filter). */
const EVENT_DIMS: MonthRollup = {
  daily: PERIOD_ROLLUPS.dimDaily,
  monthly: PERIOD_ROLLUPS.dimMonthly,
  keys: ['agrt_gb_cd', 'dim_cd', 'dim_val', 'site_no'],
  sums: MEASURE_COLUMNS,
};
/** The same summed over every site. */
const EVENT_DIMS_ALL: MonthRollup = {
  daily: PERIOD_ROLLUPS.dimDailyAll,
  monthly: PERIOD_ROLLUPS.dimMonthlyAll,
  keys: ['agrt_gb_cd', 'dim_cd', 'dim_val'],
  sums: MEASURE_COLUMNS,
};
const INFLOW_DIMS: MonthRollup = {
  daily: INFLOW_AGGREGATES.dimDaily,
  monthly: INFLOW_AGGREGATES.dimMonthly,
  keys: ['dim_cd', 'dim_val', 'site_no'],
  sums: ['inf_cnt'],
};
const INFLOW_DIMS_ALL: MonthRollup = {
  daily: INFLOW_AGGREGATES.dimDailyAll,
  monthly: INFLOW_AGGREGATES.dimMonthlyAll,
  keys: ['dim_cd', 'dim_val'],
  sums: ['inf_cnt'],
};

/** One daily table of a replacement of days and how one day's rows are written (returns how many). */
type DayPart = { rollup: MonthRollup; insert: (day: string) => Promise<number> };

/**
 * Replace days of one month of dimension rollups, part by part in the order given (a part may
 * read the one before it), keeping each month equal to the sum of its days: the days are taken
 * out of the month and added back once, whatever their number. Returns the first part's rows per day.
 */
async function replaceDimDays(db: Db, lockKind: string, days: DaySpan, parts: DayPart[]): Promise<Map<string, number>> {
  await lockBuild(db, lockKind, monthStart(days.first));
  let first: Map<string, number> | undefined;
  for (const { rollup: r, insert } of parts) {
    const taken = await applyDaysToMonth(db, r, days, -1);
    await db(r.daily).whereBetween('agrt_dt', [days.first, days.last]).delete();
    const rows = new Map<string, number>();
    for (const day of eachDay(days.first, days.last)) rows.set(day, await insert(day));
    first ??= rows;
    await applyDaysToMonth(db, r, days, 1);
    // A first build took nothing out, so it cannot have emptied a key.
    if (taken > 0) await dropEmptyMonthRows(db, r, days);
  }
  return first ?? new Map();
}

/**
 * Write the every-site rows of `day` (one `hour` of it, or all) into `to.table` from the per-site
 * rows of `from`: `to.keys` are the every-site table's key but the date (the hour included where
 * it has one), `to.sums` the summed columns. Read in primary-key order (day first), so grouped
 * without a temporary table.
 */
async function sumOverSites(
  db: Db,
  from: string,
  to: { table: string; keys: readonly string[]; sums: readonly string[] },
  day: string,
  hour?: number,
): Promise<number> {
  const keys = `agrt_dt, ${to.keys.join(', ')}`;
  const result = await execute(
    db,
    `INSERT INTO ${to.table} (${keys}, ${to.sums.join(', ')})
     SELECT ${keys}, ${to.sums.map((c) => `SUM(${c})`).join(', ')} FROM ${from} WHERE agrt_dt = ?${hour !== undefined ? ' AND agrt_hour = ?' : ''}
     GROUP BY ${keys}`,
    hour !== undefined ? [day, hour] : [day],
  );
  return result.affectedRows;
}

/** The part of a day's replacement that writes `all`, the every-site copy of `site`, from the rows `site` just wrote. */
const overSites = (db: Db, site: MonthRollup, all: MonthRollup): DayPart => ({
  rollup: all,
  insert: (day) => sumOverSites(db, site.daily, { table: all.daily, keys: all.keys, sums: all.sums }, day),
});

// ---- kind `period`: events per (hour, site) and per (dimension, day or month, site) ----------

const MEASURE_LIST = MEASURE_COLUMNS.join(', ');
const EVENTS_OF_DAY = 'e.agrt_gb_cd IN (?, ?) AND e.evt_dtm >= ? AND e.evt_dtm < ?';

/** The every-site hourly event dimension rows: their key but the date. */
const EVENT_HOUR_ALL = {
  table: PERIOD_ROLLUPS.dimHourlyAll,
  keys: ['agrt_gb_cd', 'dim_cd', 'dim_val', 'agrt_hour'],
  sums: MEASURE_COLUMNS,
};

/** Replace the rollups of `days` with sums of their events; returns the rows written per day. */
export async function replacePeriodDays(db: Db, days: DaySpan): Promise<Map<string, number>> {
  const dims = await replaceDimDays(db, 'period-month', days, [
    {
      rollup: EVENT_DIMS,
      insert: async (day) => {
        // Summed per (agrtGb, site, goods) before the fan-out to the dimensions, as the inflow rows
        // are: ~17 k rows a day are multiplied instead of ~30 k events (0.31-0.39 → 0.22 s a day).
        const result = await execute(
          db,
          `INSERT INTO ${PERIOD_ROLLUPS.dimDaily} (agrt_gb_cd, dim_cd, dim_val, agrt_dt, site_no, ${MEASURE_LIST})
           SELECT g.agrt_gb_cd, x.dim_cd, ${DIM_VALUE_BYTES} AS dim_val, ?, ${byBytes('g.site_no')} AS site_key, ${COLUMN_SUMS}
           FROM (SELECT e.agrt_gb_cd, e.site_no, e.goods_no, ${EVENT_SUMS_AS_COLUMNS} FROM ord_stat_evt e
                 WHERE ${EVENTS_OF_DAY} GROUP BY e.agrt_gb_cd, e.site_no, e.goods_no) g ${dimJoins('g')}
           GROUP BY g.agrt_gb_cd, x.dim_cd, dim_val, site_key
           ${addOnDuplicate(PERIOD_ROLLUPS.dimDaily, MEASURE_COLUMNS)}`,
          [day, ...AGRT_GBS, ...dayRange(day)],
        );
        return result.affectedRows;
      },
    },
    overSites(db, EVENT_DIMS, EVENT_DIMS_ALL),
  ]);
  const rows = new Map<string, number>();
  for (const table of [PERIOD_ROLLUPS.siteHourly, PERIOD_ROLLUPS.dimHourly, PERIOD_ROLLUPS.dimHourlyAll]) {
    const old = db(table).whereBetween('agrt_dt', [days.first, days.last]);
    if (table === PERIOD_ROLLUPS.siteHourly) old.whereIn('agrt_gb_cd', AGRT_GBS);
    await old.delete();
  }
  for (const day of eachDay(days.first, days.last)) {
    const bindings = [day, ...AGRT_GBS, ...dayRange(day)];
    const hourly = await execute(
      db,
      `INSERT INTO ${PERIOD_ROLLUPS.siteHourly} (agrt_gb_cd, agrt_dt, agrt_hour, site_no, ${MEASURE_LIST})
       SELECT e.agrt_gb_cd, ?, HOUR(e.evt_dtm), e.site_no, ${EVENT_SUMS}
       FROM ord_stat_evt e WHERE ${EVENTS_OF_DAY}
       GROUP BY e.agrt_gb_cd, HOUR(e.evt_dtm), e.site_no`,
      bindings,
    );
    // The hourly report with a category or MD condition reads these (one day has no month roll-up to keep).
    const dimHourly = await execute(
      db,
      `INSERT INTO ${PERIOD_ROLLUPS.dimHourly} (agrt_gb_cd, dim_cd, dim_val, agrt_dt, agrt_hour, site_no, ${MEASURE_LIST})
       SELECT e.agrt_gb_cd, x.dim_cd, ${DIM_VALUE_BYTES} AS dim_val, ?, HOUR(e.evt_dtm), ${byBytes('e.site_no')} AS site_key, ${EVENT_SUMS}
       FROM ord_stat_evt e ${hourlyDimJoins('e')}
       WHERE ${EVENTS_OF_DAY}
       GROUP BY e.agrt_gb_cd, x.dim_cd, dim_val, HOUR(e.evt_dtm), site_key
       ${addOnDuplicate(PERIOD_ROLLUPS.dimHourly, MEASURE_COLUMNS)}`,
      bindings,
    );
    await sumOverSites(db, PERIOD_ROLLUPS.dimHourly, EVENT_HOUR_ALL, day);
    // The every-site rows are derived from these, so not counted again.
    rows.set(day, (dims.get(day) ?? 0) + hourly.affectedRows + dimHourly.affectedRows);
  }
  return rows;
}

// ---- inflow rollups: rewritten by every inflow build, inside its transaction -----------------

/** The every-site hourly page-view dimension rows: their key but the date. */
const INFLOW_HOUR_ALL = { table: INFLOW_AGGREGATES.dimHourlyAll, keys: ['dim_cd', 'dim_val', 'agrt_hour'], sums: ['inf_cnt'] };

/**
 * After an inflow build wrote `agg_inflow_hourly` for `days` (or one `hour` of a single day):
 * the site and hourly dimension rows of those hours, and the days' dimension rows from every
 * hour of each day (the caller holds the days' locks, so builds of other hours wait for this one).
 */
export async function rebuildInflowRollups(db: Db, days: DaySpan, hour: number | undefined): Promise<void> {
  if (hour !== undefined && days.first !== days.last) throw new Error('one hour is rebuilt of a single day only');
  for (const day of eachDay(days.first, days.last)) {
    const ofHours = hour !== undefined ? ' AND i.agrt_hour = ?' : '';
    const bindings = hour !== undefined ? [day, hour] : [day];
    for (const table of [INFLOW_AGGREGATES.siteHourly, INFLOW_AGGREGATES.dimHourly, INFLOW_AGGREGATES.dimHourlyAll]) {
      const rows = db(table).where({ agrt_dt: day });
      if (hour !== undefined) rows.andWhere({ agrt_hour: hour });
      await rows.delete();
    }
    await db.raw(
      `INSERT INTO ${INFLOW_AGGREGATES.siteHourly} (agrt_dt, agrt_hour, site_no, inf_cnt)
       SELECT i.agrt_dt, i.agrt_hour, i.site_no, SUM(i.inf_cnt) FROM ${INFLOW_AGGREGATES.goodsHourly} i
       WHERE i.agrt_dt = ?${ofHours}
       GROUP BY i.agrt_dt, i.agrt_hour, i.site_no`,
      bindings,
    );
    await db.raw(
      `INSERT INTO ${INFLOW_AGGREGATES.dimHourly} (dim_cd, dim_val, agrt_dt, agrt_hour, site_no, inf_cnt)
       SELECT x.dim_cd, ${DIM_VALUE_BYTES} AS dim_val, i.agrt_dt, i.agrt_hour, ${byBytes('i.site_no')} AS site_key, SUM(i.inf_cnt)
       FROM ${INFLOW_AGGREGATES.goodsHourly} i ${hourlyDimJoins('i')}
       WHERE i.agrt_dt = ?${ofHours}
       GROUP BY x.dim_cd, dim_val, i.agrt_dt, i.agrt_hour, site_key
       ${addOnDuplicate(INFLOW_AGGREGATES.dimHourly, ['inf_cnt'])}`,
      bindings,
    );
    await sumOverSites(db, INFLOW_AGGREGATES.dimHourly, INFLOW_HOUR_ALL, day, hour);
  }
  await replaceDimDays(db, 'inflow-month', days, [
    {
      rollup: INFLOW_DIMS,
      insert: async (day) => {
        // The day's hours are summed per (site, goods) first: the dimension fan-out (one row per
        // dimension) then multiplies ~25 k rows instead of ~55 k (0.94 → 0.32 s a day at full scale).
        const result = await execute(
          db,
          `INSERT INTO ${INFLOW_AGGREGATES.dimDaily} (dim_cd, dim_val, agrt_dt, site_no, inf_cnt)
           SELECT x.dim_cd, ${DIM_VALUE_BYTES} AS dim_val, i.agrt_dt, ${byBytes('i.site_no')} AS site_key, SUM(i.inf_cnt)
           FROM (SELECT agrt_dt, site_no, goods_no, SUM(inf_cnt) AS inf_cnt FROM ${INFLOW_AGGREGATES.goodsHourly}
                 WHERE agrt_dt = ? GROUP BY agrt_dt, site_no, goods_no) i ${dimJoins('i')}
           GROUP BY x.dim_cd, dim_val, i.agrt_dt, site_key
           ${addOnDuplicate(INFLOW_AGGREGATES.dimDaily, ['inf_cnt'])}`,
          [day],
        );
        return result.affectedRows;
      },
    },
    overSites(db, INFLOW_DIMS, INFLOW_DIMS_ALL),
  ]);
}

// ---- reconciliation -------------------------------------------------------------------------

const SUMMED = MEASURE_COLUMNS.map((c) => `SUM(${c}) AS ${c}`).join(', ');

const HOURLY_DIM_CDS = new Set<string>(HOURLY_GOODS_DIMENSIONS.map((d) => d.dimCd));

/** What one day's rollups should hold, summed straight from its events with the same filing. */
export async function periodSourceTotals(db: Db, [from, to]: TimeRange): Promise<PartTotals[]> {
  const hourly = await selectRows<PartTotals>(
    db,
    `SELECT e.agrt_gb_cd, 'hourly' AS part, ${EVENT_SUMS_AS_COLUMNS} FROM ord_stat_evt e WHERE ${EVENTS_OF_DAY} GROUP BY e.agrt_gb_cd`,
    [...AGRT_GBS, from, to],
  );
  const dims = await selectRows<PartTotals>(
    db,
    `SELECT e.agrt_gb_cd, x.dim_cd AS part, ${EVENT_SUMS_AS_COLUMNS} FROM ord_stat_evt e ${dimJoins('e')}
     WHERE ${EVENTS_OF_DAY} GROUP BY e.agrt_gb_cd, x.dim_cd`,
    [...AGRT_GBS, from, to],
  );
  // The hourly dimension rows file goods exactly as the daily ones: their totals must match them;
  // so must the every-site rows of both.
  const hourlyDims = dims.filter((d) => HOURLY_DIM_CDS.has(d.part)).map((d) => ({ ...d, part: `${d.part}-hourly` }));
  const allSites = [...dims, ...hourlyDims].map((d) => ({ ...d, part: `${d.part}-all` }));
  return [...hourly, ...dims, ...hourlyDims, ...allSites];
}

/** What one built day's rollups hold. */
export async function periodAggregateTotals(db: Db, day: string): Promise<PartTotals[]> {
  const hourly = await selectRows<PartTotals>(
    db,
    `SELECT agrt_gb_cd, 'hourly' AS part, ${SUMMED} FROM ${PERIOD_ROLLUPS.siteHourly} WHERE agrt_gb_cd IN (?, ?) AND agrt_dt = ? GROUP BY agrt_gb_cd`,
    [...AGRT_GBS, day],
  );
  const totals = (table: string, part: string) =>
    selectRows<PartTotals>(
      db,
      `SELECT agrt_gb_cd, CONCAT(dim_cd, '${part}') AS part, ${SUMMED} FROM ${table} WHERE agrt_dt = ? GROUP BY agrt_gb_cd, dim_cd`,
      [day],
    );
  return [
    ...hourly,
    ...(await totals(PERIOD_ROLLUPS.dimDaily, '')),
    ...(await totals(PERIOD_ROLLUPS.dimHourly, '-hourly')),
    ...(await totals(PERIOD_ROLLUPS.dimDailyAll, '-all')),
    ...(await totals(PERIOD_ROLLUPS.dimHourlyAll, '-hourly-all')),
  ];
}
