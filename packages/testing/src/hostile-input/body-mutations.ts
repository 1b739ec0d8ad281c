import fc from 'fast-check';
import type { OperationSpec } from '@bo/contracts';
import type { TObject } from '@sinclair/typebox';
import { hostileText } from './hostile-text.ts';
import { hostileJsonValue, jsonText, protoObject, withOwnKey } from './json-values.ts';
import { POLLUTION_KEYS } from './prototype-pollution.ts';
import type { HostileOptions, SampleRequest } from './sample-request.ts';
import { calendarExtremes, fittedFields, invalidValueFor, type JsonSchemaLike } from './schema-values.ts';

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
    ? [
        {
          weight: 2,
          arbitrary: extremes.map(
            (set): BodyMutation =>
              (b) =>
                Object.entries(set).reduce((out, [k, v]) => withOwnKey(out, k, v), cloneBody(b)),
          ),
        },
      ]
    : [];
  const fits: fc.WeightedArbitrary<BodyMutation>[] = fitted
    ? [
        {
          weight: 6,
          arbitrary: fitted.map(
            ([k, v]): BodyMutation =>
              (b) =>
                withOwnKey(cloneBody(b), k, v),
          ),
        },
      ]
    : [];
  return fc.oneof(
    ...calendar,
    ...fits,
    {
      weight: 6,
      arbitrary: fc.tuple(key, hostileJsonValue()).map(
        ([k, v]): BodyMutation =>
          (b) =>
            withOwnKey(cloneBody(b), k, v),
      ),
    },
    {
      weight: 2,
      arbitrary: key.map((k): BodyMutation => (b) => {
        const out = cloneBody(b);
        delete out[k];
        return out;
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(hostileText(100), hostileJsonValue()).map(
        ([k, v]): BodyMutation =>
          (b) =>
            withOwnKey(cloneBody(b), k, v),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', ...POLLUTION_KEYS), protoObject()).map(
        ([k, v]): BodyMutation =>
          (b) =>
            withOwnKey(cloneBody(b), k, v),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(key, protoObject()).map(
        ([k, v]): BodyMutation =>
          (b) =>
            withOwnKey(cloneBody(b), k, v),
      ),
    },
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
    invalidValueFor(s as JsonSchemaLike).map(
      (v): BodyMutation =>
        (b) =>
          withOwnKey(cloneBody(b), k, v),
    ),
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

/** Text that is not one JSON object. */
const NOT_JSON = [
  '',
  ' ',
  '{',
  '}',
  '{"a":',
  '{"a" 1}',
  "{'a':1}",
  '{a:1}',
  '{"a":1,}',
  '[1,]',
  'NaN',
  'undefined',
  '\uFEFF{}',
  '{}{}',
  '{"a":1}garbage',
  'a=b&c=d',
  '<xml/>',
  '\u0000',
  '{"\uD800":1}',
  '"\uD800"',
  '{"a":"\\uD800"}',
  '{"a":"\\u00"}',
  '[]',
  '"text"',
  '1',
  'null',
  'true',
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '[' + '['.repeat(10_000) + ']'.repeat(10_001),
];

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json;charset=UTF-8'];
const OTHER_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json-seq',
  'application/merge-patch+json',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=x-hostile',
  'application/*',
  '*/*',
  'json',
  ';',
  'application/json, text/plain',
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

  const mutations = fc.array(bodyMutation(keys, calendarExtremes([schema]), fittedFields([schema])), {
    minLength: options.invalidOnly ? 0 : 1,
    maxLength: 4,
  });
  const mutated =
    options.invalidOnly && schema
      ? fc.tuple(mutations, invalidatingMutation(schema)).map(([ms, last]) => [...ms, last].reduce((b, m) => m(b), start))
      : mutations.map((ms) => ms.reduce((b, m) => m(b), start));
  const asJson = fc.record({ text: mutated.map(jsonText), contentType: jsonType, contentEncoding: encoding });
  const withAnyType = fc.record({ text: mutated.map(jsonText), contentType: anyType, contentEncoding: encoding });
  const notAnObject = fc.record({
    text: fc.oneof(
      fc.constantFrom(...NOT_JSON),
      fc
        .jsonValue({ maxDepth: 2 })
        .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
        .map(jsonText),
    ),
    contentType: anyType,
    contentEncoding: encoding,
  });
  // Some duplicate keys in the text: the parser keeps the last, so only reads may get them.
  const duplicated = fc.tuple(mutated, fc.constantFrom(...(keys.length ? keys : ['x'])), hostileJsonValue()).map(([b, k, v]) => ({
    text: jsonText(b).replace(/}$/, `${Object.keys(b).length ? ',' : ''}${JSON.stringify(k)}:${jsonText(v)}}`),
    contentType: 'application/json',
  }));
  const tooLarge = fc
    .constantFrom('x', '😀')
    .map((c) => ({ text: JSON.stringify({ ...start, pad: c.repeat(1_100_000 / c.length) }), contentType: 'application/json' }));

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
