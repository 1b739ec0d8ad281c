import fc from 'fast-check';
import type { OperationSpec } from '@bo/contracts';
import { hostileText } from './hostile-text.ts';
import type { SampleRequest } from './sample-request.ts';
import { calendarExtremes, fittedFields } from './schema-values.ts';

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
  '',
  '&',
  '=',
  '==',
  '=x',
  'x',
  '%',
  '%zz',
  '%0',
  '%00=%00',
  '%ED%A0%80=%ED%A0%80',
  '%C0%AF=%C0%AF',
  '%FF%FE',
  '+=+',
  'a=b=c',
  '[]=1',
  '[=1',
  ']=1',
  ';x=1',
  '%26=%3D',
  '"=\'',
  '<>={}',
  '|=^',
  '\\=\\',
  '#fragment=1',
  '?=?',
];

/** Query pairs that try to reach Object.prototype through a query parser. */
const PROTO_PAIRS: readonly QueryPair[] = [
  ['__proto__[polluted]', 'yes'],
  ['__proto__.polluted', 'yes'],
  ['__proto__', 'yes'],
  ['__proto__', '[]'],
  ['constructor[prototype][polluted]', 'yes'],
  ['constructor.prototype.polluted', 'yes'],
  ['constructor', 'x'],
  ['prototype[polluted]', 'yes'],
  ['__proto__[isAdmin]', 'true'],
  ['__proto__[entrNo]', 'E1'],
  ['__proto__[workGrpCd]', 'BO_ADMIN'],
  ['%5F%5Fproto%5F%5F[polluted]', 'yes'],
  ['__proto__%5Bpolluted%5D', 'yes'],
  ['hasOwnProperty', 'x'],
  ['toString', 'x'],
  ['valueOf', '1'],
  ['__defineGetter__', 'x'],
  ['__lookupGetter__', 'x'],
  ['isPrototypeOf', 'x'],
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
    ? [
        {
          weight: 2,
          arbitrary: extremes.map((set): QueryMutation => (ps) => [
            ...ps.filter(([k]) => !Object.hasOwn(set, k)),
            ...Object.entries(set).map(([k, v]): QueryPair => [k, percentEncode(v)]),
          ]),
        },
      ]
    : [];
  const fits: fc.WeightedArbitrary<QueryMutation>[] = fitted
    ? [
        {
          weight: 6,
          arbitrary: fitted.map(([k, v]): QueryMutation => (ps) => [
            ...ps.filter(([pk]) => pk !== k),
            ...(Array.isArray(v) ? v : [v]).map((x): QueryPair => [k, percentEncode(String(x))]),
          ]),
        },
      ]
    : [];
  return fc.oneof(
    ...calendar,
    ...fits,
    // one parameter gets a hostile value (the most useful mutation)
    { weight: 6, arbitrary: fc.tuple(key, value).map(([k, v]): QueryMutation => (ps) => [...ps.filter(([pk]) => pk !== k), [k, v]]) },
    {
      weight: 2,
      arbitrary: key.map(
        (k): QueryMutation =>
          (ps) =>
            ps.filter(([pk]) => pk !== k),
      ),
    },
    // the parameter again, so the parser hands over an array
    {
      weight: 3,
      arbitrary: fc
        .tuple(key, fc.array(value, { minLength: 1, maxLength: 3 }))
        .map(([k, vs]): QueryMutation => (ps) => [...ps, ...vs.map((v): QueryPair => [k, v])]),
    },
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
