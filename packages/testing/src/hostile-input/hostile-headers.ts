import fc from 'fast-check';
import { handMadeJwt, hs256 } from '../tokens.ts';
import { hostileText } from './hostile-text.ts';
import { withOwnKey } from './json-values.ts';

/** An HS256 token signed by hand: jsonwebtoken refuses to sign claims of the wrong type, which is the point here. */
const tokenOf = (claims: Record<string, unknown>, secret: string): string =>
  handMadeJwt({ alg: 'HS256', typ: 'JWT' }, claims, hs256(secret));

/**
 * Authorization headers an attacker or a broken client sends: none, malformed, unsigned,
 * expired, and correctly signed ones whose claims have the wrong types or hostile values
 * (claims reach SQL as user ids and supplier numbers).
 */
export function hostileAuthorization(secret: string): fc.Arbitrary<string | undefined> {
  const exp = () => Math.floor(Date.now() / 1000) + 3600;
  return fc.oneof(
    fc.constantFrom<string | undefined>(
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'bearer x',
      'Basic Zm9vOmJhcg==',
      `Bearer ${'a'.repeat(3000)}`,
      'Bearer a.b.c',
      'Bearer ...',
      `Bearer ${handMadeJwt({ alg: 'none', typ: 'JWT' }, { sub: 'admin01', workGrpCd: 'BO_ADMIN', exp: 9999999999 })}`,
      `Bearer ${handMadeJwt({ alg: 'HS256' }, { sub: 'admin01', workGrpCd: 'BO_ADMIN' }, () => 'A'.repeat(43))}`,
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
