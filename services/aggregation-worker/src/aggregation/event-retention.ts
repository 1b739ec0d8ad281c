import { addMonths, addMonthsThrough, dropMonth, EVENT_TABLES, partitionsOf, type EventTable, type Knex } from '@bo/db';
import type { AggregateKind } from '@bo/contracts';
import { builtCountOfMonth, monthDropped, monthHasRows, recordDroppedMonth } from './data-access/retention.ts';

export interface RetentionPlan {
  /** Whole months older than this many months before the current one are dropped; 0 = none. */
  keepMonths: number;
  /** Month partitions kept ready ahead of the current month. */
  aheadMonths: number;
  /** Platform local date and time now (`yyyy-MM-dd HH:mm:ss`). */
  now: string;
  dryRun: boolean;
}

export interface RetentionOutcome {
  added: { table: EventTable; months: string[] }[];
  dropped: { table: EventTable; month: string }[];
  kept: { table: EventTable; month: string; reason: string }[];
}

/**
 * The event tables' month housekeeping: partitions ready `aheadMonths` ahead, and every month
 * older than `keepMonths` dropped — but only once every (kind, day) built from it is recorded
 * built, so no aggregate ever loses the events it still needs. The drop is recorded first, so a
 * later rebuild of such a day is refused rather than emptying its aggregates. `p_before` is never
 * dropped: it holds whatever was older than the first month when the table was partitioned.
 */
export async function applyRetention(knex: Knex, plan: RetentionPlan): Promise<RetentionOutcome> {
  const current = plan.now.slice(0, 7);
  // '' is before every month: with keepMonths 0 nothing is old enough to drop.
  const oldestKept = plan.keepMonths > 0 ? addMonths(current, -plan.keepMonths) : '';
  const outcome: RetentionOutcome = { added: [], dropped: [], kept: [] };
  for (const table of Object.keys(EVENT_TABLES) as EventTable[]) {
    const partitions = await partitionsOf(knex, table);
    if (!partitions.length) throw new Error(`${table} is not partitioned: run the migrations first (pnpm db:migrate)`);
    if (!plan.dryRun) outcome.added.push({ table, months: await addMonthsThrough(knex, table, addMonths(current, plan.aheadMonths)) });
    for (const p of partitions) {
      if (!p.month || p.month >= oldestKept) continue;
      const { built, expected } = await builtCountOfMonth(knex, table, p.month);
      // A month without a single event has nothing to lose (its days aggregate to no rows).
      if (built < expected && (await monthHasRows(knex, table, p.month))) {
        outcome.kept.push({ table, month: p.month, reason: `${expected - built} of ${expected} aggregate days (or hours) not built yet` });
        continue;
      }
      if (!plan.dryRun) {
        await recordDroppedMonth(knex, table, p.month, plan.now);
        await dropMonth(knex, table, p.month);
      }
      outcome.dropped.push({ table, month: p.month });
    }
  }
  return outcome;
}

/** A build of `day` after its events' month was dropped would read nothing: refused instead. */
export async function refuseDroppedDay(knex: Knex, kind: AggregateKind, day: string): Promise<void> {
  const table: EventTable = kind === 'inflow' ? 'goods_inflow_log' : 'ord_stat_evt';
  if (await monthDropped(knex, table, day))
    throw new Error(`the ${table} events of ${day.slice(0, 7)} were dropped by the retention command; its aggregates are kept as built`);
}
