import { DAILY_KINDS, type AggregateKind } from '@bo/contracts';
import type { Knex } from '@bo/db';
import { builtDaysOf, minBuiltMaxNo, readWatermark, writeWatermark } from './data-access/build-log.ts';
import { eventDaysBetween, inflowHoursBetween, maxSourceNo } from './data-access/source-marks.ts';
import type { BuildTarget, Source, TouchedBucket } from './model.ts';

export interface LateData {
  /** Builds whose day (or hour) already existed when rows arrived for it. */
  targets: BuildTarget[];
  /** Move the high-water marks past what was looked at; call once the targets are queued. */
  advance: (at: string) => Promise<void>;
}

const SOURCES: { source: Source; kinds: readonly AggregateKind[]; touched: typeof eventDaysBetween }[] = [
  { source: 'ord_stat_evt', kinds: DAILY_KINDS, touched: eventDaysBetween },
  { source: 'goods_inflow_log', kinds: ['inflow'], touched: inflowHoursBetween },
];

/**
 * Rows numbered above the high-water mark whose day (hour) was already built from fewer rows:
 * the built-day record keeps the highest number it saw, so a day built after the row arrived
 * is not rebuilt again. Without a mark yet, the scan starts at the oldest build's number.
 */
export async function findLateData(knex: Knex): Promise<LateData> {
  const targets: BuildTarget[] = [];
  const marks: { source: Source; upTo: number }[] = [];
  for (const { source, kinds, touched } of SOURCES) {
    const upTo = await maxSourceNo(knex, source);
    const from = (await readWatermark(knex, source)) ?? (await minBuiltMaxNo(knex, kinds)) ?? upTo;
    marks.push({ source, upTo });
    if (upTo <= from) continue;
    const buckets = await touched(knex, from, upTo);
    const bucketOf = new Map<string, TouchedBucket>(buckets.map((b) => [`${b.day}|${b.hour}`, b]));
    const builtDays = await builtDaysOf(knex, kinds, [...new Set(buckets.map((b) => b.day))]);
    for (const s of builtDays) {
      const bucket = bucketOf.get(`${s.day}|${s.hour}`);
      if (bucket && bucket.maxNo > s.builtMaxNo)
        targets.push(s.hour < 0 ? { kind: s.kind, day: s.day } : { kind: s.kind, day: s.day, hour: s.hour });
    }
  }
  return {
    targets,
    advance: async (at) => {
      for (const m of marks) await writeWatermark(knex, m.source, m.upTo, at);
    },
  };
}
