import type { AggregateKind } from '@bo/contracts';

/** One unit of work: a (kind, day) of a daily aggregate, or one (day, hour) of the inflow aggregate. */
export interface BuildTarget {
  kind: AggregateKind;
  day: string;
  hour?: number;
}

export const describeTarget = (t: BuildTarget): string => `${t.kind} ${t.day}${t.hour !== undefined ? ` ${String(t.hour).padStart(2, '0')}h` : ''}`;
