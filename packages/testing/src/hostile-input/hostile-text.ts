import fc from 'fast-check';

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
