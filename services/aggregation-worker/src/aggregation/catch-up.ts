import { DAILY_KINDS } from '@bo/contracts';
import type { Knex } from '@bo/db';
import { builtDaysBetween } from './data-access/build-log.ts';
import type { BuildTarget } from './model.ts';

/**
 * After downtime some scheduled runs never happened: every hour (or day) in the look-back
 * window that was never built is built now.
 */

export async function missingInflowHours(knex: Knex, hours: { day: string; hour: number }[]): Promise<BuildTarget[]> {
  if (!hours.length) return [];
  const built = await builtDaysBetween(knex, ['inflow'], hours[0]!.day, hours[hours.length - 1]!.day);
  const done = new Set(built.map((s) => `${s.day}|${s.hour}`));
  return hours.filter((h) => !done.has(`${h.day}|${h.hour}`)).map((h) => ({ kind: 'inflow', ...h }));
}

export async function missingDailyDays(knex: Knex, days: string[]): Promise<BuildTarget[]> {
  if (!days.length) return [];
  const built = await builtDaysBetween(knex, DAILY_KINDS, days[0]!, days[days.length - 1]!);
  const done = new Set(built.map((s) => `${s.kind}|${s.day}`));
  return days.flatMap((day) => DAILY_KINDS.filter((kind) => !done.has(`${kind}|${day}`)).map((kind) => ({ kind, day })));
}
