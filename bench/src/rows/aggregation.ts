import { RUNNING_SUMS_STALE } from '@bo/aggregates';
import { AGGREGATE_KINDS, type AggregateKind } from '@bo/contracts';
import { addDays, eachDay, selectRows, type Knex } from '@bo/db';
import type { BenchContext } from '../context.ts';
import { writeMarker } from '../dataset/marker.ts';
import { datasetSpec, isAggregated, type MainDataset } from '../dataset/main-dataset.ts';
import { elapsedMs, median } from '../infra/percentiles.ts';
import { captureQueries, type CapturedQuery } from '../infra/sql-capture.ts';
import { createPool, timeRuns, type Pool } from '../infra/sql-replay.ts';
import { eachConcurrently } from '../infra/work-list.ts';
import { measureCopyFloor } from './aggregate-copy.ts';
import { count, measuredRow, ms, NotAvailable, round, seconds, times, type BenchRow } from '../report/rows.ts';

export const DAY_TARGET = '≤ 1.3× the direct statements';
export const REBUILD_TARGET = 'full set (365 days, all kinds) ≤ 10 min';

type Job = { kind: AggregateKind; day: string; toDay?: string };
type Rebuild = (knex: Knex, job: Job & { requestedBy: 'cli' }) => Promise<{ rows: number }>;
type RangeTargets = (kinds: readonly AggregateKind[], from: string, to: string) => Job[];

/** The worker's build, the jobs a rerun of a range becomes, and the running sums' refresh it runs once its queue is idle. */
export interface WorkerBuild {
  rebuild: Rebuild;
  rangeTargets: RangeTargets;
  refresh: (knex: Knex) => Promise<unknown>;
}

/** The worker's entry points, looked up at run time so a missing worker is a row, not a crash. */
export async function loadRebuild(): Promise<WorkerBuild> {
  const worker = (await import('@bo/aggregation-worker').catch(() => ({}))) as {
    rebuildAggregate?: Rebuild;
    rangeTargets?: RangeTargets;
    refreshRunningSums?: WorkerBuild['refresh'];
  };
  if (
    typeof worker.rebuildAggregate !== 'function' ||
    typeof worker.rangeTargets !== 'function' ||
    typeof worker.refreshRunningSums !== 'function'
  )
    throw new NotAvailable('@bo/aggregation-worker does not export rebuildAggregate, rangeTargets and refreshRunningSums yet');
  return { rebuild: worker.rebuildAggregate, rangeTargets: worker.rangeTargets, refresh: worker.refreshRunningSums };
}

/** Statements that write the aggregate itself; the run log and build status are the job's bookkeeping. */
const BOOKKEEPING = /\b(agg_run_log|agg_built_day|agg_watermark)\b/i;
const isDataStatement = (q: CapturedQuery) =>
  /\bagg_\w+/i.test(q.sql) && !BOOKKEEPING.test(q.sql) && /^\s*(insert|delete|replace|update)/i.test(q.sql);

/** The same data statements in one transaction on one plain connection. */
async function runDirect(pool: Pool, statements: readonly CapturedQuery[]): Promise<void> {
  const conn = await pool.getConnection();
  try {
    await conn.query('START TRANSACTION');
    for (const q of statements) await conn.query(q.sql, q.bindings);
    await conn.query('COMMIT');
  } finally {
    conn.release();
  }
}

/** One (kind, day): the job's median time against the median of its own data statements run directly. */
async function oneDay(ds: MainDataset, rebuild: Rebuild, pool: Pool, kind: AggregateKind, day: string, runs: number) {
  const job = () => rebuild(ds.knex, { kind, day, requestedBy: 'cli' });
  const { script, result } = await captureQueries(ds.knex, job);
  const statements = script.flat().filter(isDataStatement);
  if (!statements.length) throw new Error(`no aggregate statement captured for ${kind}`);
  const jobMs: number[] = [];
  const directMs: number[] = [];
  // Interleaved, so a noisy neighbour on the machine hits both sides alike.
  for (let i = 0; i < runs; i++) {
    jobMs.push(...(await timeRuns(1, job)));
    directMs.push(...(await timeRuns(1, () => runDirect(pool, statements))));
  }
  // The direct runs replaced the day with identical rows; rebuild once more so the status rows match.
  await job();
  return { jobMs: median(jobMs), directMs: median(directMs), rows: result.rows, statements: statements.length };
}

export async function measureAggregationDay(ctx: BenchContext, ds: MainDataset): Promise<BenchRow[]> {
  const { rebuild } = await loadRebuild();
  // A full day that is not the edge of the data set.
  const day = addDays(ds.lastDay, -1);
  const pool = createPool(ds.url, 2);
  const rows: BenchRow[] = [];
  let jobTotal = 0;
  let directTotal = 0;
  try {
    for (const kind of AGGREGATE_KINDS) {
      ctx.log(`  aggregation: ${kind} for ${day}, ${ctx.scale.aggregationDayRuns} runs job vs direct`);
      const r = await oneDay(ds, rebuild, pool, kind, day, ctx.scale.aggregationDayRuns);
      jobTotal += r.jobMs;
      directTotal += r.directMs;
      const ratio = r.jobMs / r.directMs;
      rows.push(
        measuredRow({
          section: 'aggregation',
          hotPath: `one day (${day}), ${kind}: ${count(r.rows)} rows`,
          measured: `job ${ms(r.jobMs)}`,
          reference: `${r.statements} data statements directly ${ms(r.directMs)}`,
          ratio: `${times(ratio)} direct`,
          target: DAY_TARGET,
          checks: [{ label: '≤ 1.3× direct', ok: ratio <= 1.3 }],
          figures: { kind, day, rows: r.rows, jobMs: round(r.jobMs), directMs: round(r.directMs), ratio: round(ratio, 3) },
        }),
      );
    }
  } finally {
    await pool.end();
  }
  const ratio = jobTotal / directTotal;
  rows.push(
    measuredRow({
      section: 'aggregation',
      hotPath: `one day (${day}), all ${AGGREGATE_KINDS.length} kinds`,
      measured: `jobs ${ms(jobTotal)}`,
      reference: `direct statements ${ms(directTotal)}`,
      ratio: `${times(ratio)} direct`,
      target: DAY_TARGET,
      checks: [{ label: '≤ 1.3× direct', ok: ratio <= 1.3 }],
      figures: { day, jobMs: round(jobTotal), directMs: round(directTotal), ratio: round(ratio, 3) },
    }),
  );
  return rows;
}

/** Jobs at once, as the worker's WORKER_CONCURRENCY default runs them. */
export const REBUILD_CONCURRENCY = 2;

/**
 * Every day of the data set, every kind, through the worker's rebuild as a rerun of the range
 * queues it (one job per kind and month, each replacing its days in one transaction: the bulk
 * mode), two jobs at a time like one worker process (no queue in between), then the running sums'
 * refresh the worker runs once its queue is idle: the time a full rerun takes. It also leaves the
 * aggregates the statistics read.
 */
export async function rebuildAllDays(
  ctx: BenchContext,
  ds: MainDataset,
  { rebuild, rangeTargets, refresh }: WorkerBuild,
): Promise<{ ms: number; jobs: number; rows: number }> {
  const jobs = rangeTargets(AGGREGATE_KINDS, ds.firstDay, ds.lastDay);
  const start = process.hrtime.bigint();
  let rows = 0;
  let lastLog = Date.now();
  await eachConcurrently(jobs, REBUILD_CONCURRENCY, async (job, i) => {
    const built = await rebuild(ds.knex, { ...job, requestedBy: 'cli' });
    rows += built.rows;
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      ctx.log(`  rebuild: ${job.kind} ${job.day}..${job.toDay ?? job.day} (${i + 1}/${jobs.length} jobs, ${seconds(elapsedMs(start))})`);
    }
  });
  ctx.log(`  rebuild: ${jobs.length} jobs in ${seconds(elapsedMs(start))}; refreshing the running sums`);
  await refresh(ds.knex);
  const took = elapsedMs(start);
  ds.aggregatedAt = new Date().toISOString();
  ds.aggregatedKinds = AGGREGATE_KINDS.join(',');
  const { firstDay, lastDay, rows: tableRows, generation, aggregatedAt, aggregatedKinds } = ds;
  await writeMarker(ds.knex, datasetSpec(ds), { firstDay, lastDay, rows: tableRows, generation, aggregatedAt, aggregatedKinds });
  return { ms: took, jobs: jobs.length, rows };
}

/**
 * The aggregates as the reads expect them: every kind built (unmeasured, logging `building`, when
 * no section built them on this data set), and the running sums as the worker leaves them once its
 * queue is idle. A day build marks its month stale (the one-day measurements leave the last month
 * marked; so does a run stopped mid-rebuild), and until the refresh the category and goods lists
 * read those months from the monthly rows: slower (a 12-month goods list with one supplier 206
 * against ~80 ms at full scale), exact, and not what a reader sees a few seconds after a build.
 */
export async function readyForReads(ctx: BenchContext, ds: MainDataset, worker: WorkerBuild, building: string): Promise<void> {
  if (!isAggregated(ds, AGGREGATE_KINDS)) {
    ctx.log(building);
    await rebuildAllDays(ctx, ds, worker);
  }
  const marked = await selectRows<{ kind: string; mon: string }>(
    ds.knex,
    `SELECT kind, DATE_FORMAT(from_mon, '%Y-%m') AS mon FROM ${RUNNING_SUMS_STALE} ORDER BY kind`,
  );
  if (!marked.length) return;
  const what = marked.map((m) => `${m.kind} from ${m.mon}`).join(', ');
  ctx.log(`  running sums marked stale (${what}): refreshing them as the worker does once its queue is idle`);
  await worker.refresh(ds.knex);
}

/**
 * Said of a rebuild over aggregates built before (a reused data set): it deletes what it replaces,
 * which a build into empty tables does not (the thirteenth machine: heading for ~1,250 s where a
 * fresh data set's took 766 s).
 */
const REPLACING = ': replacing them, slower than a first build (--regenerate measures a first build)';

export async function measureFullRebuild(ctx: BenchContext, ds: MainDataset): Promise<BenchRow[]> {
  const worker = await loadRebuild();
  const days = eachDay(ds.firstDay, ds.lastDay).length;
  // A reused data set's aggregates are there already: the rebuild then deletes and replaces them.
  const replacing = ds.aggregatedAt !== undefined;
  ctx.log(`  aggregation: rebuilding ${days} days × ${AGGREGATE_KINDS.length} kinds${replacing ? REPLACING : ''}`);
  const r = await rebuildAllDays(ctx, ds, worker);
  ctx.log(`  aggregation: copying a share of every rebuilt table (the rebuild's floor)`);
  const floor = await measureCopyFloor(ds.knex, REBUILD_CONCURRENCY);
  const ratio = r.ms / floor.estimateMs;
  const full = ctx.scale.name === 'full';
  const notes = [
    ...(full ? [] : [`the 10-minute target is for the full set; this data set has ${count(ds.rows.ord_stat_evt ?? 0)} events`]),
    ...(replacing ? [`the aggregates were already built${REPLACING}`] : []),
  ];
  return [
    measuredRow({
      section: 'aggregation',
      hotPath: `${days}-day rebuild, all kinds (${count(r.jobs)} jobs of a kind's month, ${REBUILD_CONCURRENCY} at a time)`,
      measured: `${seconds(r.ms)} (${count(r.rows)} aggregate rows, ${ms((r.ms * REBUILD_CONCURRENCY) / days / AGGREGATE_KINDS.length)} per kind and day)`,
      reference: `bare copy of the ${count(floor.tableRows)} rows the tables hold: est. ${seconds(floor.estimateMs)} (${count(floor.copiedRows)} copied in ${seconds(floor.copiedMs)}, ${REBUILD_CONCURRENCY} tables at a time)`,
      ratio: `${times(ratio)} the bare copy`,
      target: REBUILD_TARGET,
      checks: full ? [{ label: '≤ 10 min', ok: r.ms <= 600_000 }] : [],
      figures: {
        days,
        jobs: r.jobs,
        rows: r.rows,
        ms: round(r.ms),
        tableRows: floor.tableRows,
        copiedRows: floor.copiedRows,
        copiedMs: round(floor.copiedMs),
        copyEstimateMs: round(floor.estimateMs),
        ratioToCopy: round(ratio, 3),
        replacedAggregates: replacing,
      },
      ...(notes.length ? { note: notes.join('; ') } : {}),
    }),
  ];
}
