import type { Queue } from 'bullmq';
import type { ScheduleJobData, ScheduleJobName } from './queues.ts';

export interface ScheduleSettings {
  timeZone: string;
  dailyCron: string;
  hourlyCron: string;
  reconcile: boolean;
  reconcileCron: string;
}

/** Scheduler ids equal their job names; ids are keys, so upserting again changes, never adds. */
export const SCHEDULER_IDS: Record<ScheduleJobName, string> = { daily: 'agg-daily', hourly: 'agg-hourly', reconcile: 'agg-reconcile' };

/**
 * Register (or update) the job schedulers in the platform zone. Every worker does this at
 * start; `upsertJobScheduler` is keyed by id, so two workers starting together leave one
 * schedule each. Turning reconciliation off removes its scheduler.
 */
export async function registerSchedules(queue: Queue<ScheduleJobData>, s: ScheduleSettings): Promise<void> {
  const upsert = (name: ScheduleJobName, pattern: string) =>
    queue.upsertJobScheduler(SCHEDULER_IDS[name], { pattern, tz: s.timeZone }, { name, data: {} });
  await upsert('daily', s.dailyCron);
  await upsert('hourly', s.hourlyCron);
  if (s.reconcile) await upsert('reconcile', s.reconcileCron);
  else await queue.removeJobScheduler(SCHEDULER_IDS.reconcile);
}
