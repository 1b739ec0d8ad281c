import { addDays, dayRange, eachDay, type Db, type Knex, platformNowMillis, retryOnLockConflict } from '@bo/db';
import { AGGREGATE_KINDS, type AggregateJobData, type AggregateKind } from '@bo/contracts';
import { LIST_AGGREGATES, LIST_KINDS, type ListKind } from '@bo/aggregates';
import { finishRunLog, insertRunLog, lockBuild, recordBuiltDays } from './data-access/build-log.ts';
import { refreshCumulative } from './data-access/cumulative-rollups.ts';
import { deleteInflowRows, inflowRowsPerHour, insertInflowRows } from './data-access/inflow.ts';
import { deleteListDays, insertListDay } from './data-access/list-aggregates.ts';
import { addDaysToMonth, takeDaysFromMonth } from './data-access/month-rollups.ts';
import { rebuildInflowRollups, replacePeriodDays, snapshotNewGoods } from './data-access/period-rollups.ts';
import { inflowLogMarks, maxEventNoIn } from './data-access/source-marks.ts';
import type { BuiltDayRecord, DaySpan, TimeRange } from './model.ts';

export interface RebuildResult {
  kind: AggregateKind;
  day: string;
  /** The last day of a range build. */
  toDay?: string;
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

/**
 * In-memory temporary tables of a range build's connection: grouping a month of goods rows (~460 k
 * rows into ~86 k keys at full scale) spilled the 16 MB default to disk (2.4 → 6.7 s for the
 * monthly add alone). Set for the build's transaction only, then back to the server's default.
 */
const RANGE_TEMP_TABLE_BYTES = 256 * 1024 * 1024;

/** Attempts of a build step that lost a deadlock before the job fails (and BullMQ retries it later). */
const LOCK_ATTEMPTS = 4;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const pad = (n: number) => String(n).padStart(2, '0');

/** `[day HH:00:00, next hour)` — hour 23 ends at the next day's midnight. */
export const hourRange = (day: string, hour: number): TimeRange => [
  `${day} ${pad(hour)}:00:00`,
  hour === 23 ? `${addDays(day, 1)} 00:00:00` : `${day} ${pad(hour + 1)}:00:00`,
];

const isDay = (day: string) => DAY.test(day) && addDays(day, 0) === day;

function checkJob(job: Pick<AggregateJobData, 'kind' | 'day' | 'toDay' | 'hour'>): void {
  if (!(AGGREGATE_KINDS as readonly string[]).includes(job.kind)) throw new Error(`unknown aggregate kind "${job.kind}"`);
  if (!isDay(job.day)) throw new Error(`day must be a real yyyy-MM-dd date (got "${job.day}")`);
  if (job.toDay !== undefined) {
    if (!isDay(job.toDay)) throw new Error(`toDay must be a real yyyy-MM-dd date (got "${job.toDay}")`);
    if (job.toDay < job.day || job.toDay.slice(0, 7) !== job.day.slice(0, 7))
      throw new Error(`toDay must be a day of ${job.day.slice(0, 7)} from ${job.day} on (got "${job.toDay}")`);
    if (job.hour !== undefined) throw new Error('a range of days is built whole: no hour');
  }
  if (job.hour !== undefined) {
    if (job.kind !== 'inflow') throw new Error(`only the inflow aggregate is built per hour (got kind "${job.kind}")`);
    if (!Number.isInteger(job.hour) || job.hour < 0 || job.hour > 23) throw new Error(`hour must be 0..23 (got ${job.hour})`);
  }
}

async function buildDaily(trx: Db, kind: ListKind | 'period', days: DaySpan, builtAt: string): Promise<number> {
  // Read before the build: an event committed meanwhile may be in the rows yet above the
  // mark, which costs one needless rebuild at worst, never a missed one.
  const builtMaxNo = new Map<string, number>();
  for (const day of eachDay(days.first, days.last)) builtMaxNo.set(day, await maxEventNoIn(trx, dayRange(day)));
  let rows: Map<string, number>;
  if (kind === 'period') rows = await replacePeriodDays(trx, days);
  else {
    const taken = await takeDaysFromMonth(trx, kind, days);
    await deleteListDays(trx, kind, days);
    rows = new Map();
    for (const day of builtMaxNo.keys()) rows.set(day, await insertListDay(trx, kind, day, dayRange(day)));
    await addDaysToMonth(trx, kind, days, taken);
  }
  await recordBuiltDays(
    trx,
    [...builtMaxNo].map(([day, maxNo]) => ({ kind, day, hour: -1, builtMaxNo: maxNo, rows: rows.get(day) ?? 0, builtAt })),
  );
  return [...rows.values()].reduce((a, b) => a + b, 0);
}

/** One hour, or all 24 hours of each day of `days` when `hour` is absent; what was built is recorded per hour. */
async function buildInflow(trx: Db, days: DaySpan, hour: number | undefined, builtAt: string): Promise<number> {
  const dayList = eachDay(days.first, days.last);
  // First, in day order: the day-level inflow rollups are rewritten from every hour of each day.
  for (const day of dayList) await lockBuild(trx, 'inflow', day);
  let rows = 0;
  const marks = new Map<string, Map<number, number>>();
  for (const day of dayList) {
    const range = hour === undefined ? dayRange(day) : hourRange(day, hour);
    const { maxPerHour, span } = await inflowLogMarks(trx, range);
    await deleteInflowRows(trx, day, hour);
    rows += await insertInflowRows(trx, day, range, span);
    marks.set(day, maxPerHour);
  }
  await rebuildInflowRollups(trx, days, hour);
  const hours = hour === undefined ? Array.from({ length: 24 }, (_, h) => h) : [hour];
  const records: BuiltDayRecord[] = [];
  for (const [day, maxPerHour] of marks) {
    const rowsPerHour = await inflowRowsPerHour(trx, day);
    records.push(
      ...hours.map((h) => ({
        kind: 'inflow' as const,
        day,
        hour: h,
        builtMaxNo: maxPerHour.get(h) ?? 0,
        rows: rowsPerHour.get(h) ?? 0,
        builtAt,
      })),
    );
  }
  await recordBuiltDays(trx, records);
  return rows;
}

/**
 * Replace one (kind, day) of an aggregate — one hour of the inflow aggregate, or the days
 * `day`..`toDay` of one month (a rerun's bulk mode) — inside one transaction, from the source
 * rows: a rerun never doubles numbers and a reader sees either the old days or the new ones. A
 * range adds its days to the month's roll-ups once, not once per day. The run log row is written
 * before the transaction so a build that fails (or a process that dies) still leaves a trace.
 */
export async function rebuildAggregate(
  knex: Knex,
  job: Pick<AggregateJobData, 'kind' | 'day' | 'toDay' | 'hour' | 'requestedBy'> & { jobId?: string },
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
        const days: DaySpan = { first: job.day, last: job.toDay ?? job.day };
        const range = days.first !== days.last;
        if (range)
          await trx.raw('SET SESSION max_heap_table_size = ?, tmp_table_size = ?', [RANGE_TEMP_TABLE_BYTES, RANGE_TEMP_TABLE_BYTES]);
        let written: number;
        try {
          written =
            job.kind === 'inflow' ? await buildInflow(trx, days, job.hour, builtAt) : await buildDaily(trx, job.kind, days, builtAt);
        } finally {
          if (range) await trx.raw('SET SESSION max_heap_table_size = DEFAULT, tmp_table_size = DEFAULT');
        }
        await finishRunLog(trx, runNo, { finishedAt: platformNowMillis(timeZone, now()), rows: written, outcome: 'done' });
        return written;
      }, READ_COMMITTED),
    );
    return {
      kind: job.kind,
      day: job.day,
      ...(job.toDay !== undefined ? { toDay: job.toDay } : {}),
      ...(job.hour !== undefined ? { hour: job.hour } : {}),
      rows,
    };
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
