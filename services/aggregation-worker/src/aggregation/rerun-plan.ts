import { AGGREGATE_KINDS, compileValidator, createAjv, RerunRequest, type AggregateKind, type FieldError } from '@bo/contracts';
import { daysBetween, monthPieces } from '@bo/db';
import type { BuildTarget } from './model.ts';

const validateShape = compileValidator<RerunRequest>(createAjv(), RerunRequest);

/**
 * The builds of `kinds` over `from`..`to`: one per kind and month piece (bulk mode: a piece of
 * several days is replaced in one transaction and added to the month's roll-ups once; a year of
 * every kind is 72 jobs), a one-day piece as a day build.
 */
export const rangeTargets = (kinds: readonly AggregateKind[], from: string, to: string): BuildTarget[] =>
  monthPieces(from, to).flatMap(({ first, last }) =>
    kinds.map((kind): BuildTarget => (first === last ? { kind, day: first } : { kind, day: first, toDay: last })),
  );

export type RerunPlan = { ok: true; request: RerunRequest; targets: BuildTarget[] } | { ok: false; errors: FieldError[] };

/**
 * A rerun asked for by ops (queue-board form or CLI): the `RerunRequest` schema, then the rules
 * a schema cannot say (order and length of the range), then `rangeTargets` — inflow as whole days.
 */
export function planRerun(input: unknown, maxDays: number): RerunPlan {
  const shape = validateShape(input);
  if (!shape.ok) return shape;
  const { kind, from, to } = shape.value;
  const errors: FieldError[] = [];
  if (to < from) errors.push({ field: 'to', message: `must not be before from (${from})` });
  else if (daysBetween(from, to) + 1 > maxDays) errors.push({ field: 'to', message: `the range may span at most ${maxDays} days` });
  if (errors.length) return { ok: false, errors };
  const kinds = kind === 'all' ? AGGREGATE_KINDS : [kind];
  return { ok: true, request: shape.value, targets: rangeTargets(kinds, from, to) };
}
