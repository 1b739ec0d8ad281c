import { ERRORS, type OperationSpec } from '@bo/contracts';
import type { RawAnswer } from './send-raw.ts';

/** What a stack trace, a source path or a driver error looks like in an answer. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|\/|node:|[A-Za-z]:\\)[^\s)]*:\d+:\d+/],
  ['a source path', /(?:\/work\/|\/home\/|\/usr\/|\/app\/|node_modules|node:internal|file:\/\/\/|\.(?:ts|js|mjs|cjs):\d+)/],
  ['a JavaScript error name', /\b(?:Type|Reference|Syntax|Range|URI|Eval|Aggregate|Internal)?Error: /],
  ['a database error', /\bER_[A-Z_]{3,}\b|sqlMessage|sqlState|SQL syntax|errno|Unknown column|knex|mysql2?\b/i],
];

/** Codes of the catalogue with their conventional status, written out here rather than read back from the app. */
const CATALOGUE = new Map<string, number>(Object.values(ERRORS).map((e) => [e.code, e.httpStatus]));

/** One entry of a failure's `errors`: `{field, message}`, both strings. */
function isFieldError(e: unknown): boolean {
  const entry = e as { field?: unknown; message?: unknown } | null | undefined;
  return typeof entry?.field === 'string' && typeof entry?.message === 'string';
}

/**
 * The properties every answer to a hostile request must have; returns what is wrong (empty: fine).
 * Never a 5xx (a declared failure is HTTP 900, whose body status must be below 500 too), never
 * a stack trace or driver message, and every failure in the ErrorCode shape (or the result
 * envelope for envelope operations) with a catalogue code and its own conventional status.
 */
export function answerProblems(op: OperationSpec, answer: RawAnswer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500 && answer.status < 600) problems.push(`HTTP status ${answer.status}`);
  for (const [what, pattern] of LEAKS) {
    const m = pattern.exec(answer.text);
    if (m) problems.push(`the body shows ${what}: …${answer.text.slice(Math.max(0, m.index - 60), m.index + 80)}…`);
  }
  if (answer.status >= 200 && answer.status < 300) return problems;

  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    problems.push(`status ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`);
    return problems;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return [...problems, `failure body is not an object: ${answer.text.slice(0, 200)}`];
  const expectType = (field: string, type: string) => {
    if (typeof body[field] !== type) problems.push(`failure body field ${field} is not a ${type}: ${answer.text.slice(0, 300)}`);
  };
  expectType('code', 'string');
  expectType('message', 'string');
  expectType('httpStatus', 'number');
  if (body.isProcess !== false) problems.push(`failure body isProcess is not false: ${answer.text.slice(0, 300)}`);
  const code = String(body.code);
  const httpStatus = Number(body.httpStatus);
  if (!CATALOGUE.has(code)) problems.push(`failure code ${code} is not in the catalogue`);
  else if (CATALOGUE.get(code) !== httpStatus)
    problems.push(`failure code ${code} carries httpStatus ${httpStatus}, the catalogue says ${CATALOGUE.get(code)}`);
  if (httpStatus >= 500) problems.push(`declared failure with httpStatus ${httpStatus} (code ${code})`);
  if (answer.status !== 900 && answer.status !== httpStatus)
    problems.push(`HTTP status ${answer.status} but httpStatus ${httpStatus} in the body`);
  if ('errors' in body) {
    const errors = body.errors;
    if (!Array.isArray(errors) || !errors.every(isFieldError))
      problems.push(`failure errors are not [{field, message}]: ${JSON.stringify(errors).slice(0, 300)}`);
  }
  if ('error' in body || 'payload' in body) {
    if (!op.envelope) problems.push('a failure envelope from an operation without one');
    if (body.error !== true || body.payload !== null || !Array.isArray(body.errors))
      problems.push(`failure envelope is not {error: true, payload: null, errors: []}: ${answer.text.slice(0, 300)}`);
  }
  return problems;
}

/** `status` or `status/code` of an answer, for a tally of what the hostile requests met. */
export function answerOutcome(answer: RawAnswer): string {
  if (answer.status < 300) return String(answer.status);
  try {
    return `${answer.status}/${String((JSON.parse(answer.text) as { code?: unknown }).code)}`;
  } catch {
    return String(answer.status);
  }
}
