import type { AggregateKind } from '@bo/contracts';
import type { Db } from './repository.ts';

/** What was built when (agg_day_status) and how far the sources were read (agg_watermark). */

export type Source = 'ord_stat_evt' | 'goods_inflow_log';
const NUMBER_COLUMN: Record<Source, string> = { ord_stat_evt: 'evt_no', goods_inflow_log: 'log_no' };

export interface BuiltStatus {
  kind: AggregateKind;
  day: string;
  hour: number;
  builtMaxNo: number;
}

export async function builtStatuses(db: Db, kinds: readonly AggregateKind[], fromDay: string, toDay: string): Promise<BuiltStatus[]> {
  const rows: { kind: AggregateKind; agrt_dt: string; agrt_hour: number; built_max_no: number }[] = await db('agg_day_status')
    .select('kind', 'agrt_dt', 'agrt_hour', 'built_max_no')
    .whereIn('kind', kinds)
    .andWhere('agrt_dt', '>=', fromDay)
    .andWhere('agrt_dt', '<=', toDay);
  return rows.map((r) => ({ kind: r.kind, day: r.agrt_dt, hour: Number(r.agrt_hour), builtMaxNo: Number(r.built_max_no) }));
}

export async function builtStatusesOfDays(db: Db, kinds: readonly AggregateKind[], days: string[]): Promise<BuiltStatus[]> {
  if (!days.length) return [];
  const rows: { kind: AggregateKind; agrt_dt: string; agrt_hour: number; built_max_no: number }[] = await db('agg_day_status')
    .select('kind', 'agrt_dt', 'agrt_hour', 'built_max_no')
    .whereIn('kind', kinds)
    .whereIn('agrt_dt', days);
  return rows.map((r) => ({ kind: r.kind, day: r.agrt_dt, hour: Number(r.agrt_hour), builtMaxNo: Number(r.built_max_no) }));
}

export async function minBuiltMaxNo(db: Db, kinds: readonly AggregateKind[]): Promise<number | undefined> {
  const row = await db('agg_day_status').whereIn('kind', kinds).min({ n: 'built_max_no' }).first();
  return row?.n === null || row?.n === undefined ? undefined : Number(row.n);
}

export async function readWatermark(db: Db, source: Source): Promise<number | undefined> {
  const row = await db('agg_watermark').where({ source_nm: source }).first('last_no');
  return row ? Number(row.last_no) : undefined;
}

export async function writeWatermark(db: Db, source: Source, lastNo: number, at: string): Promise<void> {
  await db('agg_watermark').insert({ source_nm: source, last_no: lastNo, upd_dtm: at }).onConflict('source_nm').merge(['last_no', 'upd_dtm']);
}

export async function maxSourceNo(db: Db, source: Source): Promise<number> {
  const row = await db(source).max({ n: NUMBER_COLUMN[source] }).first();
  return Number(row?.n ?? 0);
}

/** Days (and, for inflow, hours) of the source rows numbered in `(fromNo, toNo]`, with their highest number. */
export interface TouchedBucket {
  day: string;
  hour: number;
  maxNo: number;
}

export async function eventDaysBetween(db: Db, fromNo: number, toNo: number): Promise<TouchedBucket[]> {
  const rows: { d: string; n: number }[] = await db('ord_stat_evt')
    .select(db.raw("DATE_FORMAT(evt_dtm, '%Y-%m-%d') AS d"))
    .max({ n: 'evt_no' })
    .where('evt_no', '>', fromNo)
    .andWhere('evt_no', '<=', toNo)
    .groupBy('d');
  return rows.map((r) => ({ day: r.d, hour: -1, maxNo: Number(r.n) }));
}

export async function inflowHoursBetween(db: Db, fromNo: number, toNo: number): Promise<TouchedBucket[]> {
  const rows: { d: string; h: number; n: number }[] = await db('goods_inflow_log')
    .select(db.raw("DATE_FORMAT(inflow_dtm, '%Y-%m-%d') AS d"), db.raw('HOUR(inflow_dtm) AS h'))
    .max({ n: 'log_no' })
    .where('log_no', '>', fromNo)
    .andWhere('log_no', '<=', toNo)
    .groupBy('d', 'h');
  return rows.map((r) => ({ day: r.d, hour: Number(r.h), maxNo: Number(r.n) }));
}
