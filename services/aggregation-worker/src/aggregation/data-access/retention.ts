import { execute, monthPartition, monthStart, selectRows, type Db, type EventTable } from '@bo/db';
import { DAILY_KINDS } from '@bo/contracts';
import { BUILD_TABLES } from '@bo/aggregates';

/** What was built from each event table: the daily kinds (one row per day) or inflow (one row per hour). */
const BUILT_FROM: Record<EventTable, { kinds: readonly string[]; perDay: number; hours: string }> = {
  ord_stat_evt: { kinds: DAILY_KINDS, perDay: DAILY_KINDS.length, hours: 'agrt_hour = -1' },
  goods_inflow_log: { kinds: ['inflow'], perDay: 24, hours: 'agrt_hour BETWEEN 0 AND 23' },
};

/** How many (kind, day[, hour]) of `month` are recorded built from `table`'s events, and how many there should be. */
export async function builtCountOfMonth(db: Db, table: EventTable, month: string): Promise<{ built: number; expected: number }> {
  const b = BUILT_FROM[table];
  const [row] = await selectRows<{ built: number; days: number }>(
    db,
    `SELECT (SELECT COUNT(*) FROM ${BUILD_TABLES.builtDay}
              WHERE kind IN (${b.kinds.map(() => '?').join(', ')}) AND ${b.hours}
                AND agrt_dt >= ? AND agrt_dt < ? + INTERVAL 1 MONTH) AS built,
            DAY(LAST_DAY(?)) AS days`,
    [...b.kinds, monthStart(month), monthStart(month), monthStart(month)],
  );
  return { built: Number(row!.built), expected: Number(row!.days) * b.perDay };
}

export async function recordDroppedMonth(db: Db, table: EventTable, month: string, at: string): Promise<void> {
  await execute(db, 'INSERT IGNORE INTO evt_retention (table_nm, agrt_mon, dropped_dtm) VALUES (?, ?, ?)', [table, month, at]);
}

/** True when the retention command dropped the events `day` of `table` was built from. */
export async function monthDropped(db: Db, table: EventTable, day: string): Promise<boolean> {
  const rows = await selectRows(db, 'SELECT 1 FROM evt_retention WHERE table_nm = ? AND agrt_mon = ?', [table, day.slice(0, 7)]);
  return rows.length > 0;
}

/** Whether the month's partition holds any row (one index probe, not a count). */
export async function monthHasRows(db: Db, table: EventTable, month: string): Promise<boolean> {
  const rows = await selectRows(db, `SELECT 1 FROM \`${table}\` PARTITION (${monthPartition(month)}) LIMIT 1`);
  return rows.length > 0;
}
