import { DAILY_KINDS } from '@bo/contracts';
import { dayRange, type Knex } from '@bo/db';
import { periodAggregateTotals, periodSourceTotals } from './period-repository.ts';
import { aggregateTotals, MEASURE_COLUMNS, sourceTotals, type DailyKind, type Totals } from './repository.ts';
import { builtStatusesOfDays } from './status-repository.ts';

export interface Mismatch {
  kind: DailyKind | 'period';
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
  const built = await builtStatusesOfDays(knex, DAILY_KINDS, days);
  const mismatches: Mismatch[] = [];
  for (const { kind, day } of built) {
    const dailyKind = kind as DailyKind | 'period';
    const [source, aggregate] =
      dailyKind === 'period'
        ? await Promise.all([periodSourceTotals(knex, dayRange(day)), periodAggregateTotals(knex, day)])
        : await Promise.all([sourceTotals(knex, dailyKind, dayRange(day)), aggregateTotals(knex, dailyKind, day)]);
    if (!sameTotals(source, aggregate)) mismatches.push({ kind: dailyKind, day, source, aggregate });
  }
  return mismatches;
}
