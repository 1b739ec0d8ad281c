import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AggregateJobData } from '@bo/contracts';
import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import { refreshAiWindowAfterBuild } from '../aggregation/ai-window.ts';
import { refuseDroppedDay } from '../aggregation/event-retention.ts';
import { rebuildAggregate, refreshRunningSums, type RebuildResult } from '../aggregation/rebuild.ts';
import { BUILD_QUEUE, SCHEDULE_QUEUE, type ScheduleJobData } from './queues.ts';
import { runScheduled, type ScheduleRunDeps, type ScheduleRunResult } from './schedule-runs.ts';

export interface WorkerSettings {
  prefix: string;
  concurrency: number;
  lockDurationMs: number;
  stalledIntervalMs: number;
  timeZone: string;
  /** AI_LIST_WINDOW_DAYS: the AI list window whose demand sums the builds keep current. */
  aiWindowDays: number;
  /** The clock the AI list window is resolved from; tests inject one. */
  now?: () => Date;
}

function listen<T>(worker: Worker<T>, logger: Logger) {
  worker.on('error', (err) => logger.error('worker error', { queue: worker.name, message: err.message }));
  worker.on('failed', (job: Job<T> | undefined, err: Error) =>
    logger.warn('job failed', { queue: worker.name, jobId: job?.id, attemptsMade: job?.attemptsMade, message: err.message }),
  );
  worker.on('stalled', (jobId: string) =>
    logger.warn('job stalled (its worker stopped); it will run again', { queue: worker.name, jobId }),
  );
}

/**
 * The two workers of the process. A job whose process died keeps its lock until
 * `lockDurationMs`; the stalled check then moves it back to waiting and another worker (or
 * this one, restarted) builds the day again from scratch — the build is a replace, so the
 * rows come out the same.
 */
export function startWorkers(
  redis: Redis,
  knex: Knex,
  logger: Logger,
  s: WorkerSettings,
  scheduleDeps: Omit<ScheduleRunDeps, 'knex' | 'logger'>,
) {
  const common = {
    connection: redis,
    prefix: s.prefix,
    lockDuration: s.lockDurationMs,
    stalledInterval: s.stalledIntervalMs,
    maxStalledCount: 2,
  };
  const build = new Worker<AggregateJobData, RebuildResult>(
    BUILD_QUEUE,
    async (job) => {
      // A day whose events the retention command dropped fails once, without retries.
      await refuseDroppedDay(knex, job.data.kind, job.data.day).catch((err: Error) => {
        throw new UnrecoverableError(err.message);
      });
      const result = await rebuildAggregate(knex, { ...job.data, jobId: job.id }, { timeZone: s.timeZone });
      logger.info('aggregate built', { jobId: job.id, ...result, requestedBy: job.data.requestedBy });
      // The build has committed: a failed recompute leaves the old sums under the old version,
      // which the back-office no longer reads (it sums the aggregates itself until the next one).
      await refreshAiWindowAfterBuild(knex, result, { timeZone: s.timeZone, days: s.aiWindowDays, now: s.now ?? (() => new Date()) }).catch(
        (err: Error) => logger.warn('AI list window sums not recomputed', { jobId: job.id, message: err.message }),
      );
      // Once nothing waits to be built: a range rerun writes the running sums once, at its end.
      // A failed refresh leaves the mark, and the lists read the monthly rows until a later one.
      if ((await scheduleDeps.buildQueue.getJobCountByTypes('waiting', 'prioritized')) === 0)
        await refreshRunningSums(knex).then(
          (refreshed) => {
            const months = refreshed.filter((r) => r.months > 0);
            if (months.length) logger.info('running sums refreshed', { jobId: job.id, months });
          },
          (err: Error) => logger.warn('running sums not refreshed', { jobId: job.id, message: err.message }),
        );
      return result;
    },
    { ...common, concurrency: s.concurrency },
  );
  const schedule = new Worker<ScheduleJobData, ScheduleRunResult>(
    SCHEDULE_QUEUE,
    async (job) => {
      const result = await runScheduled(job.name, { ...scheduleDeps, knex, logger });
      logger.info('scheduled run queued builds', { run: job.name, jobId: job.id, builds: result.queued.length });
      return result;
    },
    { ...common, concurrency: 1 },
  );
  listen(build, logger);
  listen(schedule, logger);
  return {
    build,
    schedule,
    /** Let running builds finish (their transactions commit), take no new ones. */
    close: async () => {
      await Promise.all([build.close(), schedule.close()]);
    },
  };
}
