import type { Knex } from '@bo/db';

export interface TableHold {
  /** The statements of other connections waiting for the held tables right now. */
  waiting: () => Promise<string[]>;
  /** Unlock the tables; the waiting statements then run. */
  release: () => Promise<void>;
}

/**
 * Hold tables of the database (every table when none are named) with `LOCK TABLES … WRITE` on
 * one connection, so every statement another connection sends to them waits: requests and jobs
 * stay in flight for as long as the test decides, without sleeping.
 */
export async function holdTables(knex: Knex, database: string, only?: readonly string[]): Promise<TableHold> {
  const tables =
    only ??
    ((await knex('information_schema.TABLES').where({ TABLE_SCHEMA: database, TABLE_TYPE: 'BASE TABLE' }).pluck('TABLE_NAME')) as string[]);
  let locked!: () => void;
  let failed!: (err: unknown) => void;
  const isLocked = new Promise<void>((resolve, reject) => ((locked = resolve), (failed = reject)));
  let unlock!: () => void;
  const released = new Promise<void>((r) => (unlock = r));
  let holderId = 0;
  // A transaction is knex's way to keep one connection for a while; LOCK TABLES commits it at once.
  const holding = knex
    .transaction(async (trx) => {
      holderId = Number(((await trx.raw('SELECT CONNECTION_ID() AS id')) as [{ id: number }[]])[0][0]!.id);
      await trx.raw(`LOCK TABLES ${tables.map((t) => `\`${t}\` WRITE`).join(', ')}`);
      locked();
      await released;
      await trx.raw('UNLOCK TABLES');
    })
    .catch(failed);
  await isLocked;
  return {
    waiting: async () => {
      const [rows] = (await knex.raw(
        "SELECT INFO FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> ? AND STATE LIKE 'Waiting for table%'",
        [database, holderId],
      )) as [{ INFO: string | null }[]];
      return rows.map((r) => r.INFO ?? '');
    },
    release: async () => {
      unlock();
      await holding;
    },
  };
}
