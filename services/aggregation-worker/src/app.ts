import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Knex } from '@bo/db';
import { createServiceApp, type Logger } from '@bo/service-kit';
import { mountQueueBoard } from './queue-board/routes.ts';
import type { Queues } from './queue/queues.ts';

export interface WorkerAppDeps {
  logger: Logger;
  knex: Knex;
  redis: Redis;
  queues: Queues;
  credentials: { user: string; password: string };
  rerunMaxDays: number;
}

/**
 * The worker's HTTP side: /health, /ready (database and Redis), /metrics, and the ops pages
 * under /admin (bull-board at /admin/queues, the rerun form at /admin/rerun) behind basic auth.
 */
export function createWorkerApp(deps: WorkerAppDeps): Express {
  return createServiceApp({
    name: 'aggregation-worker',
    prefix: '/',
    logger: deps.logger,
    probes: { database: () => deps.knex.raw('SELECT 1'), redis: () => deps.redis.ping() },
    guards: [],
    routes: (router) => mountQueueBoard(router, deps),
  });
}
