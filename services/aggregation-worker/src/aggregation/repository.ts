import type { Knex } from '@bo/db';
import type { AggregateKind } from '@bo/contracts';

/**
 * The SQL of the aggregation worker. Every build reads a half-open `[from, to)` range of the
 * event time so the `evt_dtm` / `inflow_dtm` indexes are used (never `DATE(col)` in WHERE).
 */

/** The daily kinds of one `INSERT … SELECT` each (`period` writes two rollups: period-repository.ts). */
export type DailyKind = Exclude<AggregateKind, 'inflow' | 'period'>;
export type Db = Knex | Knex.Transaction;

interface DailyShape {
  table: string;
  /** Key columns of the aggregate table, in insert order. */
  keys: string[];
  /** The matching select expressions over `e` (events), `g` (goods), `o` (orders). */
  keyExprs: string[];
  joinOrd: boolean;
}

export const DAILY_SHAPES: Record<DailyKind, DailyShape> = {
  category: {
    table: 'agg_ctg_daily',
    keys: ['std_ctg_no', 'md_id'],
    keyExprs: ['g.std_ctg_no', "COALESCE(g.md_id, '')"],
    joinOrd: false,
  },
  payway: { table: 'agg_payway_daily', keys: ['pay_way_cd'], keyExprs: ['o.pay_way_cd'], joinOrd: true },
  goods: { table: 'agg_goods_daily', keys: ['goods_no', 'entr_no'], keyExprs: ['e.goods_no', 'g.entr_no'], joinOrd: false },
  entr: { table: 'agg_entr_daily', keys: ['entr_no'], keyExprs: ['g.entr_no'], joinOrd: false },
};

/** Occurrences (`10`) add, cancellations (`20`) go to their own columns; discounts are net. */
const MEASURES: [column: MeasureColumn, expr: string][] = [
  ['ord_amt', "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.amt ELSE 0 END)"],
  ['ord_qty', "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.qty ELSE 0 END)"],
  ['cncl_amt', "SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.amt ELSE 0 END)"],
  ['cncl_qty', "SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.qty ELSE 0 END)"],
  ['dc_amt_2nd', "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_2nd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_2nd ELSE 0 END)"],
  ['dc_amt_3rd', "SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_3rd WHEN e.evt_gb_cd = '20' THEN -e.dc_amt_3rd ELSE 0 END)"],
];
export const MEASURE_COLUMNS = MEASURES.map(([column]) => column);
/** The sums of MEASURE_COLUMNS, in that order, over events `e`; and the same named after their columns. */
export const MEASURE_EXPRS = MEASURES.map(([, expr]) => expr).join(', ');
export const MEASURE_SELECT = MEASURES.map(([column, expr]) => `${expr} AS ${column}`).join(', ');

const joinsOf = (shape: DailyShape) =>
  `JOIN goods g ON g.goods_no = e.goods_no${shape.joinOrd ? ' JOIN ord o ON o.ord_no = e.ord_no' : ''}`;

/**
 * The two report kinds of DATA-MODEL.md section 3. Naming them keeps the day's DELETE on the
 * primary key `(agrt_gb_cd, agrt_dt, …)` instead of locking the whole aggregate table.
 */
export const AGRT_GBS = ['01', '02'] as const;

export async function deleteDailyRows(db: Db, kind: DailyKind, day: string): Promise<void> {
  await db(DAILY_SHAPES[kind].table).whereIn('agrt_gb_cd', AGRT_GBS).andWhere({ agrt_dt: day }).delete();
}

/** One `INSERT … SELECT … GROUP BY` for one (kind, day); returns the number of rows written. */
export async function insertDailyRows(db: Db, kind: DailyKind, day: string, [from, to]: [string, string]): Promise<number> {
  const shape = DAILY_SHAPES[kind];
  const columns = ['agrt_gb_cd', 'agrt_dt', 'site_no', ...shape.keys, ...MEASURE_COLUMNS].join(', ');
  const keys = shape.keyExprs.join(', ');
  const [result] = await db.raw(
    `INSERT INTO ${shape.table} (${columns})
     SELECT e.agrt_gb_cd, ?, e.site_no, ${keys}, ${MEASURE_EXPRS}
     FROM ord_stat_evt e ${joinsOf(shape)}
     WHERE e.agrt_gb_cd IN (?, ?) AND e.evt_dtm >= ? AND e.evt_dtm < ?
     GROUP BY e.agrt_gb_cd, e.site_no, ${keys}`,
    [day, ...AGRT_GBS, from, to],
  );
  return (result as { affectedRows: number }).affectedRows;
}

export async function deleteInflowRows(db: Db, day: string, hour?: number): Promise<void> {
  const q = db('agg_inflow_hourly').where({ agrt_dt: day });
  if (hour !== undefined) q.andWhere({ agrt_hour: hour });
  await q.delete();
}

/** Page views per (hour, site, goods) over `[from, to)`, which lies inside `day`. */
export async function insertInflowRows(db: Db, day: string, [from, to]: [string, string]): Promise<number> {
  const [result] = await db.raw(
    `INSERT INTO agg_inflow_hourly (agrt_dt, agrt_hour, site_no, goods_no, inf_cnt)
     SELECT ?, HOUR(l.inflow_dtm), l.site_no, l.goods_no, COUNT(*)
     FROM goods_inflow_log l
     WHERE l.inflow_dtm >= ? AND l.inflow_dtm < ?
     GROUP BY HOUR(l.inflow_dtm), l.site_no, l.goods_no`,
    [day, from, to],
  );
  return (result as { affectedRows: number }).affectedRows;
}

/** Highest event number inside a range: what a build of that range has seen at least. */
export async function maxEventNoIn(db: Db, [from, to]: [string, string]): Promise<number> {
  const row = await db('ord_stat_evt').where('evt_dtm', '>=', from).andWhere('evt_dtm', '<', to).max({ n: 'evt_no' }).first();
  return Number(row?.n ?? 0);
}

/** Highest inflow log number per hour of a range (hours without logs are absent). */
export async function maxLogNoPerHour(db: Db, [from, to]: [string, string]): Promise<Map<number, number>> {
  const rows: { h: number; n: number }[] = await db('goods_inflow_log')
    .select(db.raw('HOUR(inflow_dtm) AS h'))
    .max({ n: 'log_no' })
    .where('inflow_dtm', '>=', from)
    .andWhere('inflow_dtm', '<', to)
    .groupByRaw('HOUR(inflow_dtm)');
  return new Map(rows.map((r) => [Number(r.h), Number(r.n)]));
}

/** Aggregate rows per hour of one day, for the per-hour build status. */
export async function inflowRowsPerHour(db: Db, day: string): Promise<Map<number, number>> {
  const rows: { h: number; n: number }[] = await db('agg_inflow_hourly')
    .select({ h: 'agrt_hour' })
    .count({ n: '*' })
    .where({ agrt_dt: day })
    .groupBy('agrt_hour');
  return new Map(rows.map((r) => [Number(r.h), Number(r.n)]));
}

export interface DayStatus {
  kind: AggregateKind;
  day: string;
  /** -1 for the daily kinds. */
  hour: number;
  builtMaxNo: number;
  rows: number;
  builtAt: string;
}

export async function upsertDayStatus(db: Db, statuses: DayStatus[]): Promise<void> {
  if (!statuses.length) return;
  await db('agg_day_status')
    .insert(
      statuses.map((s) => ({
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

export interface RunLogStart {
  kind: AggregateKind;
  day: string;
  hour?: number;
  requestedBy: string;
  jobId?: string;
  startedAt: string;
}

export async function insertRunLog(db: Db, run: RunLogStart): Promise<number> {
  const [runNo] = await db('agg_run_log').insert({
    kind: run.kind,
    agrt_dt: run.day,
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
  await db('agg_run_log')
    .where({ run_no: runNo })
    .update({
      finished_dtm: finish.finishedAt,
      row_cnt: finish.rows ?? null,
      outcome: finish.outcome,
      error_msg: finish.error?.slice(0, 2000) ?? null,
    });
}

export type MeasureColumn = Exclude<keyof Totals, 'agrt_gb_cd'>;

export interface Totals {
  agrt_gb_cd: string;
  ord_amt: number;
  ord_qty: number;
  cncl_amt: number;
  cncl_qty: number;
  dc_amt_2nd: number;
  dc_amt_3rd: number;
}

/** Per agrtGb totals straight from the events of one day, through the kind's joins. */
export async function sourceTotals(db: Db, kind: DailyKind, [from, to]: [string, string]): Promise<Totals[]> {
  const [rows] = await db.raw(
    `SELECT e.agrt_gb_cd, ${MEASURES.map(([column, expr]) => `${expr} AS ${column}`).join(', ')}
     FROM ord_stat_evt e ${joinsOf(DAILY_SHAPES[kind])}
     WHERE e.agrt_gb_cd IN (?, ?) AND e.evt_dtm >= ? AND e.evt_dtm < ?
     GROUP BY e.agrt_gb_cd`,
    [...AGRT_GBS, from, to],
  );
  return rows as Totals[];
}

/** Per agrtGb totals of one built day of an aggregate table. */
export async function aggregateTotals(db: Db, kind: DailyKind, day: string): Promise<Totals[]> {
  return db(DAILY_SHAPES[kind].table)
    .select('agrt_gb_cd', ...MEASURE_COLUMNS.map((c) => db.raw(`SUM(${c}) AS ${c}`)))
    .whereIn('agrt_gb_cd', AGRT_GBS)
    .andWhere({ agrt_dt: day })
    .groupBy('agrt_gb_cd');
}
