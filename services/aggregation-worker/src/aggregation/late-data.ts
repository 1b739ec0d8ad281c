import { DAILY_KINDS, type AggregateKind } from '@bo/contracts';
import { addDays, dayRange, type Knex } from '@bo/db';
import { builtDaysOf, minBuiltMaxNo, readWatermark, writeWatermark } from './data-access/build-log.ts';
import { aggregatedInflowPerHour } from './data-access/inflow.ts';
import { periodAggregateTotals, periodSourceTotals } from './data-access/period-rollups.ts';
import { eventDaysBetween, inflowCountsPerHour, inflowHoursBetween, maxSourceNo } from './data-access/source-marks.ts';
import type { BuildTarget, Source, TouchedBucket } from './model.ts';
import { sameTotals } from './reconcile.ts';

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

const keyOf = (t: BuildTarget) => `${t.kind}|${t.day}|${t.hour ?? -1}`;

/**
 * Built days (hours) that rows arrived for after their build, found two ways:
 *
 * - Rows numbered above the high-water mark: the built-day record keeps the highest number it
 *   saw, so a day built after the row arrived is not rebuilt again. Without a mark yet, the
 *   scan starts at the oldest build's number. Cheap, and covers any day however old.
 * - A re-count of the recent hours (`recent`, the hourly run's look-back): a row can take its
 *   number early in a long transaction and commit after the mark has passed it; the mark never
 *   sees it again. So each run also compares, per built inflow hour, the page views the
 *   aggregate holds with the log's count, and per built day of those hours the `period`
 *   rollups' sums with the events' (every event kind is rebuilt when they differ).
 */
export async function findLateData(knex: Knex, recent: readonly { day: string; hour: number }[] = []): Promise<LateData> {
  const targets = new Map<string, BuildTarget>();
  const add = (t: BuildTarget) => targets.set(keyOf(t), t);
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
        add(s.hour < 0 ? { kind: s.kind, day: s.day } : { kind: s.kind, day: s.day, hour: s.hour });
    }
  }
  for (const t of await recountRecent(knex, recent)) add(t);
  return {
    targets: [...targets.values()],
    advance: async (at) => {
      for (const m of marks) await writeWatermark(knex, m.source, m.upTo, at);
    },
  };
}

async function recountRecent(knex: Knex, recent: readonly { day: string; hour: number }[]): Promise<BuildTarget[]> {
  if (!recent.length) return [];
  const days = [...new Set(recent.map((h) => h.day))].sort();
  const inRecent = new Set(recent.map((h) => `${h.day}|${h.hour}`));
  const out: BuildTarget[] = [];

  const builtHours = (await builtDaysOf(knex, ['inflow'], days)).filter((b) => inRecent.has(`${b.day}|${b.hour}`));
  if (builtHours.length) {
    const range: [string, string] = [`${days[0]} 00:00:00`, `${addDays(days.at(-1)!, 1)} 00:00:00`];
    const [logged, aggregated] = await Promise.all([inflowCountsPerHour(knex, range), aggregatedInflowPerHour(knex, days)]);
    for (const b of builtHours) {
      const key = `${b.day}|${b.hour}`;
      if ((logged.get(key) ?? 0) !== (aggregated.get(key) ?? 0)) out.push({ kind: 'inflow', day: b.day, hour: b.hour });
    }
  }

  const builtEventDays = await builtDaysOf(knex, DAILY_KINDS, days);
  for (const day of [...new Set(builtEventDays.filter((b) => b.kind === 'period').map((b) => b.day))]) {
    const [source, aggregate] = await Promise.all([periodSourceTotals(knex, dayRange(day)), periodAggregateTotals(knex, day)]);
    if (!sameTotals(source, aggregate)) for (const b of builtEventDays.filter((x) => x.day === day)) out.push({ kind: b.kind, day });
  }
  return out;
}
