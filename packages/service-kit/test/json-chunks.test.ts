import { expect } from 'chai';
import { jsonChunks } from '../src/http/json-chunks.ts';

const joined = (chunks: Buffer[] | undefined) => (chunks ? Buffer.concat(chunks).toString('utf8') : undefined);

/** Rows as a grid answer carries them, with the characters and values that trip hand-written JSON. */
const row = (i: number) => ({
  stdCtgNo: String(i).padStart(8, '0'),
  stdCtgNm: i % 3 ? '캠핑/타프 "특가" \\ 세일' : 'emoji 😀 and a lone \ud800 surrogate',
  control: 'tab\there\nnew line \u0001 \u2028',
  siteNm: null,
  mdId: i % 5 ? `md${i}` : undefined,
  ordAmt: i * 1_234_567_890_123,
  odd: [-0, Number.NaN, Number.POSITIVE_INFINITY, 1e21, 0.1 + 0.2],
  at: new Date(Date.UTC(2026, 10, 28, 9, i % 60)),
  nested: { deep: [[i], { x: undefined }], fn: () => i },
});

describe('jsonChunks: a large answer in small pieces, byte for byte JSON.stringify', () => {
  it('when a list answer has many rows of awkward text and values, then the pieces join to exactly what JSON.stringify writes', () => {
    const answer = { totalCount: 3000, payloads: Array.from({ length: 3000 }, (_, i) => row(i)) };
    const chunks = jsonChunks(answer);
    expect(chunks, 'split').to.be.an('array').with.length.greaterThan(10);
    expect(joined(chunks)).to.equal(JSON.stringify(answer));
    // Small pieces: none reaches a large allocation (16 K characters, at most 3 bytes each, plus one row).
    for (const c of chunks!) expect(c.length).to.be.below(64 * 1024);
  });

  it('when the object around the list has omitted, dated, keyed and odd members, then they come out as JSON.stringify writes them', () => {
    const answer = {
      skipped: undefined,
      fn: () => 1,
      when: new Date(Date.UTC(2026, 0, 1)),
      keyed: { toJSON: (key: string) => `toJSON saw "${key}"` },
      'quoted "key" \\': 1,
      rows: Array.from({ length: 100 }, (_, i) => i),
      more: Array.from({ length: 70 }, (_, i) => ({ i, s: '한' })),
      last: undefined,
    };
    expect(joined(jsonChunks(answer))).to.equal(JSON.stringify(answer));
    const proto = JSON.parse(`{"__proto__": {"a": 1}, "rows": [${Array.from({ length: 80 }, (_, i) => i).join(',')}]}`) as object;
    expect(Object.keys(proto)).to.include('__proto__');
    expect(joined(jsonChunks(proto))).to.equal(JSON.stringify(proto));
  });

  it('when a long top-level array holds undefined, functions and symbols, then they are null as in JSON.stringify', () => {
    const items: unknown[] = Array.from({ length: 90 }, (_, i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => i : Symbol('s')));
    items.push('한글', null, { a: undefined });
    expect(joined(jsonChunks(items))).to.equal(JSON.stringify(items));
  });

  it('when the answer is small, has no long array or an item brings its own toJSON, then it is left to one JSON.stringify', () => {
    expect(jsonChunks({ totalCount: 63, payloads: Array.from({ length: 63 }, (_, i) => i) })).to.equal(undefined);
    expect(jsonChunks({ code: '0000', payload: { payloads: Array.from({ length: 500 }, (_, i) => i) } })).to.equal(undefined);
    const withToJson = Array.from({ length: 100 }, (_, i) => (i === 50 ? { toJSON: (k: string) => k } : i));
    expect(jsonChunks(withToJson)).to.equal(undefined);
    expect(jsonChunks({ toJSON: () => 1, rows: Array.from({ length: 100 }, (_, i) => i) })).to.equal(undefined);
    for (const v of ['text', 12, null, true]) expect(jsonChunks(v)).to.equal(undefined);
  });
});
