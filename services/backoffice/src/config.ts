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
