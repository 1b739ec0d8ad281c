import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { AGGREGATE_TABLES } from '@bo/aggregates';
import { createKnex } from '@bo/db';
import { TEST_SERVER_URL } from '@bo/testing';
import { SECTIONS } from '../src/options.ts';
import { CACHED_FAMILIES, STAT_OPERATIONS } from '../src/rows/statistics-cases.ts';
import type { BenchRow } from '../src/report/rows.ts';

const BENCH = join(import.meta.dirname, '..', 'src', 'bench.ts');

interface RunOutput {
  stdout: string;
  stderr: string;
  code: number;
}

function runBench(args: string[]): Promise<RunOutput> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', BENCH, ...args], { maxBuffer: 1 << 26, timeout: 240_000 }, (err, stdout, stderr) =>
      resolve({ stdout, stderr, code: err ? Number((err as { code?: number }).code ?? 1) : 0 }),
    );
  });
}

/**
 * The benchmark is not timed here: this runs the whole harness at the tiny scale and checks
 * that it reports every hot path, each with a figure or a stated reason.
 */
describe('bench --scale tiny (smoke)', function () {
  this.timeout(300_000);
  const prefix = `t_bench_${randomBytes(3).toString('hex')}`;
  const out = mkdtempSync(join(tmpdir(), 'bench-smoke-'));
  const date = '2000-01-01';
  let run: RunOutput;
  let rows: BenchRow[];

  before(async () => {
    run = await runBench(['--scale', 'tiny', '--db-prefix', prefix, '--db-url', TEST_SERVER_URL, '--out', out, '--date', date, '--drop']);
    if (run.code !== 0) throw new Error(`bench exited ${run.code}: ${run.stderr.slice(-2000)}`);
    rows = (JSON.parse(readFileSync(join(out, `${date}-tiny.json`), 'utf8')) as { rows: BenchRow[] }).rows;
  });

  after(() => rmSync(out, { recursive: true, force: true }));

  it('when it runs, then every section reports rows and every statistics operation has its cases', () => {
    expect([...new Set(rows.map((r) => r.section))]).to.have.members([...SECTIONS]);
    // Two ranges with and without a filter; hourly one day; the 31 days to a 10th too: the category
    // lists unfiltered, the goods list with and without its filter.
    const expected = (family: string) => ({ hourly: 2, category: 5, goods: 6 })[family] ?? 4;
    for (const op of STAT_OPERATIONS) {
      const cases = rows.filter((r) => r.section === 'statistics' && r.hotPath.startsWith(`${op.label} ·`));
      const warm = cases.filter((r) => r.hotPath.endsWith(' · warm'));
      expect(cases.length - warm.length, op.label).to.equal(expected(op.family));
      // The cached lists are measured again with the answer cache on.
      expect(warm, `${op.label} warm`).to.have.length(CACHED_FAMILIES.has(op.family) ? expected(op.family) : 0);
    }
    const tenths = rows
      .filter((r) => r.hotPath.includes('31 days to a 10th'))
      .map((r) => `${r.figures.family} ${r.figures.filter === 'no filter' ? 'unfiltered' : 'filtered'}`);
    expect(tenths.sort()).to.deep.equal([
      ...Array<string>(4).fill('category unfiltered'),
      ...Array<string>(2).fill('goods filtered'),
      ...Array<string>(2).fill('goods unfiltered'),
    ]);
  });

  it('when the full rebuild is measured, then it is set against a bare copy of a quarter of the rows its tables hold', () => {
    const rebuild = rows.find((r) => r.section === 'aggregation' && r.hotPath.includes('-day rebuild'))!;
    const f = rebuild.figures as Record<string, number>;
    expect(f.tableRows, 'rows the rebuilt tables hold').to.be.greaterThan(0);
    // A quarter of each table, rounded up: at most one row more per table.
    expect(f.copiedRows).to.be.within(f.tableRows! / 4, f.tableRows! / 4 + AGGREGATE_TABLES.length);
    expect(f.copyEstimateMs).to.be.greaterThan(0);
    expect(f.ratioToCopy).to.equal(Number((f.ms! / f.copyEstimateMs!).toFixed(3)));
    expect(rebuild.reference).to.match(/^bare copy of the [\d,]+ rows the tables hold: est\. /);
    // Generated in this run: a first build, not a replacement of aggregates built before.
    expect((rebuild.figures as Record<string, unknown>).replacedAggregates).to.equal(false);
  });

  it('when the goods list without a filter is measured, then its cold and warm rows also time the first byte of each answer', () => {
    const unfiltered = rows.filter((r) => r.section === 'statistics' && r.figures.family === 'goods' && r.figures.filter === 'no filter');
    expect(unfiltered, 'goods list, 31 days, 31 days to a 10th and 12 months, cold and warm').to.have.lengthOf(6);
    for (const r of unfiltered) {
      expect(r.figures.firstByteP95Ms, r.hotPath).to.be.a('number');
      expect(r.measured, r.hotPath).to.match(/first byte p50 .* \/ p95 /);
    }
    const filtered = rows.filter((r) => r.section === 'statistics' && r.figures.family === 'goods' && r.figures.filter !== 'no filter');
    expect(filtered.filter((r) => 'firstByteP95Ms' in r.figures)).to.deep.equal([]);
  });

  it('when the ai section runs, then the recommended list is measured for the default request, pages asked in turn and a conditioned request, with the stored and the live demand sums, next to its bare SQL', () => {
    const list = rows.filter((r) => r.section === 'ai' && r.hotPath.startsWith('recommended list, '));
    expect(list.map((r) => r.hotPath)).to.have.lengthOf(6);
    expect(list.filter((r) => r.hotPath.includes('pages 1–8 of 100 in turn'))).to.have.lengthOf(2);
    expect(list.map((r) => r.figures.demand)).to.deep.equal([
      'stored sums',
      'stored sums',
      'stored sums',
      'live sums',
      'live sums',
      'live sums',
    ]);
    for (const r of list) {
      expect(r.verdict, `${r.hotPath}: ${r.measured}`).to.be.oneOf(['PASS', 'MISS']);
      expect(r.figures.p95Ms, r.hotPath).to.be.a('number');
      expect(r.figures.bareP95Ms, r.hotPath).to.be.a('number');
      expect(r.ratio, r.hotPath).to.match(/× SQL/);
    }
  });

  it('when the one-day measurements leave the running sums marked stale, then they are refreshed before the statistics read them', () => {
    const log = run.stderr;
    const statistics = log.indexOf('▶ statistics');
    const refreshed = log.indexOf('running sums marked stale', statistics);
    const firstCase = log.indexOf('] ', statistics);
    expect(statistics, 'statistics section').to.be.above(-1);
    expect(refreshed, 'refresh logged in the statistics section').to.be.above(statistics);
    expect(firstCase, 'before its first case').to.be.above(refreshed);
    expect(log.slice(refreshed, log.indexOf('\n', refreshed))).to.match(/\(category from \d{4}-\d{2}, goods from \d{4}-\d{2}\)/);
    // Nothing builds a day between the statistics and the later reads (AI, scaling): they find no mark left.
    expect(log.split('running sums marked stale').length - 1, 'marks cleared by the refresh').to.equal(1);
  });

  it('when a row is reported, then it carries a figure with a verdict, or "not available" with its reason, and nothing failed', () => {
    for (const r of rows) {
      expect(r.verdict, `${r.hotPath}: ${r.measured}`).to.be.oneOf(['PASS', 'MISS', 'INFO', 'N/A']);
      if (r.verdict === 'N/A') {
        expect(r.measured, r.hotPath).to.match(/^not available: \S/);
        expect(r.reason, r.hotPath).to.be.a('string').and.have.lengthOf.above(0);
      } else {
        expect(r.measured, r.hotPath).to.match(/\d/);
        expect(Object.keys(r.figures), r.hotPath).to.have.lengthOf.above(0);
      }
    }
  });

  it('when it finishes, then the printed table and the Markdown file show every row', () => {
    const md = readFileSync(join(out, `${date}-tiny.md`), 'utf8');
    for (const r of rows) {
      const line = `| ${r.hotPath.replace(/\|/g, '\\|')} | ${r.measured.replace(/\|/g, '\\|')} |`;
      expect(run.stdout, r.hotPath).to.include(line);
      expect(md, r.hotPath).to.include(line);
    }
  });

  it('when --drop is given, then no benchmark database is left behind', async () => {
    const admin = createKnex(TEST_SERVER_URL, { poolMax: 1 });
    try {
      const [left] = (await admin.raw('SHOW DATABASES LIKE ?', [`${prefix}\\_%`])) as [unknown[]];
      expect(left).to.deep.equal([]);
    } finally {
      await admin.destroy();
    }
  });
});
