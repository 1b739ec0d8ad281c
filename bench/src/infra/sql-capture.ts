import type { Knex } from '@bo/db';

export interface CapturedQuery {
  sql: string;
  bindings: unknown[];
  /** Set when the statement ran inside a transaction. */
  txId?: string;
}

/**
 * Statements that may run at the same time: a query that starts while an earlier one is still
 * running joins that one's wave (the code awaited them together, e.g. `Promise.all`).
 */
export type QueryScript = CapturedQuery[][];

interface Timed extends CapturedQuery {
  uid: string;
  start: number;
  end: number;
}

interface KnexQueryData {
  sql: string;
  bindings?: unknown[];
  __knexQueryUid: string;
  __knexTxId?: string;
}

/** The SQL `fn` makes `knex` send, in the order sent, grouped into concurrent waves. */
export async function captureQueries<T>(knex: Knex, fn: () => Promise<T>): Promise<{ result: T; script: QueryScript; statements: number }> {
  const timed = new Map<string, Timed>();
  const onQuery = (q: KnexQueryData) => {
    timed.set(q.__knexQueryUid, {
      uid: q.__knexQueryUid,
      sql: q.sql,
      bindings: q.bindings ?? [],
      ...(q.__knexTxId ? { txId: q.__knexTxId } : {}),
      start: performance.now(),
      end: Number.POSITIVE_INFINITY,
    });
  };
  const onDone = (_res: unknown, q: KnexQueryData) => {
    const t = timed.get(q.__knexQueryUid);
    if (t) t.end = performance.now();
  };
  const onError = (_err: unknown, q: KnexQueryData) => onDone(null, q);
  knex.on('query', onQuery).on('query-response', onDone).on('query-error', onError);
  try {
    const result = await fn();
    return { result, script: toWaves([...timed.values()]), statements: timed.size };
  } finally {
    knex.removeListener('query', onQuery);
    knex.removeListener('query-response', onDone);
    knex.removeListener('query-error', onError);
  }
}

function toWaves(queries: Timed[]): QueryScript {
  const waves: QueryScript = [];
  let latestEnd = Number.NEGATIVE_INFINITY;
  for (const q of queries.sort((a, b) => a.start - b.start)) {
    const { sql, bindings, txId } = q;
    const plain: CapturedQuery = { sql, bindings, ...(txId ? { txId } : {}) };
    if (waves.length && q.start < latestEnd) waves[waves.length - 1]!.push(plain);
    else waves.push([plain]);
    latestEnd = Math.max(latestEnd, q.end);
  }
  return waves;
}

export const scriptStatements = (script: QueryScript): CapturedQuery[] => script.flat();
