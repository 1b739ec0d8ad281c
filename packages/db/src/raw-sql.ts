import type { Knex } from 'knex';

/** A connection or a transaction: data access runs on either. */
export type Db = Knex | Knex.Transaction;

type Bindings = readonly Knex.RawBinding[] | Knex.ValueDict;

/** What mysql2 reports for a statement that writes. */
export interface WriteResult {
  affectedRows: number;
  insertId: number;
}

/** The rows of a raw SELECT: mysql2 answers `[rows, fields]`, knex types it `any`. */
export async function selectRows<T>(db: Db, sql: string, bindings: Bindings = []): Promise<T[]> {
  const [rows] = (await db.raw(sql, bindings as Knex.RawBinding[])) as [T[], unknown];
  return rows;
}

/** A raw INSERT, UPDATE or DELETE: how many rows it wrote, and the first new id. */
export async function execute(db: Db, sql: string, bindings: Bindings = []): Promise<WriteResult> {
  const [result] = (await db.raw(sql, bindings as Knex.RawBinding[])) as [WriteResult, unknown];
  return result;
}
