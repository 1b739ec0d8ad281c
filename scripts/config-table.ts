/**
 * The README's configuration table, generated from the config schemas the processes validate
 * at start, so the table cannot drift from the code.
 *   tsx scripts/config-table.ts          print the table
 *   tsx scripts/config-table.ts --write  replace the table in README.md
 *   tsx scripts/config-table.ts --check  exit 1 when README.md is out of date
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { backofficeConfigSchema } from '../services/backoffice/src/config.ts';
import { memberConfigSchema } from '../services/member/src/config.ts';
import { workerConfigSchema } from '../services/aggregation-worker/src/config.ts';

type Prop = { default?: string | number | boolean; description?: string; anyOf?: { const?: string | number | boolean }[] };

const owners: [string, Record<string, Prop>][] = [
  ['backoffice', backofficeConfigSchema],
  ['member', memberConfigSchema],
  ['worker', workerConfigSchema],
];

export function configTable(): string {
  const rows = new Map<string, { prop: Prop; used: string[] }>();
  for (const [service, schema] of owners) {
    for (const [name, prop] of Object.entries(schema)) {
      const row = rows.get(name) ?? { prop, used: [] };
      row.used.push(service);
      rows.set(name, row);
    }
  }
  const cell = (s: string) => s.replaceAll('|', '\\|');
  const lines = ['| variable | default | used by | meaning |', '|---|---|---|---|'];
  for (const [name, { prop, used }] of rows) {
    const def = prop.default === undefined || prop.default === '' ? '—' : `\`${String(prop.default)}\``;
    const allowed = prop.anyOf?.every((a) => a.const !== undefined) ? ` (${prop.anyOf.map((a) => String(a.const)).join(', ')})` : '';
    lines.push(
      `| \`${name}\` | ${cell(def)} | ${used.length === owners.length ? 'all' : used.join(', ')} | ${cell((prop.description ?? '') + allowed)} |`,
    );
  }
  return lines.join('\n');
}

const START = '<!-- config-table:start -->';
const END = '<!-- config-table:end -->';

if (import.meta.url === `file://${process.argv[1]}`) {
  const readmePath = join(import.meta.dirname, '..', 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const [before, rest] = readme.split(START);
  const after = rest?.split(END)[1];
  const updated = `${before}${START}\n${configTable()}\n${END}${after ?? ''}`;
  if (process.argv.includes('--write')) writeFileSync(readmePath, updated);
  else if (process.argv.includes('--check')) {
    if (rest === undefined || updated !== readme) {
      console.error('README.md configuration table is out of date: run `tsx scripts/config-table.ts --write`');
      process.exit(1);
    }
    console.log('README.md configuration table is up to date');
  } else console.log(configTable());
}
