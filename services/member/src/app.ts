import type { Express } from 'express';
import { createServiceApp } from '@bo/service-kit';
import { MEMBER_PREFIX, type MemberDeps } from './deps.ts';
import { accessTokenRequired, internalOnly } from './internal-only.ts';
import { mountStaffLimitRoutes } from './staff-limit/routes.ts';

/** The member service as an Express app; `main.ts` listens, tests use it in-process. */
export function createMemberApp(deps: MemberDeps): Express {
  return createServiceApp({
    name: 'member',
    docs: 'member',
    prefix: MEMBER_PREFIX,
    logger: deps.logger,
    probes: { database: () => deps.knex.raw('SELECT 1') },
    networkGuards: [internalOnly(deps.config)],
    guards: [accessTokenRequired(deps.config)],
    routes: (router) => mountStaffLimitRoutes(router, deps),
    // Called by servers, never by browsers: no CORS.
    hardening: { requestTimeoutMs: deps.config.REQUEST_TIMEOUT_MS },
  });
}
