import mysql from 'mysql2/promise';
import { connectionOf, preparedValues } from '@bo/db';
import { elapsedMs } from './percentiles.ts';
import type { QueryScript } from './sql-capture.ts';

export type Pool = mysql.Pool;

/** A plain mysql2 pool decoding rows the way the services' knex does (dates as text, exact numbers). */
export function createPool(url: string, connectionLimit = 10): Pool {
  // The services' connection settings, and LOCAL INFILE for the loading reference.
  return mysql.createPool({ ...connectionOf(url), connectionLimit, flags: ['+LOCAL_FILES'] });
}

/**
 * Run a captured script once: its waves in order, the statements of a wave together. A script
 * that ran inside a transaction runs on one connection, statement after statement.
 */
export async function runScript(pool: Pool, script: QueryScript, prepared = false): Promise<unknown> {
  let last: unknown;
  // As prepared statements, the values typed as the services' compiled reads type them.
  const send = (conn: Pool | mysql.PoolConnection, q: QueryScript[number][number]) => {
    const values = prepared ? preparedValues(q.bindings) : undefined;
    return values ? conn.execute(q.sql, values as never) : conn.query(q.sql, q.bindings);
  };
  if (script.some((w) => w.some((q) => q.txId))) {
    const conn = await pool.getConnection();
    try {
      for (const q of script.flat()) [last] = await send(conn, q);
    } finally {
      conn.release();
    }
    return last;
  }
  for (const wave of script) {
    const results = await Promise.all(wave.map((q) => send(pool, q)));
    last = results[results.length - 1]?.[0];
  }
  return last;
}

/**
 * `total` runs of the script from `concurrency` loops at once, each loop starting no new run
 * after `maxSeconds`; the latency of each run in ms.
 */
export async function replayUnderLoad(
  pool: Pool,
  script: QueryScript,
  total: number,
  concurrency: number,
  maxSeconds = Infinity,
): Promise<number[]> {
  const latencies: number[] = [];
  const deadline = Date.now() + maxSeconds * 1000;
  let next = 0;
  const loop = async () => {
    while (next < total && Date.now() < deadline) {
      next += 1;
      const start = process.hrtime.bigint();
      await runScript(pool, script);
      latencies.push(elapsedMs(start));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return latencies;
}

/**
 * A one-connection pool whose statements the server stops after `seconds` (MariaDB
 * max_statement_time, MySQL max_execution_time), for references that may run for minutes.
 */
export function createLimitedPool(url: string, seconds: number): Pool {
  const pool = createPool(url, 1);
  // Queued on the new connection before any statement of ours; the other server's variable fails harmlessly.
  pool.pool.on('connection', (conn) => {
    conn.query(`SET SESSION max_statement_time = ${seconds}`, () => undefined);
    conn.query(`SET SESSION max_execution_time = ${seconds * 1000}`, () => undefined);
  });
  return pool;
}

/** The server stopped the statement at its time limit (MariaDB 1969, MySQL 3024). */
export const isStatementTimeout = (err: unknown): boolean => [1969, 3024].includes((err as { errno?: number })?.errno ?? 0);

/** `runs` sequential timings of `fn` in ms. */
export async function timeRuns(runs: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    await fn();
    out.push(elapsedMs(start));
  }
  return out;
}
