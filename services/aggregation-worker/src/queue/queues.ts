import { Queue, type DefaultJobOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { AggregateJobData } from '@bo/contracts';
import type { Logger } from '@bo/service-kit';

/**
 * Two queues under the deployment's Redis prefix (BullMQ `prefix`, so every key is
 * `<REDIS_PREFIX>:<queue>:…` and tests isolate themselves with their own prefix):
 * `agg-build` holds one job per (kind, day[, hour]); `agg-schedule` holds the runs of the job
 * schedulers, which only decide what to build and queue it.
 */
export const BUILD_QUEUE = 'agg-build';
export const SCHEDULE_QUEUE = 'agg-schedule';

export type ScheduleJobName = 'daily' | 'hourly' | 'reconcile';
export type ScheduleJobData = Record<string, never>;

export interface QueueSettings {
  prefix: string;
  attempts: number;
  backoffMs: number;
}

const DAY_SECONDS = 24 * 3600;

/** Retries with exponential backoff; finished jobs stay visible to ops for a while, failed ones for a month. */
export const jobOptions = (s: QueueSettings): DefaultJobOptions => ({
  attempts: s.attempts,
  backoff: { type: 'exponential', delay: s.backoffMs },
  removeOnComplete: { age: 7 * DAY_SECONDS, count: 5000 },
  removeOnFail: { age: 30 * DAY_SECONDS },
});

export interface Queues {
  build: Queue<AggregateJobData>;
  schedule: Queue<ScheduleJobData>;
  close: () => Promise<void>;
}

export function createQueues(redis: Redis, settings: QueueSettings, logger: Logger): Queues {
  const options = { connection: redis, prefix: settings.prefix, defaultJobOptions: jobOptions(settings) };
  const build = new Queue<AggregateJobData>(BUILD_QUEUE, options);
  const schedule = new Queue<ScheduleJobData>(SCHEDULE_QUEUE, options);
  for (const q of [build, schedule]) q.on('error', (err) => logger.error('queue error', { queue: q.name, message: err.message }));
  return {
    build,
    schedule,
    close: async () => {
      await build.close();
      await schedule.close();
    },
  };
}
