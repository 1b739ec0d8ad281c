import { createKnex } from '@bo/db';
import { createLogger, createRedis, sentinelsOf, installGracefulShutdown, runMain, startHttpServer } from '@bo/service-kit';
import { createWorkerApp } from './app.ts';
import { queueBoardCredentials, loadWorkerConfig } from './config.ts';
import { createQueues } from './queue/queues.ts';
import { registerSchedules } from './queue/schedules.ts';
import { startWorkers } from './queue/workers.ts';

await runMain(async () => {
  const config = loadWorkerConfig();
  const logger = createLogger('aggregation-worker', config.LOG_LEVEL);
  const credentials = queueBoardCredentials(config);
  if (credentials.isDevDefault) {
    logger.warn('QUEUE_DASHBOARD_USER / QUEUE_DASHBOARD_PASSWORD not set: the queue board uses the development-only credentials', {
      user: credentials.user,
    });
  }
  const knex = createKnex(config.BO_DATABASE_URL, { poolMax: config.DB_POOL_MAX });
  const redis = createRedis(config.REDIS_URL, logger, sentinelsOf(config));
  const queues = createQueues(
    redis,
    { prefix: config.REDIS_PREFIX, attempts: config.AGG_JOB_ATTEMPTS, backoffMs: config.AGG_JOB_BACKOFF_MS },
    logger,
  );
  if (config.AGG_SCHEDULES) {
    await registerSchedules(queues.schedule, {
      timeZone: config.PLATFORM_TIME_ZONE,
      dailyCron: config.AGG_DAILY_CRON,
      hourlyCron: config.AGG_HOURLY_CRON,
      reconcile: config.AGG_RECONCILE,
      reconcileCron: config.AGG_RECONCILE_CRON,
    });
  }
  const workers = startWorkers(
    redis,
    knex,
    logger,
    {
      prefix: config.REDIS_PREFIX,
      concurrency: config.WORKER_CONCURRENCY,
      lockDurationMs: config.AGG_LOCK_DURATION_MS,
      stalledIntervalMs: config.AGG_STALLED_INTERVAL_MS,
      timeZone: config.PLATFORM_TIME_ZONE,
      aiWindowDays: config.AI_LIST_WINDOW_DAYS,
    },
    {
      buildQueue: queues.build,
      timeZone: config.PLATFORM_TIME_ZONE,
      catchUpDays: config.AGG_CATCHUP_DAYS,
      catchUpHours: config.AGG_CATCHUP_HOURS,
      reconcileDays: config.AGG_RECONCILE_DAYS,
      now: () => new Date(),
    },
  );
  const app = createWorkerApp({ logger, knex, redis, queues, credentials, rerunMaxDays: config.AGG_RERUN_MAX_DAYS });
  const server = await startHttpServer(app, config.WORKER_PORT, [workers.close, queues.close, () => redis.quit(), () => knex.destroy()]);
  installGracefulShutdown(logger, server.close, config.SHUTDOWN_TIMEOUT_MS);
  logger.info('aggregation worker started', {
    port: server.port,
    dashboard: `http://localhost:${server.port}/admin/queues`,
    prefix: config.REDIS_PREFIX,
    schedules: config.AGG_SCHEDULES,
  });
});
