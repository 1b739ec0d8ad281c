import { AGGREGATE_KINDS, compileValidator, createAjv, RerunRequest, type FieldError } from '@bo/contracts';
import { daysBetween, eachDay } from '@bo/db';
import type { BuildTarget } from './model.ts';

const validateShape = compileValidator<RerunRequest>(createAjv(), RerunRequest);

export type RerunPlan = { ok: true; request: RerunRequest; targets: BuildTarget[] } | { ok: false; errors: FieldError[] };

/**
 * A rerun asked for by ops (queue-board form or CLI): the `RerunRequest` schema, then the rules
 * a schema cannot say (order and length of the range), then one build per (kind, day) —
 * inflow as whole days.
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
  return { ok: true, request: shape.value, targets: eachDay(from, to).flatMap((day) => kinds.map((k) => ({ kind: k, day }))) };
}
