import { dropDatabase, type Knex } from '@bo/db';
import { boMigrations, databaseUrl, openMigrated } from '../infra/databases.ts';
import type { BenchOptions } from '../options.ts';

/**
 * A reused data set must be measured with today's schema: the migrations are still being
 * tuned (indexes especially), and a data set generated yesterday keeps yesterday's indexes.
 * The current migrations are applied to an empty scratch database and compared with the data
 * set's tables: different indexes are rebuilt in place; different columns mean the data set
 * has to be generated again.
 */
const IGNORED = /^(knex_|bench_dataset$)/;
/** The worker's tables: derived from the source rows, so a changed one is recreated empty and rebuilt, not a reason to generate again. */
const DERIVED = /^agg_/;

export type SyncResult = 'same' | 'indexes-updated' | 'aggregates-reset' | 'columns-differ';

interface IndexDef {
  table: string;
  name: string;
  clause: string;
}

async function columnsOf(knex: Knex, schema: string): Promise<Map<string, string>> {
  const [rows] = (await knex.raw(
    `SELECT TABLE_NAME t, COLUMN_NAME c, COLUMN_TYPE ty, IS_NULLABLE n, COALESCE(COLUMN_DEFAULT, '') d, ORDINAL_POSITION p
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ?`,
    [schema],
  )) as [{ t: string; c: string; ty: string; n: string; d: string; p: number }[]];
  const out = new Map<string, string>();
  for (const r of rows.filter((r) => !IGNORED.test(r.t)).sort((a, b) => a.t.localeCompare(b.t) || a.p - b.p)) {
    out.set(r.t, `${out.get(r.t) ?? ''}${r.c} ${r.ty} ${r.n} ${r.d};`);
  }
  return out;
}

async function indexesOf(knex: Knex, schema: string): Promise<Map<string, IndexDef>> {
  const [rows] = (await knex.raw(
    `SELECT TABLE_NAME t, INDEX_NAME i, NON_UNIQUE u, COLUMN_NAME c, SUB_PART s FROM information_schema.STATISTICS
      WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
    [schema],
  )) as [{ t: string; i: string; u: number | string; c: string; s: number | null }[]];
  const cols = new Map<string, { table: string; name: string; unique: boolean; parts: string[] }>();
  for (const r of rows.filter((r) => !IGNORED.test(r.t))) {
    const key = `${r.t}.${r.i}`;
    const entry = cols.get(key) ?? { table: r.t, name: r.i, unique: Number(r.u) === 0, parts: [] };
    entry.parts.push(`\`${r.c}\`${r.s ? `(${r.s})` : ''}`);
    cols.set(key, entry);
  }
  const out = new Map<string, IndexDef>();
  for (const [key, e] of cols) {
    const clause =
      e.name === 'PRIMARY'
        ? `PRIMARY KEY (${e.parts.join(', ')})`
        : `${e.unique ? 'UNIQUE ' : ''}KEY \`${e.name}\` (${e.parts.join(', ')})`;
    out.set(key, { table: e.table, name: e.name, clause });
  }
  return out;
}

/** Derived tables whose columns or primary key differ (or that exist on one side only): dropped and created empty as the migrations make them. */
async function recreateChangedDerived(
  knex: Knex,
  database: string,
  reference: Knex,
  scratch: string,
  log: (l: string) => void,
): Promise<boolean> {
  const [want, have] = [await columnsOf(reference, scratch), await columnsOf(knex, database)];
  const [wantIdx, haveIdx] = [await indexesOf(reference, scratch), await indexesOf(knex, database)];
  const primary = (m: Map<string, IndexDef>, t: string) => m.get(`${t}.PRIMARY`)?.clause;
  const tables = new Set([...want.keys(), ...have.keys()].filter((t) => DERIVED.test(t)));
  const changed = [...tables].filter((t) => want.get(t) !== have.get(t) || primary(wantIdx, t) !== primary(haveIdx, t));
  for (const t of changed) {
    log(`    schema: ${t} differs from the migrations: recreated empty (aggregates are rebuilt)`);
    await knex.raw(`DROP TABLE IF EXISTS \`${t}\``);
    if (want.has(t)) await knex.raw(`CREATE TABLE \`${database}\`.\`${t}\` LIKE \`${scratch}\`.\`${t}\``);
  }
  return changed.length > 0;
}

/** `same`, `indexes-updated`, `aggregates-reset` (derived tables recreated: aggregates must be built again) (rebuilt in place) or `columns-differ` (generate again). */
export async function syncSchema(options: BenchOptions, knex: Knex, database: string, log: (l: string) => void): Promise<SyncResult> {
  const scratch = `${options.dbPrefix}_bo_schema`;
  const scratchUrl = databaseUrl(options, scratch);
  const reference = await openMigrated(scratchUrl, boMigrations, 1);
  try {
    const aggregatesReset = await recreateChangedDerived(knex, database, reference, scratch, log);
    const [want, have] = [await columnsOf(reference, scratch), await columnsOf(knex, database)];
    const columnsDiffer = [...want].some(([t, c]) => have.get(t) !== c) || [...have.keys()].some((t) => !want.has(t));
    if (columnsDiffer) return 'columns-differ';
    const [wantIdx, haveIdx] = [await indexesOf(reference, scratch), await indexesOf(knex, database)];
    const changes = new Map<string, string[]>();
    const add = (table: string, clause: string) => changes.set(table, [...(changes.get(table) ?? []), clause]);
    for (const [key, idx] of haveIdx) {
      if (wantIdx.get(key)?.clause === idx.clause) continue;
      if (idx.name === 'PRIMARY') return 'columns-differ';
      add(idx.table, `DROP INDEX \`${idx.name}\``);
    }
    for (const [key, idx] of wantIdx) {
      if (haveIdx.get(key)?.clause === idx.clause) continue;
      if (idx.name === 'PRIMARY') return 'columns-differ';
      add(idx.table, `ADD ${idx.clause}`);
    }
    for (const [table, clauses] of changes) {
      log(`    schema: ${table}: ${clauses.join(', ')}`);
      await knex.raw(`ALTER TABLE \`${table}\` ${clauses.join(', ')}`);
    }
    if (aggregatesReset) return 'aggregates-reset';
    return changes.size ? 'indexes-updated' : 'same';
  } finally {
    await reference.destroy();
    await dropDatabase(scratchUrl);
  }
}
