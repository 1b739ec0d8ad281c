import type { Knex } from '../connection.ts';

interface IndexColumn {
  INDEX_NAME: string;
  NON_UNIQUE: number | string;
  COLUMN_NAME: string;
  SUB_PART: number | null;
}

/**
 * Secondary indexes of a table as `ADD [UNIQUE] KEY` clauses, read from the server so that
 * whatever the migrations defined is put back exactly.
 */
async function secondaryIndexes(knex: Knex, table: string): Promise<{ name: string; clause: string }[]> {
  const [rows] = (await knex.raw(
    `SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY' ORDER BY INDEX_NAME, SEQ_IN_INDEX`,
    [table],
  )) as [IndexColumn[]];
  const byName = new Map<string, IndexColumn[]>();
  for (const r of rows) byName.set(r.INDEX_NAME, [...(byName.get(r.INDEX_NAME) ?? []), r]);
  return [...byName].map(([name, cols]) => ({
    name,
    clause: `ADD ${Number(cols[0]!.NON_UNIQUE) === 0 ? 'UNIQUE ' : ''}KEY \`${name}\` (${cols.map((c) => `\`${c.COLUMN_NAME}\`${c.SUB_PART ? `(${c.SUB_PART})` : ''}`).join(', ')})`,
  }));
}

/**
 * Drops the secondary indexes of the given (empty) tables for a bulk load and returns the
 * function that builds them again. Building an index once over sorted data is much faster
 * than maintaining it row by row once the table outgrows the buffer pool.
 */
export async function withoutSecondaryIndexes(knex: Knex, tables: readonly string[]): Promise<() => Promise<void>> {
  const dropped: { table: string; clauses: string[] }[] = [];
  for (const table of tables) {
    const indexes = await secondaryIndexes(knex, table);
    if (indexes.length === 0) continue;
    await knex.raw(`ALTER TABLE \`${table}\` ${indexes.map((i) => `DROP INDEX \`${i.name}\``).join(', ')}`);
    dropped.push({ table, clauses: indexes.map((i) => i.clause) });
  }
  return async () => {
    await Promise.all(dropped.map(({ table, clauses }) => knex.raw(`ALTER TABLE \`${table}\` ${clauses.join(', ')}`)));
  };
}
