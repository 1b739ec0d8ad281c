import type { Knex } from '@bo/db';

interface IndexColumn {
  INDEX_NAME: string;
  NON_UNIQUE: number | string;
  COLUMN_NAME: string;
  SUB_PART: number | null;
  DATA_TYPE: string;
  CHARACTER_MAXIMUM_LENGTH: number | null;
}

interface SecondaryIndex {
  name: string;
  clause: string;
  columns: IndexColumn[];
}

/**
 * Secondary indexes of a table as `ADD [UNIQUE] KEY` clauses, read from the server so that
 * whatever the migrations defined is put back exactly.
 */
async function secondaryIndexes(knex: Knex, table: string): Promise<SecondaryIndex[]> {
  const [rows] = (await knex.raw(
    `SELECT s.INDEX_NAME, s.NON_UNIQUE, s.COLUMN_NAME, s.SUB_PART, c.DATA_TYPE, c.CHARACTER_MAXIMUM_LENGTH
       FROM information_schema.STATISTICS s
       JOIN information_schema.COLUMNS c ON c.TABLE_SCHEMA = s.TABLE_SCHEMA AND c.TABLE_NAME = s.TABLE_NAME AND c.COLUMN_NAME = s.COLUMN_NAME
      WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = ? AND s.INDEX_NAME <> 'PRIMARY' ORDER BY s.INDEX_NAME, s.SEQ_IN_INDEX`,
    [table],
  )) as [IndexColumn[]];
  const byName = new Map<string, IndexColumn[]>();
  for (const r of rows) byName.set(r.INDEX_NAME, [...(byName.get(r.INDEX_NAME) ?? []), r]);
  return [...byName].map(([name, columns]) => ({
    name,
    columns,
    clause: `ADD ${Number(columns[0]!.NON_UNIQUE) === 0 ? 'UNIQUE ' : ''}KEY \`${name}\` (${columns.map((c) => `\`${c.COLUMN_NAME}\`${c.SUB_PART ? `(${c.SUB_PART})` : ''}`).join(', ')})`,
  }));
}

/**
 * The loader writes activity rows in time order, so an index whose leading columns are a few
 * short codes followed by a DATETIME (`evt_dtm`, `agrt_gb_cd, evt_dtm`) only ever grows at a
 * handful of points: cheap to keep up during the load. Any other index (by goods, order,
 * member) is written all over and is rebuilt afterwards instead.
 */
function growsAtItsEnd(index: SecondaryIndex): boolean {
  for (const c of index.columns) {
    const type = c.DATA_TYPE.toLowerCase();
    if (type === 'datetime' || type === 'timestamp') return true;
    if (type !== 'char' || (c.CHARACTER_MAXIMUM_LENGTH ?? 99) > 2) return false;
  }
  return false;
}

/**
 * Drops the scattered secondary indexes of the given (empty) tables for a bulk load and
 * returns the function that builds them again: building an index once over sorted data is
 * much faster than maintaining it row by row once it outgrows the buffer pool.
 */
export async function withoutScatteredIndexes(knex: Knex, tables: readonly string[]): Promise<() => Promise<void>> {
  const dropped: { table: string; clauses: string[] }[] = [];
  for (const table of tables) {
    const indexes = (await secondaryIndexes(knex, table)).filter((i) => !growsAtItsEnd(i));
    if (indexes.length === 0) continue;
    await knex.raw(`ALTER TABLE \`${table}\` ${indexes.map((i) => `DROP INDEX \`${i.name}\``).join(', ')}`);
    dropped.push({ table, clauses: indexes.map((i) => i.clause) });
  }
  return async () => {
    await Promise.all(dropped.map(({ table, clauses }) => knex.raw(`ALTER TABLE \`${table}\` ${clauses.join(', ')}`)));
  };
}
