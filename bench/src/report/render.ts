import type { BenchRow } from './rows.ts';

export const SECTION_TITLES: Record<string, string> = {
  loading: 'Data loading',
  aggregation: 'Daily aggregation',
  statistics: 'Statistics lists and graph data (8 concurrent clients)',
  excel: 'Excel download',
  'staff-limit': 'Staff limit increase/decrease (50 concurrent clients)',
  overhead: 'Request overhead',
  copies: 'Several copies: a cheap report through nginx, two back-office copies vs one',
  ai: 'AI: auto-fill (offline provider) and the recommended goods list',
  scaling: 'Scaling: statistics p95 as events grow',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function rowsTable(rows: readonly BenchRow[]): string {
  const lines = ['| hot path | measured | reference (same run) | ratio | target | result |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    const result =
      r.verdict === 'MISS'
        ? `MISS (${r.checks
            .filter((c) => !c.ok)
            .map((c) => c.label)
            .join('; ')})`
        : r.verdict;
    lines.push(`| ${[r.hotPath, r.measured, r.reference, r.ratio, r.target, result].map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

/** The whole report: one table per section, in the order the sections were measured. */
export function renderTables(rows: readonly BenchRow[]): string {
  const sections = [...new Set(rows.map((r) => r.section))];
  return sections
    .map((s) => {
      const inSection = rows.filter((r) => r.section === s);
      const notes = inSection.filter((r) => r.note).map((r) => `- ${r.hotPath}: ${r.note}`);
      return [`### ${SECTION_TITLES[s] ?? s}`, '', rowsTable(inSection), ...(notes.length ? ['', ...notes] : [])].join('\n');
    })
    .join('\n\n');
}

export function tally(rows: readonly BenchRow[]): Record<BenchRow['verdict'], number> {
  const t: Record<BenchRow['verdict'], number> = { PASS: 0, MISS: 0, INFO: 0, 'N/A': 0, ERROR: 0 };
  for (const r of rows) t[r.verdict] += 1;
  return t;
}

/** One line per row while the run goes on, so a long run shows its figures as they come. */
export const progressLine = (r: BenchRow): string =>
  `  [${r.verdict}] ${r.hotPath}: ${r.measured}${r.reference !== '—' ? ` | ref ${r.reference}` : ''}${r.ratio !== '—' ? ` | ${r.ratio}` : ''}`;
