import { DAILY_KINDS } from '@bo/contracts';
import { dayRange, monthStart, type Knex } from '@bo/db';
import { AGRT_GBS, LIST_KINDS, MEASURE_COLUMNS, type ListKind } from '@bo/aggregates';
import { builtDaysOf } from './data-access/build-log.ts';
import { inflowHoursDiffering } from './data-access/inflow.ts';
import { listDayRowsDiffering } from './data-access/list-aggregates.ts';
import { cumulativeKeysDiffering } from './data-access/cumulative-rollups.ts';
import { monthTotals, rollUpMonth, tenDayKeysDiffering, type MonthTotals } from './data-access/month-rollups.ts';
import { periodAggregateTotals, periodSourceTotals } from './data-access/period-rollups.ts';
import { refreshRunningSums } from './rebuild.ts';
import type { Totals } from './model.ts';

export interface Mismatch {
  kind: ListKind | 'period' | 'inflow';
  day: string;
  /** The inflow hour whose rows differ. */
  hour?: number;
  /** What differs: rows on one side only (lists, inflow), or the totals (period rollups). */
  differing?: number;
  source?: Totals[];
  aggregate?: Totals[];
}

/** Totals keyed by agrtGb, or by agrtGb and part for the `period` rollups (see periodSourceTotals). */
const keyOf = (r: Totals & { part?: string }) => (r.part ? `${r.agrt_gb_cd}|${r.part}` : r.agrt_gb_cd);

export const sameTotals = (a: Totals[], b: Totals[]): boolean => {
  const byKey = (rows: Totals[]) => new Map(rows.map((r) => [keyOf(r), r]));
  const [ma, mb] = [byKey(a), byKey(b)];
  return [...new Set([...ma.keys(), ...mb.keys()])].every((k) =>
    MEASURE_COLUMNS.every((m) => Number(ma.get(k)?.[m] ?? 0) === Number(mb.get(k)?.[m] ?? 0)),
  );
};

/**
 * Every built (kind, day) among `days` whose aggregate differs from its source rows — late rows
 * the high-water mark and the hourly re-count missed, or a table touched by hand. The lists are
 * compared row by row (every key, attribute and sum), the inflow aggregate row by row per hour,
 * the `period` rollups by their totals per agrtGb and part.
 */
export async function reconcileDays(knex: Knex, days: string[]): Promise<Mismatch[]> {
  const built = await builtDaysOf(knex, [...DAILY_KINDS, 'inflow'], days);
  const mismatches: Mismatch[] = [];
  for (const { kind, day } of built.filter((b) => b.kind !== 'inflow')) {
    const dailyKind = kind as ListKind | 'period';
    if (dailyKind === 'period') {
      const [source, aggregate] = await Promise.all([periodSourceTotals(knex, dayRange(day)), periodAggregateTotals(knex, day)]);
      if (!sameTotals(source, aggregate)) mismatches.push({ kind: dailyKind, day, source, aggregate });
    } else {
      const differing = await listDayRowsDiffering(knex, dailyKind, day, dayRange(day));
      if (differing) mismatches.push({ kind: dailyKind, day, differing });
    }
  }
  const builtHours = new Set(built.filter((b) => b.kind === 'inflow').map((b) => `${b.day}|${b.hour}`));
  for (const day of [...new Set(built.filter((b) => b.kind === 'inflow').map((b) => b.day))]) {
    for (const hour of await inflowHoursDiffering(knex, day, dayRange(day)))
      if (builtHours.has(`${day}|${hour}`)) mismatches.push({ kind: 'inflow', day, hour });
  }
  return mismatches;
}

const sameMonthTotals = (a: MonthTotals[], b: MonthTotals[]): boolean =>
  AGRT_GBS.every((gb) => {
    const [x, y] = [a.find((r) => r.agrt_gb_cd === gb), b.find((r) => r.agrt_gb_cd === gb)];
    return [...MEASURE_COLUMNS, 'day_cnt' as const].every((c) => Number(x?.[c] ?? 0) === Number(y?.[c] ?? 0));
  });

/**
 * The nightly check of the monthly roll-ups: every month holding one of `days` whose roll-up
 * totals differ from its daily rows, whose running sums (category, goods) do not step by its
 * monthly rows, or whose ten-day rows (category, goods) differ from their days, is rebuilt from them
 * (under the month lock, so a day build running meanwhile is counted once). Running sums marked
 * stale are written again first (they lag by design until then), and after a month was rolled up.
 * Returns what was rebuilt.
 */
export async function reconcileMonths(knex: Knex, days: string[]): Promise<{ kind: ListKind; month: string; rows: number }[]> {
  await refreshRunningSums(knex);
  const rebuilt: { kind: ListKind; month: string; rows: number }[] = [];
  for (const month of [...new Set(days.map(monthStart))]) {
    for (const kind of LIST_KINDS) {
      const { rollup, daily } = await monthTotals(knex, kind, month);
      const same =
        sameMonthTotals(rollup, daily) &&
        (await cumulativeKeysDiffering(knex, kind, month)) === 0 &&
        (await tenDayKeysDiffering(knex, kind, month)) === 0;
      if (same) continue;
      // READ COMMITTED like the day builds: the month's daily rows are read as last committed.
      const rows = await knex.transaction((trx) => rollUpMonth(trx, kind, month), { isolationLevel: 'read committed' });
      rebuilt.push({ kind, month, rows });
    }
  }
  if (rebuilt.length) await refreshRunningSums(knex);
  return rebuilt;
}
