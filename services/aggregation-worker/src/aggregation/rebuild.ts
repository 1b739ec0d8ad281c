import { addDays, dayRange, type Db, type Knex, platformNowMillis, retryOnLockConflict } from '@bo/db';
import { AGGREGATE_KINDS, type AggregateJobData, type AggregateKind } from '@bo/contracts';
import { LIST_AGGREGATES, LIST_KINDS, type ListKind } from '@bo/aggregates';
import { finishRunLog, insertRunLog, lockBuild, recordBuiltDays } from './data-access/build-log.ts';
import { refreshCumulative } from './data-access/cumulative-rollups.ts';
import { deleteInflowRows, inflowRowsPerHour, insertInflowRows } from './data-access/inflow.ts';
import { deleteListDay, insertListDay } from './data-access/list-aggregates.ts';
import { addDayToMonth, takeDayFromMonth } from './data-access/month-rollups.ts';
import { rebuildInflowRollups, replacePeriodDay, snapshotNewGoods } from './data-access/period-rollups.ts';
import { inflowLogMarks, maxEventNoIn } from './data-access/source-marks.ts';
import type { TimeRange } from './model.ts';

export interface RebuildResult {
  kind: AggregateKind;
  day: string;
  hour?: number;
  rows: number;
}

export interface RebuildOptions {
  /** Zone of the run-log timestamps; the build itself only uses the stored local times. */
  timeZone?: string;
  now?: () => Date;
}

/**
 * Builds of neighbouring days of one table would deadlock under REPEATABLE READ on the gap
 * locks of their DELETEs; READ COMMITTED takes none, and reads the source rows without locking
 * the platform's writers out.
 */
const READ_COMMITTED = { isolationLevel: 'read committed' } as const;

/** Attempts of a build step that lost a deadlock before the job fails (and BullMQ retries it later). */
const LOCK_ATTEMPTS = 4;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** `[day HH:00:00, next hour)` — hour 23 ends at the next day's midnight. */
export const hourRange = (day: string, hour: number): TimeRange => [
  `${day} ${pad(hour)}:00:00`,
  hour === 23 ? `${addDays(day, 1)} 00:00:00` : `${day} ${pad(hour + 1)}:00:00`,
];

function checkJob(job: Pick<AggregateJobData, 'kind' | 'day' | 'hour'>): void {
  if (!(AGGREGATE_KINDS as readonly string[]).includes(job.kind)) throw new Error(`unknown aggregate kind "${job.kind}"`);
  if (!DAY.test(job.day) || addDays(job.day, 0) !== job.day) throw new Error(`day must be a real yyyy-MM-dd date (got "${job.day}")`);
  if (job.hour !== undefined) {
    if (job.kind !== 'inflow') throw new Error(`only the inflow aggregate is built per hour (got kind "${job.kind}")`);
    if (!Number.isInteger(job.hour) || job.hour < 0 || job.hour > 23) throw new Error(`hour must be 0..23 (got ${job.hour})`);
  }
}

async function buildDaily(trx: Db, kind: ListKind | 'period', day: string, builtAt: string): Promise<number> {
  const range = dayRange(day);
  // Read before the build: an event committed meanwhile may be in the rows yet above the
  // mark, which costs one needless rebuild at worst, never a missed one.
  const builtMaxNo = await maxEventNoIn(trx, range);
  let rows: number;
  if (kind === 'period') rows = await replacePeriodDay(trx, day, range);
  else {
    const taken = await takeDayFromMonth(trx, kind, day);
    await deleteListDay(trx, kind, day);
    rows = await insertListDay(trx, kind, day, range);
    await addDayToMonth(trx, kind, day, taken);
  }
  await recordBuiltDays(trx, [{ kind, day, hour: -1, builtMaxNo, rows, builtAt }]);
  return rows;
}

/** One hour, or all 24 hours of the day when `hour` is absent; what was built is recorded per hour. */
async function buildInflow(trx: Db, day: string, hour: number | undefined, builtAt: string): Promise<number> {
  // First: the day-level inflow rollup below is rewritten from every hour of the day.
  await lockBuild(trx, 'inflow', day);
  const range = hour === undefined ? dayRange(day) : hourRange(day, hour);
  const { maxPerHour, span } = await inflowLogMarks(trx, range);
  await deleteInflowRows(trx, day, hour);
  const rows = await insertInflowRows(trx, day, range, span);
  await rebuildInflowRollups(trx, day, hour);
  const rowsPerHour = await inflowRowsPerHour(trx, day);
  const hours = hour === undefined ? Array.from({ length: 24 }, (_, h) => h) : [hour];
  await recordBuiltDays(
    trx,
    hours.map((h) => ({ kind: 'inflow', day, hour: h, builtMaxNo: maxPerHour.get(h) ?? 0, rows: rowsPerHour.get(h) ?? 0, builtAt })),
  );
  return rows;
}

/**
 * Replace one (kind, day) of an aggregate — or one hour of the inflow aggregate — inside one
 * transaction, from the source rows: a rerun never doubles numbers and a reader sees either
 * the old day or the new one. The run log row is written before the transaction so a build
 * that fails (or a process that dies) still leaves a trace.
 */
export async function rebuildAggregate(
  knex: Knex,
  job: Pick<AggregateJobData, 'kind' | 'day' | 'hour' | 'requestedBy'> & { jobId?: string },
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  checkJob(job);
  const timeZone = options.timeZone ?? 'Asia/Seoul';
  const now = options.now ?? (() => new Date());
  const runNo = await insertRunLog(knex, { ...job, startedAt: platformNowMillis(timeZone, now()) });
  try {
    // Outside the build's transaction: the snapshot only grows, and its row locks stay short.
    // Two builds snapshotting the same new goods at once can still deadlock on the duplicate
    // keys; both statements and the build are repeatable, so a lock conflict runs them again.
    if (job.kind === 'period' || job.kind === 'inflow') await retryOnLockConflict(LOCK_ATTEMPTS, () => snapshotNewGoods(knex));
    const rows = await retryOnLockConflict(LOCK_ATTEMPTS, () =>
      knex.transaction(async (trx) => {
        const builtAt = platformNowMillis(timeZone, now());
        const written =
          job.kind === 'inflow' ? await buildInflow(trx, job.day, job.hour, builtAt) : await buildDaily(trx, job.kind, job.day, builtAt);
        await finishRunLog(trx, runNo, { finishedAt: platformNowMillis(timeZone, now()), rows: written, outcome: 'done' });
        return written;
      }, READ_COMMITTED),
    );
    return { kind: job.kind, day: job.day, ...(job.hour !== undefined ? { hour: job.hour } : {}), rows };
  } catch (err) {
    // The build's own error is the one to report, even if the database is gone for the log too.
    await finishRunLog(knex, runNo, {
      finishedAt: platformNowMillis(timeZone, now()),
      outcome: 'failed',
      error: (err as Error).message,
    }).catch(() => undefined);
    throw err;
  }
}

/**
 * Bring the lists' running sums up to their monthly rows where day builds marked them stale
 * (`markCumulativeStale`), one transaction per list; returns the months written per list (0:
 * nothing was marked). Meant for when the builds are done — the worker's queue idle, the end of
 * a range rebuilt in one go — so a range rewrites each month once, not once per earlier day.
 */
export async function refreshRunningSums(knex: Knex): Promise<{ kind: ListKind; months: number }[]> {
  const refreshed: { kind: ListKind; months: number }[] = [];
  for (const kind of LIST_KINDS.filter((k) => LIST_AGGREGATES[k].cumulative)) {
    const months = await retryOnLockConflict(LOCK_ATTEMPTS, () => knex.transaction((trx) => refreshCumulative(trx, kind), READ_COMMITTED));
    refreshed.push({ kind, months });
  }
  return refreshed;
}
