import { addDays, daysBetween } from '@bo/db';

/** The period and sizes of one generated data set, resolved from the options. */
export interface Plan {
  seed: number;
  /** First and last day (`yyyy-MM-dd`) of the period. */
  start: string;
  end: string;
  days: number;
  /** Rows later than this `yyyy-MM-dd HH:mm:ss` are not generated (the period ends "now"); null = the whole last day. */
  cutoff: string | null;
  goods: number;
  ordersPerDay: number;
  /** Page views per order event. */
  inflowRatio: number;
  members: number;
}

/** Events one order produces on average (lines × (placed, cancelled, sold, returned)); see orders.ts. */
export const EVENTS_PER_ORDER = 2.99;

export interface SizeOptions {
  seed: number;
  days: number;
  goods: number;
  eventsPerDay?: number;
  events?: number;
  end: string;
  cutoff: string | null;
  inflowRatio?: number;
}

export function resolvePlan(o: SizeOptions): Plan {
  if (!Number.isInteger(o.days) || o.days < 1) throw new Error(`days must be a whole number ≥ 1 (got ${o.days})`);
  if (!Number.isInteger(o.goods) || o.goods < 5) throw new Error(`goods must be a whole number ≥ 5 (got ${o.goods})`);
  const eventsPerDay = o.eventsPerDay ?? (o.events ?? 200_000) / o.days;
  if (!(eventsPerDay > 0)) throw new Error('events per day must be positive');
  const ordersPerDay = eventsPerDay / EVENTS_PER_ORDER;
  const start = addDays(o.end, -(o.days - 1));
  if (daysBetween(start, o.end) !== o.days - 1) throw new Error(`bad end date ${o.end}`);
  return {
    seed: o.seed,
    start,
    end: o.end,
    days: o.days,
    cutoff: o.cutoff,
    goods: o.goods,
    ordersPerDay,
    inflowRatio: o.inflowRatio ?? 3,
    // About eight orders per member over the period; bounded so tiny sets still have a crowd
    // and huge ones do not spend their time on members.
    members: Math.round(Math.min(200_000, Math.max(500, (ordersPerDay * o.days) / 8))),
  };
}

/** The latest second of the period's last day that may hold a row: "now" when the period ends now. */
export function lastSecondOfLastDay(plan: Plan): number {
  if (!plan.cutoff || plan.cutoff.slice(0, 10) !== plan.end) return 86_399;
  const [h, m, s] = plan.cutoff.slice(11, 19).split(':').map(Number) as [number, number, number];
  return h * 3600 + m * 60 + s;
}
