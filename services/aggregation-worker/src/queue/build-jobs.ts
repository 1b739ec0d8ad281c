import type { Job, Queue } from 'bullmq';
import type { AggregateJobData } from '@bo/contracts';
import type { BuildTarget } from '../aggregation/model.ts';

/**
 * The job id of a build: deterministic, so asking twice for the same (kind, day[, hour]) or
 * range while it waits or runs collapses into one job. BullMQ ids must not contain ':'.
 */
export const buildJobId = (t: BuildTarget): string =>
  `build-${t.kind}-${t.day}${t.toDay !== undefined ? `..${t.toDay}` : ''}${t.hour !== undefined ? `-h${String(t.hour).padStart(2, '0')}` : ''}`;

const PENDING = new Set(['waiting', 'waiting-children', 'delayed', 'prioritized', 'active']);

export interface Enqueued {
  jobId: string;
  job: Job<AggregateJobData>;
  /** True when a pending job for the same target was reused. */
  collapsed: boolean;
  /** The reused job was already running, so it may have read its rows before the request's cause. */
  collapsedIntoRunning: boolean;
}

/**
 * Queue one build. A pending job with the same id absorbs the request; a finished one (kept for
 * ops) is replaced, because BullMQ ignores an add whose id still exists — a rerun must run.
 */
export async function enqueueBuild(
  queue: Queue<AggregateJobData>,
  target: BuildTarget,
  requestedBy: AggregateJobData['requestedBy'],
): Promise<Enqueued> {
  const jobId = buildJobId(target);
  const existing = await queue.getJob(jobId);
  if (existing) {
    const state = await existing.getState();
    if (PENDING.has(state)) return { jobId, job: existing, collapsed: true, collapsedIntoRunning: state === 'active' };
    // A concurrent request may have replaced it already and its job may be running: then it is ours too.
    await existing.remove().catch(() => undefined);
  }
  const data: AggregateJobData = {
    kind: target.kind,
    day: target.day,
    ...(target.toDay !== undefined ? { toDay: target.toDay } : {}),
    requestedBy,
    ...(target.hour !== undefined ? { hour: target.hour } : {}),
  };
  const job = await queue.add(target.kind, data, { jobId });
  return { jobId, job, collapsed: false, collapsedIntoRunning: false };
}

export async function enqueueBuilds(
  queue: Queue<AggregateJobData>,
  targets: BuildTarget[],
  requestedBy: AggregateJobData['requestedBy'],
): Promise<Enqueued[]> {
  const out: Enqueued[] = [];
  for (const t of targets) out.push(await enqueueBuild(queue, t, requestedBy));
  return out;
}
