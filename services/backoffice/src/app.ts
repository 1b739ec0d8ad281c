import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Knex } from '@bo/db';
import { bearerAuth, createServiceApp, parseOrigins, type Logger } from '@bo/service-kit';
import type { BackofficeConfig } from './config.ts';
import { mountAiRoutes } from './ai/routes.ts';
import { mountDashboardRoutes } from './dashboard/routes.ts';
import { mountStatisticsRoutes } from './statistics/routes.ts';

export const BO_PREFIX = '/api/bo';

export interface BackofficeDeps {
  config: BackofficeConfig;
  logger: Logger;
  /** The bo database: source tables (read-only) and the worker's aggregates. */
  knex: Knex;
  /**
   * Holds the AI rate-limit counters (a fail-fast client: `createRedis(…, { failFast: true })`).
   * Without it the AI operations are not rate limited; `main.ts` gives one whenever
   * AI_RATE_LIMIT_PER_MINUTE is above 0.
   */
  redis?: Redis;
  /** The current instant; defaults to the system clock. Tests fix it to put rows exactly on a time-window boundary. */
  clock?: () => Date;
}

/** The back-office service as an Express app; `main.ts` listens, tests use it in-process. */
export function createBackofficeApp(deps: BackofficeDeps): Express {
  return createServiceApp({
    name: 'backoffice',
    docs: 'backoffice',
    prefix: BO_PREFIX,
    logger: deps.logger,
    probes: { database: () => deps.knex.raw('SELECT 1') },
    guards: bearerAuth(deps.config),
    hardening: { requestTimeoutMs: deps.config.REQUEST_TIMEOUT_MS, corsOrigins: parseOrigins(deps.config.CORS_ORIGINS) },
    routes: (router) => {
      mountAiRoutes(router, deps);
      mountStatisticsRoutes(router, deps);
      mountDashboardRoutes(router, deps);
    },
  });
}
