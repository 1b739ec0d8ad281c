import fc from 'fast-check';
import { hostileText } from './hostile-text.ts';

/**
 * A number token JSON.stringify cannot write (1e400 parses to Infinity, a 30-digit integer
 * loses precision): kept as a marker string and spliced into the text afterwards.
 */
export const RAW_NUMBER = '\u0001raw-number:';
const RAW_NUMBERS = ['1e400', '-1e400', '1E-400', '-0', '123456789012345678901234567890', '0.1e1', '9007199254740993', '1.0', '2e0'];

const deep = (depth: number, leaf: unknown, asArray: boolean): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
};

/** An own `__proto__` key (an object literal would set the prototype instead). */
export const withOwnKey = (target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> => {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
};

export const protoObject = (): fc.Arbitrary<Record<string, unknown>> =>
  fc
    .constantFrom(
      () => withOwnKey({}, '__proto__', { polluted: 'yes', isAdmin: true }),
      () => ({ constructor: { prototype: { polluted: 'yes' } } }),
      () => withOwnKey({ a: 1 }, '__proto__', { entrNo: 'E1', workGrpCd: 'BO_ADMIN' }),
      () => ({ prototype: { polluted: 'yes' } }),
    )
    .map((make) => make());

/** Any JSON value a field should not hold, weighted towards the dangerous ones. */
export const hostileJsonValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 5, arbitrary: hostileText(4000) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 2, -(2 ** 53) - 2, 2 ** 31, -(2 ** 31) - 1, 5e-324, 1e21, 0.1),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_NUMBERS).map((t) => `${RAW_NUMBER}${t}`) },
    { weight: 2, arbitrary: fc.constantFrom(true, false, null) },
    { weight: 2, arbitrary: fc.array(fc.oneof(hostileText(200), fc.integer(), fc.constant(null)), { maxLength: 5 }) },
    { weight: 1, arbitrary: fc.dictionary(hostileText(50), hostileText(200), { maxKeys: 4 }) },
    { weight: 1, arbitrary: protoObject() },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 50, max: 3000 }), fc.boolean()).map(([d, arr]) => deep(d, 'x', arr)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.integer({ min: 1000, max: 60_000 }), fc.constantFrom<unknown>(0, 'x', null, {}))
        .map(([n, v]) => Array<unknown>(n).fill(v)),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );

/** JSON text with the raw number markers replaced by their tokens. */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.replace(/"\\u0001raw-number:([^"]*)"/g, '$1');
}
