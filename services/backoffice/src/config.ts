import { Type } from '@sinclair/typebox';
import { checkJwt, checkTimeZone, ConfigFragments, loadConfig, parseOrigins } from '@bo/service-kit';
import { aiConfigSchema } from './ai/ai-config.ts';

export const backofficeConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.boDatabase,
  ...ConfigFragments.databaseLimits,
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    maximum: 3600000,
    default: 30000,
    description:
      'server-side limit of each back-office read (MariaDB max_statement_time, MySQL max_execution_time), set on each pool connection; past it 900/1503 (httpStatus 503) with Retry-After; 0 = none',
  }),
  DB_STREAM_STATEMENT_TIMEOUT_MS: Type.Integer({
    minimum: 0,
    maximum: 86400000,
    default: 600000,
    description:
      'limit of a streamed read instead (an aggregate-list Excel download reads its rows while it writes the file, so its statement lasts as long as the client takes); 0 = none',
  }),
  BO_DATABASE_READ_URL: Type.String({
    default: '',
    pattern: '^(mysql://[^,\\s]+(,mysql://[^,\\s]+)*)?$',
    description:
      'comma-separated replicas of BO_DATABASE_URL (same database name) that every back-office read (statistics, dashboard, AI) goes to, round robin; empty = read the primary',
  }),
  BO_READ_MAX_LAG_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 86400,
    default: 30,
    description: 'a replica further behind its primary than this (or not replicating, or down) is not read from',
  }),
  BO_READ_CHECK_MS: Type.Integer({ minimum: 100, maximum: 600000, default: 2000, description: 'how often the replicas are checked' }),
  BO_READ_WHEN_NO_REPLICA: Type.Union([Type.Literal('primary'), Type.Literal('unavailable')], {
    default: 'primary',
    description: 'when no replica is up and current: read the primary, or answer 900/1505 (httpStatus 503) with Retry-After',
  }),
  ...ConfigFragments.jwt,
  ...ConfigFragments.redis,
  ...ConfigFragments.http,
  CORS_ORIGINS: Type.String({
    default: '',
    description:
      'comma-separated browser origins (scheme://host[:port]) of the back-office UI allowed to call the API cross-origin; empty = CORS off',
  }),
  BO_PORT: ConfigFragments.ports.BO_PORT,
  ...aiConfigSchema,
  STATISTICS_TOP_N: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'N of the TOP-N category list' }),
  STATISTICS_ANSWER_CACHE_SECONDS: Type.Integer({
    minimum: 0,
    maximum: 86400,
    default: 300,
    description:
      'how long an aggregate-list answer (category, TOP-N, payment method, goods, supplier) is kept in Redis; a build of one of its days replaces it at once, the time bounds renamed masters; 0 = off',
  }),
  STATISTICS_GZIP_MIN_BYTES: Type.Integer({
    minimum: 0,
    default: 16384,
    description:
      'a kept aggregate-list answer of at least this many bytes of JSON is also kept gzipped, and sent so to callers whose Accept-Encoding takes gzip (browsers)',
  }),
};

function checkOrigins(c: { CORS_ORIGINS: string }): string[] {
  try {
    parseOrigins(c.CORS_ORIGINS);
    return [];
  } catch (err) {
    return [`CORS_ORIGINS: ${(err as Error).message}`];
  }
}

export type BackofficeConfig = ReturnType<typeof loadBackofficeConfig>;

export const loadBackofficeConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(backofficeConfigSchema, env, (c) => [...checkJwt(c), ...checkTimeZone(c), ...checkOrigins(c)]);

/** The read pool's settings from BO_DATABASE_READ_URL and its companions. */
export const readReplicaOptions = (c: BackofficeConfig) => ({
  primaryUrl: c.BO_DATABASE_URL,
  replicaUrls: c.BO_DATABASE_READ_URL.split(','),
  maxLagSeconds: c.BO_READ_MAX_LAG_SECONDS,
  checkIntervalMs: c.BO_READ_CHECK_MS,
  whenNoReplica: c.BO_READ_WHEN_NO_REPLICA,
});
