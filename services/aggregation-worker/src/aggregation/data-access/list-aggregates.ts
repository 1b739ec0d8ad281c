import { execute, selectRows, type Db } from '@bo/db';
import { AGRT_GBS, EVENT_MEASURE_SUMS, LIST_AGGREGATES, MEASURE_COLUMNS, type ListKind } from '@bo/aggregates';
import type { DaySpan, TimeRange } from '../model.ts';

/**
 * The SQL of the four list aggregates (category, payment method, goods, supplier): one
 * `INSERT … SELECT … GROUP BY` per (kind, day) from `ord_stat_evt`. Every read takes a half-open
 * `[from, to)` range of the event time so the `evt_dtm` index serves it (never `DATE(col)`).
 */

/** How each list's key and attribute columns (LIST_AGGREGATES, in order) come from events `e`, goods `g`, orders `o`. */
const KEY_SOURCES: Record<ListKind, { keyExprs: string[]; joinOrd: boolean }> = {
  category: { keyExprs: ['g.std_ctg_no', "COALESCE(g.md_id, '')"], joinOrd: false },
  payway: { keyExprs: ['o.pay_way_cd'], joinOrd: true },
  goods: { keyExprs: ['e.goods_no', 'g.entr_no'], joinOrd: false },
  entr: { keyExprs: ['g.entr_no'], joinOrd: false },
};

/** The six sums over events `e`, in MEASURE_COLUMNS order. */
export const EVENT_SUMS = MEASURE_COLUMNS.map((c) => EVENT_MEASURE_SUMS[c]).join(', ');
/** The same, each named after its column. */
export const EVENT_SUMS_AS_COLUMNS = MEASURE_COLUMNS.map((c) => `${EVENT_MEASURE_SUMS[c]} AS ${c}`).join(', ');
/** The six measure columns of aggregate rows summed, in MEASURE_COLUMNS order (rolling rows up into coarser ones). */
export const COLUMN_SUMS = MEASURE_COLUMNS.map((c) => `SUM(${c})`).join(', ');

const joinsOf = (kind: ListKind) =>
  `JOIN goods g ON g.goods_no = e.goods_no${KEY_SOURCES[kind].joinOrd ? ' JOIN ord o ON o.ord_no = e.ord_no' : ''}`;

/**
 * The days' per-site and (for the lists that have them) every-site rows. Naming both report kinds keeps each DELETE on the
 * primary key `(agrt_gb_cd, agrt_dt, …)` instead of locking the whole table.
 */
export async function deleteListDays(db: Db, kind: ListKind, days: DaySpan): Promise<void> {
  const { daily, allSites } = LIST_AGGREGATES[kind];
  for (const table of [daily, ...(allSites ? [allSites.daily] : [])])
    await db(table).whereIn('agrt_gb_cd', AGRT_GBS).andWhereBetween('agrt_dt', [days.first, days.last]).delete();
}

/**
 * The rows of one day of a list from its events: `agrt_gb_cd, [day,] site_no, keys…, sums…`
 * (bound: [the day,] the two agrtGbs, from, to). The build inserts them; the reconciliation
 * compares them with what is stored.
 */
function listDaySelect(kind: ListKind, withDay: boolean): string {
  const keys = KEY_SOURCES[kind].keyExprs.join(', ');
  return `SELECT e.agrt_gb_cd, ${withDay ? '?, ' : ''}e.site_no, ${keys}, ${EVENT_SUMS}
     FROM ord_stat_evt e ${joinsOf(kind)}
     WHERE e.agrt_gb_cd IN (?, ?) AND e.evt_dtm >= ? AND e.evt_dtm < ?
     GROUP BY e.agrt_gb_cd, e.site_no, ${keys}`;
}

/**
 * One `INSERT … SELECT … GROUP BY` for one (kind, day) from the events, then the day's
 * every-site rows (when the list has them) from those per-site rows; returns the number of per-site rows written.
 */
export async function insertListDay(db: Db, kind: ListKind, day: string, [from, to]: TimeRange): Promise<number> {
  const table = LIST_AGGREGATES[kind];
  const keys = [...table.keys, ...table.attributes].join(', ');
  const measures = MEASURE_COLUMNS.join(', ');
  const result = await execute(
    db,
    `INSERT INTO ${table.daily} (agrt_gb_cd, agrt_dt, site_no, ${keys}, ${measures}) ${listDaySelect(kind, true)}`,
    [day, ...AGRT_GBS, from, to],
  );
  if (!table.allSites) return result.affectedRows;
  await execute(
    db,
    `INSERT INTO ${table.allSites.daily} (agrt_gb_cd, agrt_dt, ${keys}, ${measures})
     SELECT agrt_gb_cd, agrt_dt, ${keys}, ${COLUMN_SUMS}
     FROM ${table.daily} WHERE agrt_gb_cd IN (?, ?) AND agrt_dt = ?
     GROUP BY agrt_gb_cd, agrt_dt, ${keys}`,
    [...AGRT_GBS, day],
  );
  return result.affectedRows;
}

/**
 * How many rows of one built day of a list differ from a recomputation from the events, key by
 * key with every attribute and sum: rows that appear on one side only (a late row changes one
 * key's sums; a hand edit that keeps the day's totals still shows).
 */
export async function listDayRowsDiffering(db: Db, kind: ListKind, day: string, [from, to]: TimeRange): Promise<number> {
  const table = LIST_AGGREGATES[kind];
  const columns = ['agrt_gb_cd', 'site_no', ...table.keys, ...table.attributes, ...MEASURE_COLUMNS];
  const [row] = await selectRows<{ n: number }>(
    db,
    `SELECT COUNT(*) AS n FROM (
       SELECT 1 FROM (
         SELECT ${columns.join(', ')} FROM ${table.daily} WHERE agrt_gb_cd IN (?, ?) AND agrt_dt = ?
         UNION ALL
         ${listDaySelect(kind, false)}
       ) u GROUP BY ${columns.map((c) => `u.${c}`).join(', ')} HAVING COUNT(*) = 1
     ) d`,
    [...AGRT_GBS, day, ...AGRT_GBS, from, to],
  );
  return Number(row?.n ?? 0);
}
