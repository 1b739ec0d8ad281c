import { createHmac } from 'node:crypto';
import http from 'node:http';
import fc from 'fast-check';
import { ERRORS, type OperationSpec } from '@bo/contracts';
import type { TObject } from '@sinclair/typebox';

/**
 * Hostile requests for the property tests of every operation: a valid sample request of the
 * operation, mutated (one field wrong is what finds bugs), or a request built from nothing.
 * Query strings and bodies are raw text, so a parameter can repeat, a key can be
 * `__proto__[x]`, a percent sign can stand alone and a body can be anything at all; the
 * requests go out through `node:http` because supertest re-encodes the URL and adds a form
 * content type to text bodies.
 */

/** What a test knows to be a valid request of one operation. */
export interface SampleRequest {
  /** Query parameters (an array repeats the parameter). */
  query?: Record<string, string | string[]>;
  body?: Record<string, unknown>;
}

export interface HostileRequest {
  method: 'get' | 'post';
  /** The raw query text after `?` (empty: none). */
  query: string;
  headers: Record<string, string>;
  /** The raw body text; undefined sends none. */
  body?: string;
}

export interface HostileOptions {
  /**
   * Every request must fail validation (operations that write when the request is valid):
   * the body always carries at least one field the schema refuses, or is no JSON object.
   */
  invalidOnly?: boolean;
  /** Authorization header values to pick from; undefined in the list sends none. */
  authorization?: fc.Arbitrary<string | undefined>;
  /** Extra headers the operation reads, with hostile values (e.g. Idempotency-Key). */
  headers?: Record<string, fc.Arbitrary<string>>;
}

/** Keys whose value must never reach Object.prototype. */
export const POLLUTION_KEYS = ['polluted', 'isAdmin', 'entrNo', 'workGrpCd'] as const;

// ---------------------------------------------------------------------------------------------
// Text

const LONE_SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD83D', '\uDE00b'];

/** Strings a careless route, query builder, date parser or logger trips over. */
const HOSTILE_STRINGS: readonly string[] = [
  // empty and blank
  '', ' ', '  x  ', '\t', '\r\n', '\n',
  // numbers and number-likes
  '0', '-0', '-1', '1.5', '.5', '1e309', '-1e309', '1e-400', '9'.repeat(400), '9007199254740993', '-9007199254740993',
  '2147483648', '-2147483649', '18446744073709551616', 'NaN', 'Infinity', '-Infinity', '0x1F', '0b11', '1_000', ' 1', '1 ',
  '+1', '١٢٣',
  // words JavaScript and SQL read as values
  'true', 'false', 'null', 'undefined', 'NULL', '[]', '{}', '[object Object]', 'constructor', '__proto__', 'prototype',
  'toString', 'hasOwnProperty', 'valueOf',
  // dates, months and date-times that are not, or barely are
  '99999-99-99', '9999-99-99', '0000-00-00', '0000-01-01', '0001-01-01', '9999-12-31', '275760-09-13', '+002026-01-01',
  '2026-02-29', '2024-02-29', '2026-13-01', '2026-01-32', '2026-1-1', '2026/01/01', '20260101', '2026-01-01T00:00:00Z',
  '2026-01-01 25:61:61', '2026-01-01 23:59:59.999999', '1970-01-01', '1969-12-31', '2038-01-19', '2026-01-01\n',
  '0000-01', '0000-00', '9999-12', '2026-00', '2026-13', '99999-01', '-001-01', '2026-1',
  // SQL meta-characters
  "' OR 1=1 --", "' OR '1'='1", '" OR ""="', "'; DROP TABLE goods; --", "1' AND SLEEP(2) --", "') UNION SELECT 1,2,3 -- ",
  '%', '%%', '_', '__', '%_%', '\\', '\\\\', "\\'", '\\%', '\\_', '!', '!%', '`', '``', "'", "''", '"', ';', '--', '/*', '*/',
  '#', '*', '?', '??', ':name', '$1', '@@version', 'CHAR(65)', '0x41', '\u0000', 'a\u0000b',
  // Unicode that is odd to measure, compare, print or encode
  '\u202E\u202Dabc', '\u200F', '\u200B', '\uFEFF', '\uFFFF', '\uFFFE', '😀', '👨‍👩‍👧‍👦', '🏳️‍🌈', 'e\u0301', 'Z\u0351\u0362\u0338\u0322a',
  'Ａｂｃ', '나이키', '\u1102\u1161', 'ß', 'İ', 'ﬃ', '\u2028', '\u2029', '\u0085', '\u00A0', '\u3000', 'ǅ', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  ...LONE_SURROGATES,
  // markup and paths
  '<script>alert(1)</script>', '${7*7}', '{{7*7}}', '../../etc/passwd', '..\\..\\boot.ini', 'C:\\con', 'CON', 'a/b', 'x.xlsx',
  '=1+1', '@SUM(1)', '\u0007\u001b[31m',
];

/** One code unit or point, weighted towards the awkward ones (lone surrogate halves included). */
const oddChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom("'", '"', '%', '_', '\\', '`', ';', '-', '\u0000', ',', '\n', '&', '=', '+', '[', ']') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)) },
  { weight: 1, arbitrary: fc.constantFrom('\u0301', '\u200D', '\u202E', '\uFE0F', '\u0338') },
);

/** Any hostile text: a known trouble-maker, a random odd string, a long one, or a mixture. */
export const hostileText = (maxLong = 6000): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 3, arbitrary: fc.string({ unit: oddChar, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', '9', '%', "'", '가', '😀', 'e\u0301'), fc.integer({ min: Math.min(21, maxLong), max: maxLong })).map(([c, n]) => c.repeat(Math.ceil(n / c.length))) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...HOSTILE_STRINGS), fc.constantFrom(...HOSTILE_STRINGS)).map(([a, b]) => a + b) },
  );

// ---------------------------------------------------------------------------------------------
// Calendar extremes

/** Days, months and date-times at the ends of what the formats accept, where date arithmetic and SQL literals break. */
const EXTREMES: Record<string, readonly string[]> = {
  date: ['0000-01-01', '0000-12-31', '0001-01-01', '0099-12-31', '1000-01-01', '1899-12-31', '1900-01-01', '1969-12-31', '2000-02-29', '2999-12-31', '3000-01-01', '9999-01-01', '9999-12-31'],
  month: ['0000-01', '0000-12', '0001-01', '0099-12', '1899-12', '1900-01', '1969-12', '2999-12', '3000-01', '9999-01', '9999-12'],
  'local-date-time': ['0000-01-01 00:00:00', '0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31 23:59:59', '9999-12-31T23:59:59.999999-12:00', '1970-01-01T00:00:00+0000'],
};

/**
 * One extreme per calendar format, put in every field of that format at once: a range whose
 * both ends sit at year 0 or 9999 passes the range rules and reaches the date arithmetic
 * (previous period, next day) and the SQL, which one changed field alone rarely does.
 */
function calendarExtremes(schemas: (TObject | undefined)[]): fc.Arbitrary<Record<string, string>> | undefined {
  const fields = schemas.flatMap((schema) =>
    Object.entries(schema?.properties ?? {}).flatMap(([name, prop]) => {
      const format = (prop as { format?: string }).format;
      return format && EXTREMES[format] ? [{ name, format }] : [];
    }),
  );
  if (!fields.length) return undefined;
  const formats = [...new Set(fields.map((f) => f.format))];
  return fc.tuple(...formats.map((f) => fc.constantFrom(...EXTREMES[f]!))).map((values) =>
    Object.fromEntries(fields.map((f) => [f.name, values[formats.indexOf(f.format)]!])),
  );
}

// ---------------------------------------------------------------------------------------------
// Hostile values that still fit the schema

interface JsonSchemaLike {
  type?: string;
  anyOf?: { const?: unknown }[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
  items?: JsonSchemaLike;
}

/** Short runs of SQL meta-characters (LIKE wildcards, quotes, escapes, comments) with a letter or digit among them. */
const sqlMetaText: fc.Arbitrary<string> = fc.string({ unit: fc.constantFrom("'", '"', '%', '_', '\\', '`', ';', '-', '#', '/', '*', '!', '=', 'a', '0', ' '), minLength: 1, maxLength: 12 });

/** Short runs of Unicode that is odd to measure, compare, sort or encode. */
const oddUnicodeText: fc.Arbitrary<string> = fc.string({ unit: fc.constantFrom('\u202E', '\u200F', '\u200B', '\uFEFF', '\u0000', '\uD800', '\uDC00', '😀', '\u0301', '\u200D', '가', 'ᄀ', 'ß', 'İ', '\u2028', 'a'), minLength: 1, maxLength: 12 });

/** Hostile text cut or padded to the field's length bounds (in code points, as the validator counts). */
const fittedText = (schema: JsonSchemaLike): fc.Arbitrary<string> =>
  fc.oneof({ weight: 2, arbitrary: hostileText(schema.maxLength ?? 4000) }, { weight: 1, arbitrary: sqlMetaText }, { weight: 1, arbitrary: oddUnicodeText }).map((t) => {
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
  if (schema.type === 'string' && !schema.format && !schema.anyOf) return fittedText(schema);
  if (schema.type === 'integer' || schema.type === 'number') {
    const lo = schema.minimum ?? -(2 ** 31);
    const hi = schema.maximum ?? (schema.format === 'int64' ? Number.MAX_SAFE_INTEGER : 2 ** 31 - 1);
    return fc.constantFrom(lo, lo + 1, hi - 1, hi, 0, 2 ** 31 - 1, 2 ** 53 - 1).filter((n) => n >= lo && n <= hi);
  }
  if (schema.type === 'array' && schema.items?.type === 'string') return fc.array(fittedText(schema.items), { minLength: 1, maxLength: 5 });
  return undefined;
}

/** For each field of the schemas with a fitted generator: set that one field to a fitted hostile value. */
function fittedFields(schemas: (TObject | undefined)[]): fc.Arbitrary<[string, unknown]> | undefined {
  const fields = schemas.flatMap((schema) =>
    Object.entries(schema?.properties ?? {}).flatMap(([name, prop]) => {
      const arb = fittedValue(prop as JsonSchemaLike);
      return arb ? [arb.map((v): [string, unknown] => [name, v])] : [];
    }),
  );
  return fields.length ? fc.oneof(...fields) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Query strings

/**
 * Percent-encode as a browser would, but lone surrogate halves too (as their WTF-8 bytes,
 * which are not UTF-8): encodeURIComponent throws on them.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    const u = ch.charCodeAt(0);
    if (ch.length === 1 && u >= 0xd800 && u <= 0xdfff) {
      out += [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(ch);
    }
  }
  return out;
}

/** One `key=value` of the query text, already encoded; a null value sends the key alone. */
type QueryPair = readonly [key: string, value: string | null];

/** Raw fragments that only make sense unencoded (every byte is visible ASCII, as HTTP requires). */
const RAW_FRAGMENTS = [
  '', '&', '=', '==', '=x', 'x', '%', '%zz', '%0', '%00=%00', '%ED%A0%80=%ED%A0%80', '%C0%AF=%C0%AF', '%FF%FE', '+=+', 'a=b=c',
  '[]=1', '[=1', ']=1', ';x=1', '%26=%3D', '"=\'', '<>={}', '|=^', '\\=\\', '#fragment=1', '?=?',
];

/** Query pairs that try to reach Object.prototype through a query parser. */
const PROTO_PAIRS: readonly QueryPair[] = [
  ['__proto__[polluted]', 'yes'], ['__proto__.polluted', 'yes'], ['__proto__', 'yes'], ['__proto__', '[]'],
  ['constructor[prototype][polluted]', 'yes'], ['constructor.prototype.polluted', 'yes'], ['constructor', 'x'],
  ['prototype[polluted]', 'yes'], ['__proto__[isAdmin]', 'true'], ['__proto__[entrNo]', 'E1'], ['__proto__[workGrpCd]', 'BO_ADMIN'],
  ['%5F%5Fproto%5F%5F[polluted]', 'yes'], ['__proto__%5Bpolluted%5D', 'yes'], ['hasOwnProperty', 'x'], ['toString', 'x'],
  ['valueOf', '1'], ['__defineGetter__', 'x'], ['__lookupGetter__', 'x'], ['isPrototypeOf', 'x'],
];

const queryKeysOf = (op: OperationSpec, sample: SampleRequest): string[] => [
  ...new Set([...Object.keys(op.query?.properties ?? {}), ...Object.keys(sample.query ?? {}), ...Object.keys(op.body?.properties ?? {})]),
];

type QueryMutation = (pairs: QueryPair[]) => QueryPair[];

function queryMutation(
  keys: string[],
  extremes: fc.Arbitrary<Record<string, string>> | undefined,
  fitted: fc.Arbitrary<[string, unknown]> | undefined,
): fc.Arbitrary<QueryMutation> {
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('x');
  const value = hostileText(4000).map(percentEncode);
  const calendar: fc.WeightedArbitrary<QueryMutation>[] = extremes
    ? [{ weight: 2, arbitrary: extremes.map((set): QueryMutation => (ps) => [...ps.filter(([k]) => !Object.hasOwn(set, k)), ...Object.entries(set).map(([k, v]): QueryPair => [k, percentEncode(v)])]) }]
    : [];
  const fits: fc.WeightedArbitrary<QueryMutation>[] = fitted
    ? [{ weight: 6, arbitrary: fitted.map(([k, v]): QueryMutation => (ps) => [...ps.filter(([pk]) => pk !== k), ...(Array.isArray(v) ? v : [v]).map((x): QueryPair => [k, percentEncode(String(x))])]) }]
    : [];
  return fc.oneof(
    ...calendar,
    ...fits,
    // one parameter gets a hostile value (the most useful mutation)
    { weight: 6, arbitrary: fc.tuple(key, value).map(([k, v]): QueryMutation => (ps) => [...ps.filter(([pk]) => pk !== k), [k, v]]) },
    { weight: 2, arbitrary: key.map((k): QueryMutation => (ps) => ps.filter(([pk]) => pk !== k)) },
    // the parameter again, so the parser hands over an array
    { weight: 3, arbitrary: fc.tuple(key, fc.array(value, { minLength: 1, maxLength: 3 })).map(([k, vs]): QueryMutation => (ps) => [...ps, ...vs.map((v): QueryPair => [k, v])]) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(key, fc.constantFrom('[]', '[0]', '[1000000]', '[a]', '[a][b]', '%5B%5D', '.x', '[__proto__]'), value)
        .map(([k, suffix, v]): QueryMutation => (ps) => [...ps, [`${k}${suffix}`, v]]),
    },
    { weight: 2, arbitrary: fc.constantFrom(...PROTO_PAIRS).map((p): QueryMutation => (ps) => [...ps, p]) },
    { weight: 1, arbitrary: fc.tuple(hostileText(200).map(percentEncode), value).map(([k, v]): QueryMutation => (ps) => [...ps, [k, v]]) },
    { weight: 1, arbitrary: key.map((k): QueryMutation => (ps) => [...ps, [k, null]]) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_FRAGMENTS).map((f): QueryMutation => (ps) => [...ps, [f, null]]) },
  );
}

const sampleQueryPairs = (sample: SampleRequest): QueryPair[] =>
  Object.entries(sample.query ?? {}).flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x): QueryPair => [k, percentEncode(x)]));

/**
 * Node refuses a request line plus headers beyond 16 KB with 431 before any app code runs
 * (nginx in front answers 414 earlier still): keep the query text, the long Authorization
 * and the other header values together below it.
 */
const MAX_QUERY_TEXT = 8_000;

const queryText = (pairs: QueryPair[]): string => {
  const text = pairs.map(([k, v]) => (v === null ? k : `${k}=${v}`)).join('&');
  return text.length <= MAX_QUERY_TEXT ? text : text.slice(0, MAX_QUERY_TEXT);
};

/** Hostile query text for one operation: its valid sample mutated one to four times, or pairs from nothing. */
export function hostileQuery(op: OperationSpec, sample: SampleRequest): fc.Arbitrary<string> {
  const keys = queryKeysOf(op, sample);
  const mutation = queryMutation(keys, calendarExtremes([op.query, op.body]), fittedFields([op.query]));
  const mutated = fc
    .array(mutation, { minLength: 1, maxLength: 4 })
    .map((ms) => queryText(ms.reduce((ps, m) => m(ps), sampleQueryPairs(sample))));
  const fromNothing = fc.array(mutation, { maxLength: 6 }).map((ms) => queryText(ms.reduce((ps, m) => m(ps), [] as QueryPair[])));
  return fc.oneof({ weight: 4, arbitrary: mutated }, { weight: 1, arbitrary: fromNothing });
}

// ---------------------------------------------------------------------------------------------
// JSON bodies

/**
 * A number token JSON.stringify cannot write (1e400 parses to Infinity, a 30-digit integer
 * loses precision): kept as a marker string and spliced into the text afterwards.
 */
const RAW_NUMBER = '\u0001raw-number:';
const RAW_NUMBERS = ['1e400', '-1e400', '1E-400', '-0', '123456789012345678901234567890', '0.1e1', '9007199254740993', '1.0', '2e0'];

const deep = (depth: number, leaf: unknown, asArray: boolean): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
};

/** An own `__proto__` key (an object literal would set the prototype instead). */
const withOwnKey = (target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
};

const protoObject = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.constantFrom(
    () => withOwnKey({}, '__proto__', { polluted: 'yes', isAdmin: true }),
    () => ({ constructor: { prototype: { polluted: 'yes' } } }),
    () => withOwnKey({ a: 1 }, '__proto__', { entrNo: 'E1', workGrpCd: 'BO_ADMIN' }),
    () => ({ prototype: { polluted: 'yes' } }),
  ).map((make) => make());

/** Any JSON value a field should not hold, weighted towards the dangerous ones. */
export const hostileJsonValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 5, arbitrary: hostileText(4000) },
    { weight: 3, arbitrary: fc.constantFrom(0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 31, -(2 ** 31) - 1, 5e-324, 1e21, 0.1) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => `${RAW_NUMBER}${t}`) },
    { weight: 2, arbitrary: fc.constantFrom(true, false, null) },
    { weight: 2, arbitrary: fc.array(fc.oneof(hostileText(200), fc.integer(), fc.constant(null)), { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileText(50), hostileText(200), { maxKeys: 4 }) },
    { weight: 1, arbitrary: protoObject() },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([d, arr]) => deep(d, 'x', arr)) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1000, max: 60_000 }), fc.constantFrom<unknown>(0, 'x', null, {})).map(([n, v]) => Array(n).fill(v)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );

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
    if (max !== undefined) options.push(fc.tuple(hostileText(20).filter((t) => t.length > 0), fc.integer({ min: 1, max: 500 })).map(([t, n]) => t.repeat(max + n)));
    if (schema.minLength) options.push(fc.constant(''));
    if (schema.anyOf) {
      const allowed = new Set(schema.anyOf.map((s) => s.const));
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

type Body = Record<string, unknown>;
type BodyMutation = (body: Body) => Body;

const cloneBody = (body: Body): Body => {
  const out: Body = {};
  for (const [k, v] of Object.entries(body)) withOwnKey(out, k, v);
  return out;
};

function bodyMutation(
  keys: string[],
  extremes: fc.Arbitrary<Record<string, string>> | undefined,
  fitted: fc.Arbitrary<[string, unknown]> | undefined,
): fc.Arbitrary<BodyMutation> {
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('x');
  const calendar: fc.WeightedArbitrary<BodyMutation>[] = extremes
    ? [{ weight: 2, arbitrary: extremes.map((set): BodyMutation => (b) => Object.entries(set).reduce((out, [k, v]) => withOwnKey(out, k, v), cloneBody(b))) }]
    : [];
  const fits: fc.WeightedArbitrary<BodyMutation>[] = fitted ? [{ weight: 6, arbitrary: fitted.map(([k, v]): BodyMutation => (b) => withOwnKey(cloneBody(b), k, v)) }] : [];
  return fc.oneof(
    ...calendar,
    ...fits,
    { weight: 6, arbitrary: fc.tuple(key, hostileJsonValue()).map(([k, v]): BodyMutation => (b) => withOwnKey(cloneBody(b), k, v)) },
    {
      weight: 2,
      arbitrary: key.map((k): BodyMutation => (b) => {
        const out = cloneBody(b);
        delete out[k];
        return out;
      }),
    },
    { weight: 2, arbitrary: fc.tuple(hostileText(100), hostileJsonValue()).map(([k, v]): BodyMutation => (b) => withOwnKey(cloneBody(b), k, v)) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', ...POLLUTION_KEYS), protoObject())
        .map(([k, v]): BodyMutation => (b) => withOwnKey(cloneBody(b), k, v)),
    },
    { weight: 1, arbitrary: fc.tuple(key, protoObject()).map(([k, v]): BodyMutation => (b) => withOwnKey(cloneBody(b), k, v)) },
  );
}

/** A mutation that makes the body invalid whatever else was done to it: one field refused or a required one missing. */
function invalidatingMutation(schema: TObject): fc.Arbitrary<BodyMutation> {
  const fields = Object.entries(schema.properties).filter(([, s]) => {
    const t = (s as JsonSchemaLike).type;
    return t === 'string' || t === 'integer' || t === 'number' || t === 'boolean' || t === 'array' || (s as JsonSchemaLike).anyOf;
  });
  const required = schema.required ?? [];
  const options: fc.Arbitrary<BodyMutation>[] = fields.map(([k, s]) =>
    invalidValueFor(s as JsonSchemaLike).map((v): BodyMutation => (b) => withOwnKey(cloneBody(b), k, v)),
  );
  if (required.length)
    options.push(
      fc.constantFrom(...required).map((k): BodyMutation => (b) => {
        const out = cloneBody(b);
        delete out[k];
        return out;
      }),
    );
  return fc.oneof(...options);
}

/** JSON text with the raw number markers replaced by their tokens. */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(/"\\u0001raw-number:([^"]*)"/g, '$1');
}

/** Text that is not one JSON object. */
const NOT_JSON = [
  '', ' ', '{', '}', '{"a":', '{"a" 1}', "{'a':1}", '{a:1}', '{"a":1,}', '[1,]', 'NaN', 'undefined', '\uFEFF{}', '{}{}', '{"a":1}garbage',
  'a=b&c=d', '<xml/>', '\u0000', '{"\uD800":1}', '"\uD800"', '{"a":"\\uD800"}', '{"a":"\\u00"}', '[]', '"text"', '1', 'null', 'true',
  '{"__proto__":{"polluted":"yes"}}', '{"constructor":{"prototype":{"polluted":"yes"}}}', '[' + '['.repeat(10_000) + ']'.repeat(10_001),
];

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8'];
const OTHER_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json-seq',
  'application/merge-patch+json', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/json; charset=x-hostile',
  'application/*', '*/*', 'json', ';', 'application/json, text/plain',
];
const CONTENT_ENCODINGS = ['gzip', 'deflate', 'br', 'identity', 'x-unknown', 'gzip, gzip', 'compress'];

interface BodyPart {
  text: string;
  contentType?: string;
  contentEncoding?: string;
}

/** Hostile body text and content type for one operation. */
export function hostileBody(op: OperationSpec, sample: SampleRequest, options: HostileOptions = {}): fc.Arbitrary<BodyPart | undefined> {
  const schema = op.body;
  const keys = [...new Set([...Object.keys(schema?.properties ?? {}), ...Object.keys(sample.body ?? {})])];
  const start = sample.body ?? {};
  const anyType = fc.option(fc.constantFrom(...JSON_TYPES, ...OTHER_TYPES), { nil: undefined, freq: 8 });
  const encoding = fc.option(fc.constantFrom(...CONTENT_ENCODINGS), { nil: undefined, freq: 12 });
  const jsonType = fc.constantFrom(...JSON_TYPES);

  const mutations = fc.array(bodyMutation(keys, calendarExtremes([schema]), fittedFields([schema])), { minLength: options.invalidOnly ? 0 : 1, maxLength: 4 });
  const mutated = options.invalidOnly && schema
    ? fc.tuple(mutations, invalidatingMutation(schema)).map(([ms, last]) => [...ms, last].reduce((b, m) => m(b), start))
    : mutations.map((ms) => ms.reduce((b, m) => m(b), start));
  const asJson = fc.record({ text: mutated.map(jsonText), contentType: jsonType, contentEncoding: encoding });
  const withAnyType = fc.record({ text: mutated.map(jsonText), contentType: anyType, contentEncoding: encoding });
  const notAnObject = fc.record({
    text: fc.oneof(fc.constantFrom(...NOT_JSON), fc.jsonValue({ maxDepth: 2 }).filter((v) => v === null || typeof v !== 'object' || Array.isArray(v)).map(jsonText)),
    contentType: anyType,
    contentEncoding: encoding,
  });
  // Some duplicate keys in the text: the parser keeps the last, so only reads may get them.
  const duplicated = fc
    .tuple(mutated, fc.constantFrom(...(keys.length ? keys : ['x'])), hostileJsonValue())
    .map(([b, k, v]) => ({ text: jsonText(b).replace(/}$/, `${Object.keys(b).length ? ',' : ''}${JSON.stringify(k)}:${jsonText(v)}}`), contentType: 'application/json' }));
  const tooLarge = fc.constantFrom('x', '😀').map((c) => ({ text: JSON.stringify({ ...start, pad: c.repeat(1_100_000 / c.length) }), contentType: 'application/json' }));

  const parts: fc.WeightedArbitrary<BodyPart | undefined>[] = [
    { weight: 10, arbitrary: asJson },
    { weight: 2, arbitrary: withAnyType },
    { weight: 2, arbitrary: notAnObject },
    { weight: 1, arbitrary: tooLarge },
  ];
  if (!options.invalidOnly) parts.push({ weight: 2, arbitrary: duplicated }, { weight: 1, arbitrary: fc.constant(undefined) });
  // An operation without a body still parses one; one request in four brings it.
  if (!schema) return fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.oneof(...parts) });
  return fc.oneof(...parts);
}

// ---------------------------------------------------------------------------------------------
// Headers

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An HS256 token signed by hand: jsonwebtoken refuses to sign claims of the wrong type, which is the point here. */
const tokenOf = (claims: Record<string, unknown>, secret: string): string => {
  const unsigned = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
};

/**
 * Authorization headers an attacker or a broken client sends: none, malformed, unsigned,
 * expired, and correctly signed ones whose claims have the wrong types or hostile values
 * (claims reach SQL as user ids and supplier numbers).
 */
export function hostileAuthorization(secret: string): fc.Arbitrary<string | undefined> {
  const exp = () => Math.floor(Date.now() / 1000) + 3600;
  return fc.oneof(
    fc.constantFrom<string | undefined>(
      undefined, '', 'Bearer', 'Bearer ', 'bearer x', 'Basic Zm9vOmJhcg==', `Bearer ${'a'.repeat(3000)}`, 'Bearer a.b.c', 'Bearer ...',
      `Bearer ${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: 'admin01', workGrpCd: 'BO_ADMIN', exp: 9999999999 })}.`,
      `Bearer ${b64url({ alg: 'HS256' })}.${b64url({ sub: 'admin01', workGrpCd: 'BO_ADMIN' })}.${'A'.repeat(43)}`,
    ),
    fc
      .constantFrom<Record<string, unknown>>(
        { sub: 'admin01', workGrpCd: 'BO_ADMIN', exp: 'never' },
        { sub: 42, workGrpCd: 'BO_ADMIN' },
        { sub: { a: 1 }, workGrpCd: ['BO_ADMIN'] },
        { sub: '', workGrpCd: 'BO_ADMIN' },
        { sub: 'u1', workGrpCd: 'BO_MD' },
        { sub: "' OR 1=1 --", workGrpCd: 'BO_MD' },
        { sub: 'x'.repeat(500), workGrpCd: 'BO_ADMIN' },
        { sub: 'e1', workGrpCd: 'BO_ENTR', entrNo: "' OR '1'='1" },
        { sub: 'e1', workGrpCd: 'BO_ENTR', entrNo: 12345 },
        { sub: 'e1', workGrpCd: 'BO_ENTR', entrNo: 'E'.repeat(300) },
        { sub: '\u0000\uD800', workGrpCd: '\u202E' },
        withOwnKey({ sub: 'admin01', workGrpCd: 'BO_MD' }, '__proto__', { workGrpCd: 'BO_ADMIN', polluted: 'yes' }),
      )
      // Spreading keeps an own `__proto__` key as an own key.
      .map((claims) => `Bearer ${tokenOf({ exp: exp(), ...claims }, secret)}`),
    fc.constant(`Bearer ${tokenOf({ sub: 'admin01', workGrpCd: 'BO_ADMIN', exp: 1 }, secret)}`),
    fc.constant(`Bearer ${tokenOf({ sub: 'admin01', workGrpCd: 'BO_ADMIN', exp: exp() }, 'another-secret-0123456789-abcdefghij')}`),
  );
}

/** A header value with hostile content, limited to what HTTP allows in a header (visible ASCII, space, tab). */
export const hostileHeaderValue = (): fc.Arbitrary<string> =>
  fc.oneof(
    hostileText(1000).map((t) => t.replace(/[^\t\x20-\x7e]/g, '')),
    fc.constantFrom('"', '"unterminated', '""', ':YWJj:', '?1', '"a"; b=1', 'a, b', '"a", "b"', ' x ', 'x'.repeat(201), '*'),
  );

// ---------------------------------------------------------------------------------------------
// Whole requests

/** A hostile request for one operation: its query and body from the sample, plus hostile headers. */
export function hostileRequest(op: OperationSpec, sample: SampleRequest, options: HostileOptions = {}): fc.Arbitrary<HostileRequest> {
  const extraHeaders = fc.record(
    // Each in one request of four, so the operation behind a header check still gets most of them.
    Object.fromEntries(Object.entries(options.headers ?? {}).map(([name, arb]) => [name, fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb })])),
  );
  return fc
    .record({
      query: op.query || op.method === 'get' ? hostileQuery(op, sample) : fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileQuery(op, sample) }),
      body: hostileBody(op, sample, options),
      authorization: options.authorization ?? fc.constant(undefined),
      requestId: fc.option(hostileHeaderValue(), { nil: undefined, freq: 6 }),
      extra: extraHeaders,
    })
    .map(({ query, body, authorization, requestId, extra }) => {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization.replace(/[^\t\x20-\x7e]/g, '');
      if (requestId !== undefined) headers['x-request-id'] = requestId;
      for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value as string;
      if (body?.contentType !== undefined) headers['content-type'] = body.contentType;
      if (body?.contentEncoding !== undefined) headers['content-encoding'] = body.contentEncoding;
      return { method: op.method, query, headers, ...(body ? { body: body.text } : {}) };
    });
}

// ---------------------------------------------------------------------------------------------
// Sending and judging

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as bytes read as UTF-8 (an Excel file reads as noise, never as a stack). */
  text: string;
}

/**
 * Send the request as written: the query text byte for byte, the body with exactly the headers
 * given. No answer within `hangMs` fails (a hang detector, far above any real answer: an input
 * that sends a loop over millions of days blocks the event loop for minutes).
 */
export function sendRaw(baseUrl: string, path: string, req: HostileRequest, hangMs = 60_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const payload = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = http.request(
      {
        host: url.hostname,
        port: url.port,
        agent: false,
        method: req.method.toUpperCase(),
        path: req.query ? `${path}?${req.query}` : path,
        headers: { ...req.headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // The server may answer (413, 415) and close before reading a large body.
    r.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    r.on('close', () => (answered ? undefined : reject(new Error('the connection closed without an answer'))));
    r.setTimeout(hangMs, () => r.destroy(new Error(`no answer within ${hangMs / 1000} s`)));
    r.end(payload);
  });
}

/** What a stack trace, a source path or a driver error looks like in an answer. */
const LEAKS: [string, RegExp][] = [
  ['a stack frame', /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/|\/|node:|[A-Za-z]:\\)[^\s)]*:\d+:\d+/],
  ['a source path', /(?:\/work\/|\/home\/|\/usr\/|\/app\/|node_modules|node:internal|file:\/\/\/|\.(?:ts|js|mjs|cjs):\d+)/],
  ['a JavaScript error name', /\b(?:Type|Reference|Syntax|Range|URI|Eval|Aggregate|Internal)?Error: /],
  ['a database error', /\bER_[A-Z_]{3,}\b|sqlMessage|sqlState|SQL syntax|errno|Unknown column|knex|mysql2?\b/i],
];

/** Codes of the catalogue with their conventional status, written out here rather than read back from the app. */
const CATALOGUE = new Map<string, number>(Object.values(ERRORS).map((e) => [e.code, e.httpStatus]));

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
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [...problems, `failure body is not an object: ${answer.text.slice(0, 200)}`];
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
  else if (CATALOGUE.get(code) !== httpStatus) problems.push(`failure code ${code} carries httpStatus ${httpStatus}, the catalogue says ${CATALOGUE.get(code)}`);
  if (httpStatus >= 500) problems.push(`declared failure with httpStatus ${httpStatus} (code ${code})`);
  if (answer.status !== 900 && answer.status !== httpStatus) problems.push(`HTTP status ${answer.status} but httpStatus ${httpStatus} in the body`);
  if ('errors' in body) {
    const errors = body.errors;
    if (!Array.isArray(errors) || errors.some((e) => typeof e?.field !== 'string' || typeof e?.message !== 'string'))
      problems.push(`failure errors are not [{field, message}]: ${JSON.stringify(errors).slice(0, 300)}`);
  }
  if ('error' in body || 'payload' in body) {
    if (!op.envelope) problems.push('a failure envelope from an operation without one');
    if (body.error !== true || body.payload !== null || !Array.isArray(body.errors)) problems.push(`failure envelope is not {error: true, payload: null, errors: []}: ${answer.text.slice(0, 300)}`);
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

// ---------------------------------------------------------------------------------------------
// Prototype pollution

const PROTOTYPES: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

export type PrototypeSnapshot = Map<string, Map<PropertyKey, unknown>>;

/** The own properties (and their values or accessors) of the built-in prototypes a parser could reach. */
export function prototypeSnapshot(): PrototypeSnapshot {
  return new Map(
    PROTOTYPES.map(([name, proto]) => [
      name,
      new Map(Reflect.ownKeys(proto).map((k) => {
        const d = Object.getOwnPropertyDescriptor(proto, k)!;
        return [k, d.get ?? d.set ?? d.value];
      })),
    ]),
  );
}

/** What changed on the built-in prototypes since the snapshot (empty: nothing). */
export function prototypeChanges(before: PrototypeSnapshot): string[] {
  const now = prototypeSnapshot();
  const changes: string[] = [];
  for (const [name, props] of now) {
    const old = before.get(name)!;
    for (const [k, v] of props) if (!old.has(k) || old.get(k) !== v) changes.push(`${name}.${String(k)} ${old.has(k) ? 'replaced' : 'added'}`);
    for (const k of old.keys()) if (!props.has(k)) changes.push(`${name}.${String(k)} removed`);
  }
  const probe = {} as Record<string, unknown>;
  for (const k of POLLUTION_KEYS) if (probe[k] !== undefined) changes.push(`({}).${k} is ${String(probe[k])}`);
  return changes;
}

// ---------------------------------------------------------------------------------------------
// Runs

/** Runs per operation and seed: fixed so CI is repeatable, FC_RUNS / FC_SEED to explore further. */
export function hostileRunSettings(defaultRuns: number): { numRuns: number; seed: number } {
  const runs = Number(process.env.FC_RUNS);
  const seed = Number(process.env.FC_SEED);
  return { numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns, seed: Number.isInteger(seed) ? seed : 20260510 };
}
