import { AGGREGATE_KINDS, compileValidator, createAjv, RerunRequest, type FieldError } from '@bo/contracts';
import { daysBetween, monthPieces } from '@bo/db';
import type { BuildTarget } from './model.ts';

const validateShape = compileValidator<RerunRequest>(createAjv(), RerunRequest);

export type RerunPlan = { ok: true; request: RerunRequest; targets: BuildTarget[] } | { ok: false; errors: FieldError[] };

/**
 * A rerun asked for by ops (queue-board form or CLI): the `RerunRequest` schema, then the rules
 * a schema cannot say (order and length of the range), then one build per kind and month of
 * the range — inflow as whole days. A build of several days of a month (bulk mode) replaces them
 * in one transaction and adds them to the month's roll-ups once (a year of every kind: 72 jobs).
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
  const targets = monthPieces(from, to).flatMap(({ first, last }) =>
    kinds.map((k): BuildTarget => (first === last ? { kind: k, day: first } : { kind: k, day: first, toDay: last })),
  );
  return { ok: true, request: shape.value, targets };
}
