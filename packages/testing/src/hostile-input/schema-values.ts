import fc from 'fast-check';
import type { TObject } from '@sinclair/typebox';
import { hostileText } from './hostile-text.ts';
import { protoObject, RAW_NUMBER } from './json-values.ts';

/** Days, months and date-times at the ends of what the formats accept, where date arithmetic and SQL literals break. */
const EXTREMES: Record<string, readonly string[]> = {
  date: [
    '0000-01-01',
    '0000-12-31',
    '0001-01-01',
    '0099-12-31',
    '1000-01-01',
    '1899-12-31',
    '1900-01-01',
    '1969-12-31',
    '2000-02-29',
    '2999-12-31',
    '3000-01-01',
    '9999-01-01',
    '9999-12-31',
  ],
  month: ['0000-01', '0000-12', '0001-01', '0099-12', '1899-12', '1900-01', '1969-12', '2999-12', '3000-01', '9999-01', '9999-12'],
  'local-date-time': [
    '0000-01-01 00:00:00',
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00+14:00',
    '9999-12-31 23:59:59',
    '9999-12-31T23:59:59.999999-12:00',
    '1970-01-01T00:00:00+0000',
  ],
};

/**
 * One extreme per calendar format, put in every field of that format at once: a range whose
 * both ends sit at year 0 or 9999 passes the range rules and reaches the date arithmetic
 * (previous period, next day) and the SQL, which one changed field alone rarely does.
 */
export function calendarExtremes(schemas: (TObject | undefined)[]): fc.Arbitrary<Record<string, string>> | undefined {
  const fields = schemas.flatMap((schema) =>
    Object.entries(schema?.properties ?? {}).flatMap(([name, prop]) => {
      const format = (prop as { format?: string }).format;
      return format && EXTREMES[format] ? [{ name, format }] : [];
    }),
  );
  if (!fields.length) return undefined;
  const formats = [...new Set(fields.map((f) => f.format))];
  return fc
    .tuple(...formats.map((f) => fc.constantFrom(...EXTREMES[f]!)))
    .map((values) => Object.fromEntries(fields.map((f) => [f.name, values[formats.indexOf(f.format)]!])));
}

export interface JsonSchemaLike {
  type?: string;
  anyOf?: { const?: unknown }[];
  /** A code parameter (CodeEnum in the contracts): a string of a fixed set. */
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  items?: JsonSchemaLike;
}

/** Short runs of SQL meta-characters (LIKE wildcards, quotes, escapes, comments) with a letter or digit among them. */
const sqlMetaText: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom("'", '"', '%', '_', '\\', '`', ';', '-', '#', '/', '*', '!', '=', 'a', '0', ' '),
  minLength: 1,
  maxLength: 12,
});

/** Short runs of Unicode that is odd to measure, compare, sort or encode. */
const oddUnicodeText: fc.Arbitrary<string> = fc.string({
  unit: fc.constantFrom(
    '\u202E',
    '\u200F',
    '\u200B',
    '\uFEFF',
    '\u0000',
    '\uD800',
    '\uDC00',
    '😀',
    '\u0301',
    '\u200D',
    '가',
    'ᄀ',
    'ß',
    'İ',
    '\u2028',
    'a',
  ),
  minLength: 1,
  maxLength: 12,
});

/** Hostile text cut or padded to the field's length bounds (in code points, as the validator counts). */
const fittedText = (schema: JsonSchemaLike): fc.Arbitrary<string> =>
  fc
    .oneof(
      { weight: 2, arbitrary: hostileText(schema.maxLength ?? 4000) },
      { weight: 1, arbitrary: sqlMetaText },
      { weight: 1, arbitrary: oddUnicodeText },
    )
    .map((t) => {
      const points = [...t].slice(0, schema.maxLength ?? Infinity);
      while (points.length < (schema.minLength ?? 0)) points.push('x');
      return points.join('');
    });

/**
 * A value the schema accepts but a careless domain, query builder or Excel writer may not:
 * SQL meta-characters, odd Unicode and long text within the length bounds, integers at their
 * bounds. These get past validation, so they are what reaches the SQL.
 */
function fittedValue(schema: JsonSchemaLike): fc.Arbitrary<unknown> | undefined {
  if (schema.type === 'string' && !schema.format && !schema.anyOf && !schema.enum) return fittedText(schema);
  if (schema.type === 'integer' || schema.type === 'number') {
    const lo = schema.minimum ?? -(2 ** 31);
    const hi = schema.maximum ?? (schema.format === 'int64' ? Number.MAX_SAFE_INTEGER : 2 ** 31 - 1);
    return fc.constantFrom(lo, lo + 1, hi - 1, hi, 0, 2 ** 31 - 1, 2 ** 53 - 1).filter((n) => n >= lo && n <= hi);
  }
  if (schema.type === 'array' && schema.items?.type === 'string') return fc.array(fittedText(schema.items), { minLength: 1, maxLength: 5 });
  return undefined;
}

/** For each field of the schemas with a fitted generator: set that one field to a fitted hostile value. */
export function fittedFields(schemas: (TObject | undefined)[]): fc.Arbitrary<[string, unknown]> | undefined {
  const fields = schemas.flatMap((schema) =>
    Object.entries(schema?.properties ?? {}).flatMap(([name, prop]) => {
      const arb = fittedValue(prop as JsonSchemaLike);
      return arb ? [arb.map((v): [string, unknown] => [name, v])] : [];
    }),
  );
  return fields.length ? fc.oneof(...fields) : undefined;
}

/**
 * Values the field's schema refuses for sure (the body validator does not coerce): another
 * JSON type, or a string/number just outside its bounds.
 */
export function invalidValueFor(schema: JsonSchemaLike): fc.Arbitrary<unknown> {
  const notString = fc.constantFrom<unknown>(0, -1, `${RAW_NUMBER}1e400`, true, null, [], {}, ['x'], { a: 'x' }, 2 ** 53 + 2);
  const notNumber = fc.constantFrom<unknown>('1', '', '1e400', true, null, [], {}, [1], { a: 1 }, 'NaN');
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.type === 'string' || schema.anyOf?.every((s) => typeof s.const === 'string')) {
    options.push(notString, protoObject());
    // Longer than maxLength in code points, as the validator counts.
    const max = schema.maxLength;
    if (max !== undefined)
      options.push(
        fc
          .tuple(
            hostileText(20).filter((t) => t.length > 0),
            fc.integer({ min: 1, max: 500 }),
          )
          .map(([t, n]) => t.repeat(max + n)),
      );
    if (schema.minLength) options.push(fc.constant(''));
    if (schema.anyOf || schema.enum) {
      const allowed = new Set(schema.enum ?? schema.anyOf!.map((s) => s.const));
      options.push(hostileText(200).filter((t) => !allowed.has(t)));
    }
  } else if (schema.type === 'integer' || schema.type === 'number') {
    options.push(notNumber, protoObject());
    if (schema.type === 'integer') options.push(fc.constantFrom(1.5, 0.1, 1e-7));
    if (schema.minimum !== undefined) options.push(fc.constantFrom(schema.minimum - 1, schema.minimum - 0.5, -1e308, -(2 ** 53) - 2));
    if (schema.maximum !== undefined) options.push(fc.constantFrom(schema.maximum + 1, 1e308));
    if (schema.format === 'int64') options.push(fc.constantFrom(2 ** 53, 2 ** 63, 1e308));
  } else if (schema.type === 'boolean') {
    options.push(fc.constantFrom<unknown>('true', 1, 0, null, [], {}));
  } else if (schema.type === 'array') {
    options.push(fc.constantFrom<unknown>('x', 1, true, null, {}), fc.constant([{ a: 1 }]));
  } else {
    throw new Error(`no value is known to be refused by ${JSON.stringify(schema)}`);
  }
  return fc.oneof(...options);
}
