import { DAILY_KINDS } from '@bo/contracts';
import { dayRange, type Knex } from '@bo/db';
import { AGRT_GBS, LIST_KINDS, MEASURE_COLUMNS, type ListKind } from '@bo/aggregates';
import { builtDaysOf } from './data-access/build-log.ts';
import { listDayTotals, listSourceTotals } from './data-access/list-aggregates.ts';
import { monthOf, monthTotals, rollUpMonth, type MonthTotals } from './data-access/month-rollups.ts';
import { periodAggregateTotals, periodSourceTotals } from './data-access/period-rollups.ts';
import type { Totals } from './model.ts';

export interface Mismatch {
  kind: ListKind | 'period';
  day: string;
  source: Totals[];
  aggregate: Totals[];
}

/** Totals keyed by agrtGb, or by agrtGb and part for the `period` rollups (see periodSourceTotals). */
const keyOf = (r: Totals & { part?: string }) => (r.part ? `${r.agrt_gb_cd}|${r.part}` : r.agrt_gb_cd);

const sameTotals = (a: Totals[], b: Totals[]): boolean => {
  const byKey = (rows: Totals[]) => new Map(rows.map((r) => [keyOf(r), r]));
  const [ma, mb] = [byKey(a), byKey(b)];
  return [...new Set([...ma.keys(), ...mb.keys()])].every((k) =>
    MEASURE_COLUMNS.every((m) => Number(ma.get(k)?.[m] ?? 0) === Number(mb.get(k)?.[m] ?? 0)),
  );
};

/**
 * Every built (kind, day) among `days` whose aggregate totals differ from a direct sum over
 * that day's events — late rows the high-water mark missed, or a table touched by hand.
 */
export async function reconcileDays(knex: Knex, days: string[]): Promise<Mismatch[]> {
  const built = await builtDaysOf(knex, DAILY_KINDS, days);
  const mismatches: Mismatch[] = [];
  for (const { kind, day } of built) {
    const dailyKind = kind as ListKind | 'period';
    const [source, aggregate] =
      dailyKind === 'period'
        ? await Promise.all([periodSourceTotals(knex, dayRange(day)), periodAggregateTotals(knex, day)])
        : await Promise.all([listSourceTotals(knex, dailyKind, dayRange(day)), listDayTotals(knex, dailyKind, day)]);
    if (!sameTotals(source, aggregate)) mismatches.push({ kind: dailyKind, day, source, aggregate });
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
 * totals differ from its daily rows is rebuilt from them (under the month lock, so a day build
 * running meanwhile is counted once). Returns what was rebuilt.
 */
export async function reconcileMonths(knex: Knex, days: string[]): Promise<{ kind: ListKind; month: string; rows: number }[]> {
  const rebuilt: { kind: ListKind; month: string; rows: number }[] = [];
  for (const month of [...new Set(days.map(monthOf))]) {
    for (const kind of LIST_KINDS) {
      const { rollup, daily } = await monthTotals(knex, kind, month);
      if (sameMonthTotals(rollup, daily)) continue;
      // READ COMMITTED like the day builds: the month's daily rows are read as last committed.
      const rows = await knex.transaction((trx) => rollUpMonth(trx, kind, month), { isolationLevel: 'read committed' });
      rebuilt.push({ kind, month, rows });
    }
  }
  return rebuilt;
}
