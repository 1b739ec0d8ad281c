import type { Db } from '@bo/db';
import type { AggregateKind } from '@bo/contracts';
import { BUILD_TABLES } from '@bo/aggregates';
import type { BuiltDay, BuiltDayRecord, RunLogStart, Source } from '../model.ts';

/** The worker's book-keeping: the run log, what each (kind, day[, hour]) was built from, the late-data marks and the build locks. */

export async function insertRunLog(db: Db, run: RunLogStart): Promise<number> {
  const [runNo] = await db(BUILD_TABLES.runLog).insert({
    kind: run.kind,
    agrt_dt: run.day,
    to_dt: run.toDay ?? null,
    agrt_hour: run.hour ?? null,
    requested_by: run.requestedBy,
    job_id: run.jobId ?? null,
    started_dtm: run.startedAt,
    outcome: 'running',
  });
  return Number(runNo);
}

export async function finishRunLog(
  db: Db,
  runNo: number,
  finish: { finishedAt: string; rows?: number; outcome: 'done' | 'failed'; error?: string },
): Promise<void> {
  await db(BUILD_TABLES.runLog)
    .where({ run_no: runNo })
    .update({
      finished_dtm: finish.finishedAt,
      row_cnt: finish.rows ?? null,
      outcome: finish.outcome,
      error_msg: finish.error?.slice(0, 2000) ?? null,
    });
}

export async function recordBuiltDays(db: Db, built: BuiltDayRecord[]): Promise<void> {
  if (!built.length) return;
  await db(BUILD_TABLES.builtDay)
    .insert(
      built.map((s) => ({
        kind: s.kind,
        agrt_dt: s.day,
        agrt_hour: s.hour,
        built_max_no: s.builtMaxNo,
        row_cnt: s.rows,
        built_dtm: s.builtAt,
      })),
    )
    .onConflict(['kind', 'agrt_dt', 'agrt_hour'])
    .merge(['built_max_no', 'row_cnt', 'built_dtm']);
}

type BuiltDayRow = { kind: AggregateKind; agrt_dt: string; agrt_hour: number; built_max_no: number };
const builtDayOf = (r: BuiltDayRow): BuiltDay => ({
  kind: r.kind,
  day: r.agrt_dt,
  hour: Number(r.agrt_hour),
  builtMaxNo: Number(r.built_max_no),
});
const builtDaysOfKinds = (db: Db, kinds: readonly AggregateKind[]) =>
  db(BUILD_TABLES.builtDay).select('kind', 'agrt_dt', 'agrt_hour', 'built_max_no').whereIn('kind', kinds);

/** Built days of `kinds` from `fromDay` to `toDay`, both included. */
export async function builtDaysBetween(db: Db, kinds: readonly AggregateKind[], fromDay: string, toDay: string): Promise<BuiltDay[]> {
  const rows = (await builtDaysOfKinds(db, kinds).andWhere('agrt_dt', '>=', fromDay).andWhere('agrt_dt', '<=', toDay)) as BuiltDayRow[];
  return rows.map(builtDayOf);
}

export async function builtDaysOf(db: Db, kinds: readonly AggregateKind[], days: string[]): Promise<BuiltDay[]> {
  if (!days.length) return [];
  const rows = (await builtDaysOfKinds(db, kinds).whereIn('agrt_dt', days)) as BuiltDayRow[];
  return rows.map(builtDayOf);
}

export async function minBuiltMaxNo(db: Db, kinds: readonly AggregateKind[]): Promise<number | undefined> {
  const row = await db(BUILD_TABLES.builtDay).whereIn('kind', kinds).min({ n: 'built_max_no' }).first();
  return row?.n === null || row?.n === undefined ? undefined : Number(row.n);
}

export async function readWatermark(db: Db, source: Source): Promise<number | undefined> {
  const row = await db(BUILD_TABLES.watermark).where({ source_nm: source }).first<{ last_no: number } | undefined>('last_no');
  return row ? Number(row.last_no) : undefined;
}

export async function writeWatermark(db: Db, source: Source, lastNo: number, at: string): Promise<void> {
  await db(BUILD_TABLES.watermark)
    .insert({ source_nm: source, last_no: lastNo, upd_dtm: at })
    .onConflict('source_nm')
    .merge(['last_no', 'upd_dtm']);
}

/**
 * Hold the (name, day) row lock until the transaction ends: builds that rewrite a rollup shared
 * with other builds (a day of hourly builds, a month of day builds) take turns instead of
 * overwriting each other's view of it. `day` may be a month's first day.
 */
export async function lockBuild(db: Db, name: string, day: string): Promise<void> {
  await db.raw(`INSERT INTO ${BUILD_TABLES.lock} (kind, agrt_dt) VALUES (?, ?) ON DUPLICATE KEY UPDATE agrt_dt = VALUES(agrt_dt)`, [
    name,
    day,
  ]);
}
