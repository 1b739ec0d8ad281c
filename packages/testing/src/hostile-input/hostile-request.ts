import fc from 'fast-check';
import type { OperationSpec } from '@bo/contracts';
import { hostileBody } from './body-mutations.ts';
import { hostileHeaderValue } from './hostile-headers.ts';
import { hostileQuery } from './query-mutations.ts';
import type { HostileOptions, HostileRequest, SampleRequest } from './sample-request.ts';

/**
 * Hostile requests for the property tests of every operation: a valid sample request of the
 * operation, mutated (one field wrong is what finds bugs), or a request built from nothing.
 * Query strings and bodies are raw text, so a parameter can repeat, a key can be
 * `__proto__[x]`, a percent sign can stand alone and a body can be anything at all; the
 * requests go out through `node:http` because supertest re-encodes the URL and adds a form
 * content type to text bodies.
 */

/** A hostile request for one operation: its query and body from the sample, plus hostile headers. */
export function hostileRequest(op: OperationSpec, sample: SampleRequest, options: HostileOptions = {}): fc.Arbitrary<HostileRequest> {
  const extraHeaders = fc.record(
    // Each in one request of four, so the operation behind a header check still gets most of them.
    Object.fromEntries(
      Object.entries(options.headers ?? {}).map(([name, arb]) => [
        name,
        fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb }),
      ]),
    ),
  );
  return fc
    .record({
      query:
        op.query || op.method === 'get'
          ? hostileQuery(op, sample)
          : fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileQuery(op, sample) }),
      body: hostileBody(op, sample, options),
      authorization: options.authorization ?? fc.constant(undefined),
      requestId: fc.option(hostileHeaderValue(), { nil: undefined, freq: 6 }),
      extra: extraHeaders,
    })
    .map(({ query, body, authorization, requestId, extra }) => {
      const headers: Record<string, string> = {};
      if (authorization !== undefined) headers.authorization = authorization.replace(/[^\t\x20-\x7e]/g, '');
      if (requestId !== undefined) headers['x-request-id'] = requestId;
      for (const [name, value] of Object.entries(extra)) if (value !== undefined) headers[name] = value;
      if (body?.contentType !== undefined) headers['content-type'] = body.contentType;
      if (body?.contentEncoding !== undefined) headers['content-encoding'] = body.contentEncoding;
      return { method: op.method, query, headers, ...(body ? { body: body.text } : {}) };
    });
}

/** Runs per operation and seed: fixed so CI is repeatable, FC_RUNS / FC_SEED to explore further. */
export function hostileRunSettings(defaultRuns: number): { numRuns: number; seed: number } {
  const runs = Number(process.env.FC_RUNS);
  const seed = Number(process.env.FC_SEED);
  return { numRuns: Number.isInteger(runs) && runs > 0 ? runs : defaultRuns, seed: Number.isInteger(seed) ? seed : 20260510 };
}
