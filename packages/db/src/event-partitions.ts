import type { Knex } from 'knex';
import { addMonths, eachMonth, nextMonthStart } from './platform-time.ts';
import { selectRows } from './raw-sql.ts';

/**
 * The two event tables that grow without end, range-partitioned by the month of their time
 * column: `p<yyyymm>` holds that month, `p_before` anything older than the first month, `p_future`
 * anything past the last. Reports over a time range read only the months they cover (partition
 * pruning), and a month past retention is dropped whole (a metadata change, not a DELETE).
 */
export const EVENT_TABLES = { ord_stat_evt: 'evt_dtm', goods_inflow_log: 'inflow_dtm' } as const;
export type EventTable = keyof typeof EVENT_TABLES;

/** `2026-03` → `p202603`. */
export const monthPartition = (month: string): string => `p${month.replace('-', '')}`;

/** A month's partition holds the days before the first of the month after it. */
const monthClause = (month: string) => `PARTITION ${monthPartition(month)} VALUES LESS THAN ('${nextMonthStart(month)} 00:00:00')`;

/** The PARTITION BY clause for months `from`..`to` with the two catch-alls. */
export function partitionClause(table: EventTable, from: string, to: string): string {
  const months = eachMonth(from, to);
  return [
    `PARTITION BY RANGE COLUMNS(${EVENT_TABLES[table]}) (`,
    `PARTITION p_before VALUES LESS THAN ('${from}-01 00:00:00'),`,
    ...months.map((m) => `${monthClause(m)},`),
    'PARTITION p_future VALUES LESS THAN (MAXVALUE))',
  ].join('\n  ');
}

export interface MonthPartition {
  name: string;
  /** `yyyy-MM`, or null for the catch-alls. */
  month: string | null;
  rows: number;
}

/** The partitions of an event table, oldest first (none when it is not partitioned). */
export async function partitionsOf(knex: Knex, table: EventTable): Promise<MonthPartition[]> {
  const rows = await selectRows<{ name: string | null; rows: number }>(
    knex,
    `SELECT PARTITION_NAME AS name, TABLE_ROWS AS \`rows\` FROM information_schema.PARTITIONS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? ORDER BY PARTITION_ORDINAL_POSITION`,
    [table],
  );
  return rows
    .filter((r) => r.name !== null)
    .map((r) => {
      const m = /^p(\d{4})(\d{2})$/.exec(r.name!);
      return { name: r.name!, month: m ? `${m[1]}-${m[2]}` : null, rows: Number(r.rows) };
    });
}

/** Split `p_future` so that every month up to `through` has its own partition. */
export async function addMonthsThrough(knex: Knex, table: EventTable, through: string): Promise<string[]> {
  const months = (await partitionsOf(knex, table)).map((p) => p.month).filter((m): m is string => m !== null);
  const last = months[months.length - 1];
  if (!last || last >= through) return [];
  const added = eachMonth(addMonths(last, 1), through);
  await knex.raw(
    `ALTER TABLE \`${table}\` REORGANIZE PARTITION p_future INTO (${added.map(monthClause).join(', ')}, PARTITION p_future VALUES LESS THAN (MAXVALUE))`,
  );
  return added;
}

/** Drop one month's partition: its rows go at once, the table's other months are untouched. */
export async function dropMonth(knex: Knex, table: EventTable, month: string): Promise<void> {
  await knex.raw(`ALTER TABLE \`${table}\` DROP PARTITION ${monthPartition(month)}`);
}
