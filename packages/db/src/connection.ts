import knexFactory, { type Knex } from 'knex';

export type { Knex };

/** Database name from `mysql://user:pass@host:port/db`. */
export function databaseNameOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`database name in ${redact(url)} must be letters, digits or _ (got "${name}")`);
  return name;
}

/** The same URL pointing at another database (or none). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = database ? `/${database}` : '/';
  return u.toString();
}

export const redact = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

export function connectionOf(url: string) {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 3306),
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password),
    database: u.pathname.replace(/^\//, '') || undefined,
    charset: 'utf8mb4',
    // DATETIME columns hold platform local time without a zone: keep them as text so no
    // process time zone ever shifts them.
    dateStrings: true,
    // SUM() over BIGINT is DECIMAL; amounts stay far below 2^53, so numbers are exact.
    decimalNumbers: true,
    supportBigNumbers: true,
    bigNumberStrings: false,
    multipleStatements: false,
    // Prepared statements kept per connection (compiled reads, compiled-query.ts), the least used
    // closed first: a pool of 10 holds at most 1,280 on the server, whose own limit
    // (max_prepared_stmt_count) is 16,382 by default for all its clients together.
    maxPreparedStatements: 128,
    flags: u.searchParams.get('localInfile') === 'true' ? ['+LOCAL_FILES'] : [],
  };
}

export interface KnexOptions {
  poolMax?: number;
  poolMin?: number;
  /**
   * Longest a query waits for a free pool connection before it fails with KnexTimeoutError
   * (the services answer that 503); knex's own default is 60 s.
   */
  acquireTimeoutMs?: number;
  /**
   * Server-side limit of each statement on this pool's connections, set per connection when the
   * pool opens it (MariaDB `max_statement_time`, every statement; MySQL `max_execution_time`,
   * SELECTs only). 0 or unset: no limit, which is what the worker's long INSERT … SELECT needs.
   */
  statementTimeoutMs?: number;
  /**
   * The limit of a read consumed with `streamRows` instead of `statementTimeoutMs`: a streamed
   * statement lasts as long as its reader takes (an Excel download writing to a slow client).
   * 0: none. Unset: the same as `statementTimeoutMs`.
   */
  streamStatementTimeoutMs?: number;
  /**
   * `innodb_lock_wait_timeout` (seconds) of this pool's connections, set per connection when the
   * pool opens it, so a transaction that must not wait long for a row lock does not spend a
   * round trip setting it each time. Unset: the server's (50 s by default).
   */
  lockWaitSeconds?: number;
}

type ServerKind = 'mariadb' | 'mysql';
const kindOfVersion = (version: string): ServerKind => (/mariadb/i.test(version) ? 'mariadb' : 'mysql');

/** The session statement that limits every later statement of a connection. */
const sessionLimitSql = (kind: ServerKind, ms: number): string =>
  kind === 'mariadb' ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`;

interface PoolLimits {
  statementMs: number;
  streamMs: number;
  kind?: Promise<ServerKind>;
}
const limitsOf = new WeakMap<Knex, PoolLimits>();

/** mysql2's callback connection, as knex hands it to `afterCreate`. */
interface RawConnection {
  query(sql: string, callback: (err: Error | null, rows?: unknown) => void): void;
}

export type ConnectionSettings = ReturnType<typeof connectionOf>;

/** Extra pool behaviour for a read pool that follows its replicas (read-replicas.ts). */
export interface PoolHooks {
  /** Where each new connection goes, asked as it is opened. */
  chooseTarget?: () => Promise<ConnectionSettings>;
  /** A pooled connection is handed out only while this holds (else it is closed and another opened). */
  validate?: (connection: { config: { host: string; port: number } }) => boolean;
}

interface ClientInternals {
  connectionSettings: ConnectionSettings;
  acquireRawConnection: () => Promise<unknown>;
}

export function createKnex(url: string, options: KnexOptions = {}): Knex {
  return createKnexOn(connectionOf(url), options);
}

export function createKnexOn(connection: ConnectionSettings, options: KnexOptions = {}, hooks: PoolHooks = {}): Knex {
  const statementMs = options.statementTimeoutMs ?? 0;
  const lockWait = options.lockWaitSeconds;
  if (lockWait !== undefined && !(Number.isInteger(lockWait) && lockWait >= 1))
    throw new Error(`lockWaitSeconds must be a whole number of seconds (got ${lockWait})`);
  const knex = knexFactory({
    client: 'mysql2',
    connection,
    ...(options.acquireTimeoutMs ? { acquireConnectionTimeout: options.acquireTimeoutMs } : {}),
    pool: {
      min: options.poolMin ?? 0,
      max: options.poolMax ?? 10,
      ...(hooks.validate ? { validate: hooks.validate } : {}),
      ...(statementMs > 0 || lockWait !== undefined
        ? {
            afterCreate: (conn: RawConnection, done: (err: Error | null, conn: RawConnection) => void) => {
              // Per connection, on creation: the server kind decides the statement limit's name and unit.
              const limitStatements = () =>
                statementMs > 0
                  ? conn.query('SELECT VERSION() AS v', (err, rows) => {
                      if (err) return done(err, conn);
                      const kind = kindOfVersion(String((rows as { v: string }[])[0]?.v));
                      conn.query(sessionLimitSql(kind, statementMs), (setErr) => done(setErr, conn));
                    })
                  : done(null, conn);
              if (lockWait === undefined) return limitStatements();
              conn.query(`SET SESSION innodb_lock_wait_timeout = ${lockWait}`, (err) => (err ? done(err, conn) : limitStatements()));
            },
          }
        : {}),
    },
  });
  const choose = hooks.chooseTarget;
  if (choose) {
    // knex's connection-provider option is asked only when its settings expire, not per connection;
    // so the dialect's connect step is wrapped instead. It reads the settings synchronously as it
    // starts, so concurrent opens each get the target chosen for them.
    const client = knex.client as ClientInternals;
    const open = client.acquireRawConnection.bind(client);
    client.acquireRawConnection = async () => {
      client.connectionSettings = await choose();
      return open();
    };
  }
  limitsOf.set(knex, { statementMs, streamMs: options.streamStatementTimeoutMs ?? statementMs });
  return knex;
}

function serverKind(knex: Knex, limits: PoolLimits): Promise<ServerKind> {
  limits.kind ??= knex.raw('SELECT VERSION() AS v').then(
    ([rows]: [{ v: string }[]]) => kindOfVersion(String(rows[0]?.v)),
    (err: unknown) => {
      // Asked again next time: a database that was down for a moment is not remembered as down.
      limits.kind = undefined;
      throw err;
    },
  );
  return limits.kind;
}

/** MySQL's largest MAX_EXECUTION_TIME: its hint cannot say "none" (0 means the session's limit). */
const MYSQL_MAX_EXECUTION_MS = 4_294_967_295;

/**
 * The rows of a read one at a time, the socket paused while the consumer is busy, under the
 * pool's stream limit rather than its statement limit. Stopping the iteration closes the stream.
 */
export async function* streamRows<T>(knex: Knex, query: Knex.QueryBuilder): AsyncGenerator<T> {
  const limits = limitsOf.get(knex);
  if (!limits || limits.streamMs === limits.statementMs) {
    yield* query.stream() as AsyncIterable<T>;
    return;
  }
  if ((await serverKind(knex, limits)) === 'mariadb') {
    yield* knex.raw('SET STATEMENT max_statement_time = ? FOR ?', [limits.streamMs / 1000, query]).stream() as AsyncIterable<T>;
  } else {
    yield* query
      .clone()
      .hintComment(`MAX_EXECUTION_TIME(${limits.streamMs || MYSQL_MAX_EXECUTION_MS})`)
      .stream() as AsyncIterable<T>;
  }
}

/** Create the database of the URL if it does not exist (utf8mb4, for Korean text). */
export async function ensureDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const admin = createKnex(withDatabase(url, ''), { poolMax: 1 });
  try {
    await admin.raw(`CREATE DATABASE IF NOT EXISTS \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  } finally {
    await admin.destroy();
  }
}

export async function dropDatabase(url: string): Promise<void> {
  const name = databaseNameOf(url);
  const admin = createKnex(withDatabase(url, ''), { poolMax: 1 });
  try {
    await admin.raw(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await admin.destroy();
  }
}
