import type { Knex } from 'knex';
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
interface QueryConnection {
  query(options: { sql: string }, values: readonly unknown[], callback: (err: Error | null, rows: unknown) => void): void;
}

/**
 * Final SQL and its values, sent on a connection from knex's pool (so its limits, replica choice
 * and validation hold) as knex's own mysql2 dialect sends it, without knex's runner around it:
 * raw-query parsing, debug and events were 5 % of a cheap report's CPU. Inside a transaction, or
 * while anyone listens to knex's query events (tests, the bench's SQL capture), it goes through
 * knex as usual.
 */
async function runCompiled<T>(knex: Knex, sql: string, bindings: readonly Knex.RawBinding[]): Promise<T[]> {
  if (knex.isTransaction || knex.listenerCount('query') > 0) return selectRows<T>(knex, sql, bindings);
  const client = knex.client as PooledClient;
  const connection = await client.acquireConnection();
  try {
    return await new Promise<T[]>((resolve, reject) =>
      connection.query({ sql }, bindings, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
    );
  } finally {
    client.releaseConnection(connection);
  }
}
