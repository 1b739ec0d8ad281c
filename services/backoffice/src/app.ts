import type { Express } from 'express';
import { bearerAuth, createServiceApp, parseOrigins } from '@bo/service-kit';
import { mountAiRoutes } from './ai/routes.ts';
import { mountDashboardRoutes } from './dashboard/routes.ts';
import { mountStatisticsRoutes } from './statistics/routes.ts';
import { BO_PREFIX, type BackofficeDeps } from './deps.ts';

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
