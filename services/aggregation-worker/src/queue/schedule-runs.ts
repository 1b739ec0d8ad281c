import type { Queue } from 'bullmq';
import { DAILY_KINDS, type AggregateJobData } from '@bo/contracts';
import { platformNowMillis, type Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import { missingDailyDays, missingInflowHours } from '../aggregation/catch-up.ts';
import { findLateData } from '../aggregation/late-data.ts';
import { describeTarget, type BuildTarget } from '../aggregation/model.ts';
import { reconcileDays, reconcileMonths } from '../aggregation/reconcile.ts';
import { previousLocalDay, recentLocalDays, recentLocalHours } from '../aggregation/schedule-targets.ts';
import { enqueueBuilds } from './build-jobs.ts';
import type { ScheduleJobName } from './queues.ts';

export interface ScheduleRunDeps {
  knex: Knex;
  buildQueue: Queue<AggregateJobData>;
  logger: Logger;
  timeZone: string;
  catchUpDays: number;
  catchUpHours: number;
  reconcileDays: number;
  /** The clock; tests inject one to check how a run resolves its day. */
  now: () => Date;
}

export interface ScheduleRunResult {
  /** `<kind> <day>[ <hour>h]` of every build queued, with who it is for. */
  queued: { target: string; jobId: string; requestedBy: AggregateJobData['requestedBy'] }[];
}

/** Queue the builds; true when every one is sure to read the rows as they are now. */
async function queue(deps: ScheduleRunDeps, targets: BuildTarget[], requestedBy: AggregateJobData['requestedBy'], out: ScheduleRunResult) {
  const enqueued = await enqueueBuilds(deps.buildQueue, targets, requestedBy);
  for (const e of enqueued) {
    out.queued.push({
      target: describeTarget(e.job.data),
      jobId: e.jobId,
      requestedBy,
    });
  }
  return enqueued.every((e) => !e.collapsedIntoRunning);
}

/** 09:00: the previous local day for every daily kind, plus days the look-back finds unbuilt. */
async function daily(deps: ScheduleRunDeps, out: ScheduleRunResult) {
  const now = deps.now();
  const day = previousLocalDay(deps.timeZone, now);
  await queue(
    deps,
    DAILY_KINDS.map((kind) => ({ kind, day })),
    'schedule',
    out,
  );
  const missing = (await missingDailyDays(deps.knex, recentLocalDays(deps.timeZone, now, deps.catchUpDays + 1))).filter(
    (t) => t.day !== day,
  );
  await queue(deps, missing, 'schedule', out);
}

/** Every hour: inflow hours not yet built (the hour just ended, and any missed), then late data. */
async function hourly(deps: ScheduleRunDeps, out: ScheduleRunResult) {
  const now = deps.now();
  const recent = recentLocalHours(deps.timeZone, now, deps.catchUpHours);
  await queue(deps, await missingInflowHours(deps.knex, recent), 'schedule', out);
  const late = await findLateData(deps.knex, recent);
  if (late.targets.length) deps.logger.info('late source rows found; rebuilding', { builds: late.targets.map(describeTarget) });
  // A build already running may have read its day before the late rows came: keep the mark,
  // so the next run looks again (and finds nothing if that build did see them).
  if (await queue(deps, late.targets, 'late-data', out)) await late.advance(platformNowMillis(deps.timeZone, now));
}

/**
 * Nightly: built days of the look-back whose totals differ from the events are rebuilt, and
 * months of the look-back whose monthly roll-up differs from their daily rows are rolled up again.
 */
async function reconcile(deps: ScheduleRunDeps, out: ScheduleRunResult) {
  const days = recentLocalDays(deps.timeZone, deps.now(), deps.reconcileDays);
  const mismatches = await reconcileDays(deps.knex, days);
  for (const m of mismatches) {
    deps.logger.warn(
      `aggregate differs from its source ${m.kind === 'inflow' ? 'page views; rebuilding the hour' : 'events; rebuilding the day'}`,
      m,
    );
  }
  await queue(
    deps,
    mismatches.map(({ kind, day, hour }) => (hour === undefined ? { kind, day } : { kind, day, hour })),
    'reconcile',
    out,
  );
  for (const m of await reconcileMonths(deps.knex, days)) {
    deps.logger.warn('monthly roll-up differed from its daily rows; rebuilt the month from them', m);
  }
}

const RUNS: Record<ScheduleJobName, (deps: ScheduleRunDeps, out: ScheduleRunResult) => Promise<void>> = { daily, hourly, reconcile };

/** The processor of the schedule queue: resolve what the run is about, queue the builds. */
export async function runScheduled(name: string, deps: ScheduleRunDeps): Promise<ScheduleRunResult> {
  const run = RUNS[name as ScheduleJobName];
  if (!run) throw new Error(`unknown scheduled run "${name}"`);
  const out: ScheduleRunResult = { queued: [] };
  await run(deps, out);
  return out;
}
