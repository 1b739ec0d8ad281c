import type { Knex } from 'knex';

/** A migration as code: the list is the source, so no file loader is involved. */
export interface Migration {
  name: string;
  up: (knex: Knex) => Promise<void>;
  down: (knex: Knex) => Promise<void>;
}

function sourceOf(migrations: readonly Migration[]): Knex.MigrationSource<Migration> {
  const sorted = [...migrations].sort((a, b) => a.name.localeCompare(b.name));
  return {
    getMigrations: () => Promise.resolve(sorted),
    getMigrationName: (m) => m.name,
    getMigration: (m) => Promise.resolve({ up: m.up, down: m.down }),
  };
}

export async function migrateLatest(knex: Knex, migrations: readonly Migration[]): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: sourceOf(migrations) })) as [number, string[]];
  return applied;
}

/** Roll back every migration of the list (`all`) or the last batch. */
export async function migrateRollback(knex: Knex, migrations: readonly Migration[], all = false): Promise<string[]> {
  const [, rolledBack] = (await knex.migrate.rollback({ migrationSource: sourceOf(migrations) }, all)) as [number, string[]];
  return rolledBack;
}
