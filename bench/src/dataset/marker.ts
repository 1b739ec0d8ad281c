import type { Knex } from '@bo/db';

/**
 * A benchmark database remembers what it holds (the spec: scale, sizes, seed) and facts learned
 * while building it (time taken, first/last day, whether aggregates are built). A later run
 * with the same spec reuses the data instead of generating it again.
 */
const TABLE = 'bench_dataset';

export interface Marker<I> {
  spec: string;
  info: I;
}

async function ensureTable(knex: Knex): Promise<void> {
  await knex.raw(`CREATE TABLE IF NOT EXISTS ${TABLE} (
    id TINYINT NOT NULL PRIMARY KEY, spec_json TEXT NOT NULL, info_json TEXT NOT NULL, upd_dtm DATETIME NOT NULL
  ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
}

export async function readMarker<I>(knex: Knex): Promise<Marker<I> | undefined> {
  await ensureTable(knex);
  const row = (await knex(TABLE).where({ id: 1 }).first()) as { spec_json: string; info_json: string } | undefined;
  return row ? { spec: row.spec_json, info: JSON.parse(row.info_json) as I } : undefined;
}

export async function writeMarker<I>(knex: Knex, spec: string, info: I): Promise<void> {
  await ensureTable(knex);
  const upd = new Date().toISOString().slice(0, 19).replace('T', ' ');
  await knex(TABLE)
    .insert({ id: 1, spec_json: spec, info_json: JSON.stringify(info), upd_dtm: upd })
    .onConflict('id')
    .merge(['spec_json', 'info_json', 'upd_dtm']);
}

/** Empty every table of the database except the migration bookkeeping, before generating anew. */
export async function truncateAll(knex: Knex): Promise<void> {
  const [rows] = (await knex.raw('SHOW FULL TABLES WHERE Table_type = ?', ['BASE TABLE'])) as [Record<string, string>[]];
  const names = rows.map((r) => Object.values(r)[0]!).filter((n) => !/^(knex_|schema_migrations|migrations)/i.test(n) && n !== TABLE);
  for (const name of names) await knex.raw(`TRUNCATE TABLE \`${name}\``);
}
