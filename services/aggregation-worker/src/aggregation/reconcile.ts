import { DAILY_KINDS } from '@bo/contracts';
import { dayRange, type Knex } from '@bo/db';
import { aggregateTotals, MEASURE_COLUMNS, sourceTotals, type DailyKind, type Totals } from './repository.ts';
import { builtStatusesOfDays } from './status-repository.ts';

export interface Mismatch {
  kind: DailyKind;
  day: string;
  source: Totals[];
  aggregate: Totals[];
}

const sameTotals = (a: Totals[], b: Totals[]): boolean => {
  const byGb = (rows: Totals[]) => new Map(rows.map((r) => [r.agrt_gb_cd, r]));
  const [ma, mb] = [byGb(a), byGb(b)];
  return [...new Set([...ma.keys(), ...mb.keys()])].every((gb) =>
    MEASURE_COLUMNS.every((m) => Number(ma.get(gb)?.[m] ?? 0) === Number(mb.get(gb)?.[m] ?? 0)),
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
    const dailyKind = kind as DailyKind;
    const [source, aggregate] = await Promise.all([sourceTotals(knex, dailyKind, dayRange(day)), aggregateTotals(knex, dailyKind, day)]);
    if (!sameTotals(source, aggregate)) mismatches.push({ kind: dailyKind, day, source, aggregate });
  }
  return mismatches;
}
