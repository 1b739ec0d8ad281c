import type { Migration } from '../../migrate.ts';
import { EVENT_TABLES, partitionClause, type EventTable } from '../../event-partitions.ts';
import { selectRows } from '../../raw-sql.ts';

const KEY_OF: Record<EventTable, string> = { ord_stat_evt: 'evt_no', goods_inflow_log: 'log_no' };
/** Months created below today's and ahead of it; older rows go to p_before, later ones to p_future. */
const MONTHS_BACK = 24;
const MONTHS_AHEAD = 12;

const monthOffset = (months: number): string => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1)).toISOString().slice(0, 7);
};

/**
 * Month partitions of the two event tables (event-partitions.ts), on a table that may already
 * hold years of rows: the first month is the oldest row's (or two years back), so every existing
 * row gets its own month. A partitioned table's every unique key must hold the partition column,
 * so the primary key becomes (id, time); the id stays AUTO_INCREMENT and unique in practice.
 * The ALTER copies the table once. `evt_retention` records the months the retention command
 * dropped, so a rebuild of such a day is refused instead of emptying its aggregates.
 */
export const eventPartitionsMigration: Migration = {
  name: '0003-bo-event-partitions',
  up: async (knex) => {
    for (const [table, column] of Object.entries(EVENT_TABLES) as [EventTable, string][]) {
      const [oldest] = await selectRows<{ m: string | null }>(knex, `SELECT DATE_FORMAT(MIN(${column}), '%Y-%m') AS m FROM \`${table}\``);
      const back = monthOffset(-MONTHS_BACK);
      const from = oldest?.m && oldest.m < back ? oldest.m : back;
      const to = monthOffset(MONTHS_AHEAD);
      await knex.raw(
        `ALTER TABLE \`${table}\` DROP PRIMARY KEY, ADD PRIMARY KEY (${KEY_OF[table]}, ${column})\n  ${partitionClause(table, from, to)}`,
      );
    }
    await knex.raw(
      `CREATE TABLE evt_retention (table_nm VARCHAR(40) NOT NULL, agrt_mon CHAR(7) NOT NULL, dropped_dtm DATETIME NOT NULL,
        PRIMARY KEY (table_nm, agrt_mon)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`,
    );
  },
  down: async (knex) => {
    await knex.raw('DROP TABLE IF EXISTS evt_retention');
    for (const table of Object.keys(EVENT_TABLES) as EventTable[]) {
      await knex.raw(`ALTER TABLE \`${table}\` REMOVE PARTITIONING`);
      await knex.raw(`ALTER TABLE \`${table}\` DROP PRIMARY KEY, ADD PRIMARY KEY (${KEY_OF[table]})`);
    }
  },
};
