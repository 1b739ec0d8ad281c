import type { Knex } from 'knex';
import mysql2 from 'mysql2';
import { selectRows } from './raw-sql.ts';

/**
 * Reads whose SQL is built by knex once per shape and then only bound. Building and compiling a
 * grouped read with knex cost a fifth of the CPU of a cheap report request (the supplier list
 * of one day: 4,610 req/s bound, 3,800 built each time): the text of such a read depends only on
 * which filters are given and how its range splits, not on the values.
 *
 * A read is described by a plan: plain JSON-able data in which every value that becomes a SQL
 * binding is marked with `bind`. The plan with its bound values left out is the shape (the
 * cache key); `render` turns a plan into a knex query and must take every decision from the plan
 * alone. On the first plan of a shape it renders a copy whose bound values are stand-ins, and
 * records which binding is which value; every later plan of the shape only fills in its values.
 */

/** A value bound at run time; everything else in a plan is part of its shape. */
class Bound {
  constructor(readonly value: string | number) {}
}

/**
 * Marks a plan value as a binding. Typed as the value so a plan reads like the data it is; only
 * `compiledRead` sees the mark. Use one per value: a list of values is a list of binds, whose
 * length is part of the shape.
 */
export const bind = <T extends string | number>(value: T): T => new Bound(value) as unknown as T;

interface Compiled {
  sql: string;
  /** Per binding: the index of the plan's bound value, or a constant the render wrote itself. */
  slots: ({ value: number } | { constant: unknown })[];
}

/** Stand-in `i` for the first render of a shape: no real value looks like it. */
const MARK = '\u0000bound:';
const standIn = (i: number) => `${MARK}${i}\u0000`;
const STAND_IN = new RegExp(`^${MARK}(\\d+)\u0000$`);

/** Shapes kept per render; a plan whose shape has too many variants is an error in its render. */
const MAX_SHAPES = 2_000;

/** Builds the query of a plan; must take every decision from the plan, and bind its values. */
export type Render<P> = (knex: Knex, plan: P) => Knex.QueryBuilder;

const compiledByRender = new WeakMap<Render<never>, Map<string, Compiled>>();

/** The plan as JSON with each bound value replaced by `replace` (which may collect it). */
const rewrite = (plan: unknown, replace: (b: Bound) => unknown): unknown =>
  JSON.parse(JSON.stringify(plan, (_key, v: unknown) => (v instanceof Bound ? replace(v) : v)));

function compile<P>(knex: Knex, plan: P, render: Render<P>): Compiled {
  let n = 0;
  const template = rewrite(plan, () => standIn(n++)) as P;
  const { sql, bindings } = render(knex, template).toSQL();
  const slots = bindings.map((b) => {
    const m = typeof b === 'string' ? STAND_IN.exec(b) : null;
    if (!m && typeof b === 'string' && b.includes(MARK))
      throw new Error(`compiledRead: the render bound a value made from a bound value (${JSON.stringify(b)})`);
    return m ? { value: Number(m[1]) } : { constant: b };
  });
  if (sql.includes(MARK)) throw new Error('compiledRead: the render wrote a bound value into the SQL text instead of binding it');
  if (new Set(slots.flatMap((s) => ('value' in s ? [s.value] : []))).size !== n)
    throw new Error('compiledRead: the render left a bound value of the plan unbound');
  return { sql, slots };
}

/** The plan with its bound values as plain values: what `render` builds the ordinary way. */
export const planValues = <P>(plan: P): P => rewrite(plan, (b) => b.value) as P;

/**
 * The rows of the read `render(knex, plan)`, from SQL compiled once per shape of `plan`. `render` must
 * be one function for the life of the process (a module constant): its compiled shapes are kept
 * with it.
 */
export function compiledRead<T, P>(knex: Knex, plan: P, render: Render<P>): Promise<T[]> {
  let shapes = compiledByRender.get(render as Render<never>);
  if (!shapes) compiledByRender.set(render as Render<never>, (shapes = new Map<string, Compiled>()));
  const values: (string | number)[] = [];
  const shape = JSON.stringify(plan, (_key, v: unknown) => {
    if (!(v instanceof Bound)) return v;
    values.push(v.value);
    return '\u0000?';
  });
  let compiled = shapes.get(shape);
  if (!compiled) {
    compiled = compile(knex, plan, render);
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
    shapes.set(shape, compiled);
  }
  const bindings = compiled.slots.map((s) => ('value' in s ? values[s.value] : s.constant)) as Knex.RawBinding[];
  return runCompiled<T>(knex, compiled.sql, bindings);
}

/** The part of knex's client a compiled read runs through: its pool, and mysql2's connections in it. */
interface PooledClient {
  acquireConnection(): Promise<QueryConnection>;
  releaseConnection(connection: QueryConnection): unknown;
}
type RowsCallback = (err: (Error & { errno?: number }) | null, rows: unknown) => void;
interface QueryConnection {
  query(options: { sql: string }, values: readonly unknown[], callback: RowsCallback): void;
  execute(options: { sql: string }, values: readonly unknown[], callback: RowsCallback): void;
}

/** The server would not prepare the statement: at its statement limit, or not preparable. Sent as text instead. */
const NOT_PREPARED = new Set([
  1461, // ER_MAX_PREPARED_STMT_COUNT_REACHED
  1295, // ER_UNSUPPORTED_PS
]);

const PLAIN_DECIMAL = /^-?\d+\.\d+$/;

/**
 * The bindings typed as the text protocol writes them, for a prepared statement: a whole number
 * as a BIGINT (mysql2 would send any number as a DOUBLE, and a DOUBLE in a sum or product is no
 * longer exact), a fraction as a DECIMAL, text and NULL as they are. Anything else (dates,
 * buffers, booleans, 1e21) is not written the same way by both: undefined, sent as text.
 */
export function preparedValues(bindings: readonly unknown[]): unknown[] | undefined {
  const values: unknown[] = new Array(bindings.length);
  for (let i = 0; i < bindings.length; i++) {
    const b = bindings[i];
    if (typeof b === 'string' || b === null) values[i] = b;
    else if (typeof b === 'number' && Number.isSafeInteger(b)) values[i] = mysql2.TypedParameter.LONGLONG(b);
    else if (typeof b === 'number' && PLAIN_DECIMAL.test(String(b))) values[i] = mysql2.TypedParameter.DECIMAL(String(b));
    else return undefined;
  }
  return values;
}

/**
 * Final SQL and its values, sent on a connection from knex's pool (so its limits, replica choice
 * and validation hold) without knex's runner around it: raw-query parsing, debug and events were
 * 5 % of a cheap report's CPU. It goes as a server-side prepared statement, which mysql2 keeps
 * per connection (`maxPreparedStatements`, connection.ts): the server parses a shape once per
 * connection instead of on every request, which took its CPU for a cheap list from ~0.36 to
 * ~0.26 ms. A statement the server will not prepare is sent as text. Inside a transaction, or
 * while anyone listens to knex's query events (tests, the bench's SQL capture), it goes through
 * knex as usual.
 */
async function runCompiled<T>(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Promise<T[]> {
  if (knex.isTransaction || knex.listenerCount('query') > 0) return selectRows<T>(knex, sql, bindings);
  const client = knex.client as PooledClient;
  const connection = await client.acquireConnection();
  const send = (how: 'query' | 'execute', values: readonly unknown[]) =>
    new Promise<T[]>((resolve, reject) => connection[how]({ sql }, values, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
  try {
    const prepared = preparedValues(bindings);
    if (!prepared) return await send('query', bindings);
    return await send('execute', prepared).catch((err: Error & { errno?: number }) => {
      if (err.errno !== undefined && NOT_PREPARED.has(err.errno)) return send('query', bindings);
      throw err;
    });
  } finally {
    client.releaseConnection(connection);
  }
}
