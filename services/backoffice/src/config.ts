import { Type } from '@sinclair/typebox';
import { checkJwt, checkTimeZone, ConfigFragments, loadConfig } from '@bo/service-kit';
import { aiConfigSchema } from './ai/ai-config.ts';

export const backofficeConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.boDatabase,
  ...ConfigFragments.jwt,
  BO_PORT: ConfigFragments.ports.BO_PORT,
  ...aiConfigSchema,
  STATISTICS_TOP_N: Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'N of the TOP-N category list' }),
};

export type BackofficeConfig = ReturnType<typeof loadBackofficeConfig>;

export const loadBackofficeConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(backofficeConfigSchema, env, (c) => [...checkJwt(c), ...checkTimeZone(c)]);
