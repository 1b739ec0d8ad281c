import { AGGREGATE_TABLES } from '@bo/aggregates';
import { selectRows, type Knex } from '@bo/db';
import { elapsedMs } from '../infra/percentiles.ts';
import { eachConcurrently } from '../infra/work-list.ts';

/**
 * The rebuild's floor: the server writing the rows a full rebuild leaves, with the same keys and
 * nothing to read from the sources or compute. Each aggregate table's first rows in key order
 * are copied into an empty table of its shape (`INSERT … SELECT`, key order, so every insert
 * appends), tables two at a time as the rebuild runs its jobs; the time per row of each table
 * gives the estimate for all its rows.
 */

/** Share of each table copied: a quarter keeps the full scale's copy near a minute or two. */
const COPIED_SHARE = 0.25;

export interface CopyFloor {
  /** Estimated time to copy every row of every table, `concurrency` tables at a time. */
  estimateMs: number;
  tableRows: number;
  copiedRows: number;
  copiedMs: number;
}

const copyOf = (table: string) => `bench_copy_${table}`;

async function copyShare(knex: Knex, table: string): Promise<{ rows: number; copied: number; ms: number }> {
  const [counted] = await selectRows<{ n: number }>(knex, `SELECT COUNT(*) AS n FROM \`${table}\``);
  const rows = Number(counted?.n ?? 0);
  const copied = Math.ceil(rows * COPIED_SHARE);
  await knex.raw(`DROP TABLE IF EXISTS \`${copyOf(table)}\``);
  await knex.raw(`CREATE TABLE \`${copyOf(table)}\` LIKE \`${table}\``);
  try {
    const start = process.hrtime.bigint();
    await knex.raw(`INSERT INTO \`${copyOf(table)}\` SELECT * FROM \`${table}\` LIMIT ?`, [copied]);
    return { rows, copied, ms: elapsedMs(start) };
  } finally {
    await knex.raw(`DROP TABLE IF EXISTS \`${copyOf(table)}\``);
  }
}

/** Copy a share of every rebuilt table, `concurrency` at a time; see the file's comment. */
export async function measureCopyFloor(knex: Knex, concurrency: number): Promise<CopyFloor> {
  let tableRows = 0;
  let copiedRows = 0;
  let copiedMs = 0;
  let busyMs = 0;
  // Every aggregate table (the running sums included: the rebuild ends with their refresh).
  await eachConcurrently(AGGREGATE_TABLES, concurrency, async (table) => {
    const c = await copyShare(knex, table);
    tableRows += c.rows;
    copiedRows += c.copied;
    copiedMs += c.ms;
    // A table's whole copy at its sample's pace (an empty table: nothing).
    if (c.copied > 0) busyMs += (c.ms * c.rows) / c.copied;
  });
  return { estimateMs: busyMs / concurrency, tableRows, copiedRows, copiedMs };
}
