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

function connectionOf(url: string) {
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
    flags: u.searchParams.get('localInfile') === 'true' ? ['+LOCAL_FILES'] : [],
  };
}

export function createKnex(url: string, options: { poolMax?: number; poolMin?: number } = {}): Knex {
  return knexFactory({
    client: 'mysql2',
    connection: connectionOf(url),
    pool: { min: options.poolMin ?? 0, max: options.poolMax ?? 10 },
  });
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
