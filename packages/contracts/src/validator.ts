import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';

// ajv and ajv-formats are CommonJS with a default export; under NodeNext the class is `.default`.
const Ajv = AjvModule.default;
const addFormats = addFormatsModule.default;
export type Ajv = InstanceType<typeof Ajv>;

const LOCAL_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,6})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)?)?$/;

/** True for a real calendar day: `Date.parse` rolls 2026-02-30 over to March instead of refusing it. */
const isCalendarDay = (year: number, month: number, day: number): boolean =>
  month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();

const isLocalDateTime = (s: string): boolean => {
  const m = LOCAL_DATE_TIME.exec(s);
  return !!m && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]));
};

/** True for a real calendar month `yyyy-MM`. */
export const isMonth = (s: string): boolean => /^\d{4}-(0[1-9]|1[0-2])$/.test(s);

/**
 * The one ajv set-up used for every contract: request validation, config validation and the
 * dashboard rerun form. `coerce` turns query-string text into the schema's types.
 */
export function createAjv(options: { coerce?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: false,
    // JSON.parse turns `1e400` into Infinity: refuse NaN and ±Infinity as numbers everywhere, not per
    // field. (Coerced query text is not re-checked by ajv; query numbers carry int32/int64 formats.)
    strictNumbers: true,
    useDefaults: true,
    coerceTypes: options.coerce ? 'array' : false,
  });
  addFormats(ajv, ['date', 'date-time', 'uri']);
  ajv.addFormat('month', isMonth);
  ajv.addFormat('local-date-time', isLocalDateTime);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  return ajv;
}

export interface FieldError {
  field: string;
  message: string;
}

/** ajv errors as `{field, message}` with the field named the way the client sent it. */
export function toFieldErrors(
  errors: readonly { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }[],
): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errors) {
    let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let message = e.message ?? 'is not valid';
    if (e.keyword === 'required') {
      field = [field, String(e.params.missingProperty)].filter(Boolean).join('.');
      message = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      field = [field, String(e.params.additionalProperty)].filter(Boolean).join('.');
      message = 'is not a known field';
    } else if (e.keyword === 'const') {
      continue; // folded into the anyOf message of the literal union
    } else if (e.keyword === 'anyOf') {
      const allowed = errors
        .filter((x) => x.keyword === 'const' && x.instancePath === e.instancePath)
        .map((x) => JSON.stringify(x.params.allowedValue));
      message = allowed.length ? `must be one of ${allowed.join(', ')}` : 'is not valid';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    } else if (e.keyword === 'format') {
      message = `must be a valid ${String(e.params.format)}`;
    }
    const key = `${field}|${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ field: field || '(body)', message });
    }
  }
  return out;
}

/** Compile once, validate many; returns field errors or the (coerced, defaulted) value. */
export function compileValidator<T>(ajv: Ajv, schema: TSchema) {
  const validate = ajv.compile(schema);
  return (value: unknown): { ok: true; value: T } | { ok: false; errors: FieldError[] } => {
    if (validate(value)) return { ok: true, value: value as T };
    return { ok: false, errors: toFieldErrors(validate.errors ?? []) };
  };
}
