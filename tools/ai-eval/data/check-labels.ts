/**
 * Checks the hand-labelled auto-fill evaluation set (labelled-dev.tsv, labelled-test.tsv)
 * against the demo masters:
 *   - the header and the five columns of every line;
 *   - every `brand` is a brand name (`brand_nm`, not an alias) of the brand master the
 *     generator builds for the default seed: the real brands and the invented ones;
 *   - every `category` is `-` or one or more existing leaf paths joined by ` | `;
 *   - every `kind` is known, and the labels agree with what the kind means;
 *   - no name appears twice (in one half or across the halves).
 * Prints the counts per kind and half. Exits with 1 when something is wrong.
 *
 *   node_modules/.bin/tsx tools/ai-eval/data/check-labels.ts
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMasters } from '@bo/data-generator';

/** The seed of the demo data (DEMO_SIZE.seed in seed-demo.ts, the default of seedDatabases). */
const DEFAULT_SEED = 42;

export const KINDS = [
  'ordinary',
  'brandless',
  'inside-word',
  'compat-negation',
  'keyboard-layout',
  'choseong',
  'romanised',
  'spaced',
  'out-of-tree',
  'sibling-leaves',
] as const;
export type Kind = (typeof KINDS)[number];

/** What each kind promises about its labels. */
const RULES: Record<Kind, { brand: 'required' | 'empty' | 'any'; category: 'leaf' | 'none' | 'any' }> = {
  ordinary: { brand: 'required', category: 'leaf' },
  brandless: { brand: 'empty', category: 'leaf' },
  'inside-word': { brand: 'any', category: 'any' },
  'compat-negation': { brand: 'empty', category: 'any' },
  'keyboard-layout': { brand: 'required', category: 'leaf' },
  choseong: { brand: 'any', category: 'leaf' },
  romanised: { brand: 'required', category: 'leaf' },
  spaced: { brand: 'required', category: 'leaf' },
  'out-of-tree': { brand: 'any', category: 'none' },
  'sibling-leaves': { brand: 'any', category: 'leaf' },
};

export const HEADER = ['name', 'brand', 'category', 'kind', 'note'] as const;
export const HALVES = ['dev', 'test'] as const;
export type Half = (typeof HALVES)[number];

export interface LabelledCase {
  half: Half;
  line: number;
  name: string;
  /** Brand master name, or '' for "no brand expected". */
  brand: string;
  /** Acceptable leaf paths; empty for out of tree (`-`). */
  categories: string[];
  /** One of KINDS when valid (an unknown kind is reported, and its other columns still checked). */
  kind: string;
  note: string;
}

export const isKind = (k: string): k is Kind => (KINDS as readonly string[]).includes(k);

const here = dirname(fileURLToPath(import.meta.url));
export const dataFile = (half: Half) => join(here, `labelled-${half}.tsv`);

/** Every leaf of the standard category tree, as `root > level2 > level3 > leaf` → its `std_ctg_no`. */
export function leafPaths(seed = DEFAULT_SEED): Map<string, string> {
  const rows = buildMasters(seed).std_ctg;
  const byNo = new Map(rows.map((r) => [r.std_ctg_no, r]));
  const pathOf = (no: string | null): string[] => {
    const r = no ? byNo.get(no) : undefined;
    return r ? [...pathOf(r.upr_std_ctg_no), r.std_ctg_nm] : [];
  };
  return new Map(rows.filter((r) => r.leaf_yn === 'Y').map((r) => [pathOf(r.std_ctg_no).join(' > '), r.std_ctg_no]));
}

/** Brand names of the master for the default seed → their number and use flag. */
export function brandMaster(seed = DEFAULT_SEED): Map<string, { brandNo: string; use: 'Y' | 'N' }> {
  return new Map(buildMasters(seed).brand.map((b) => [b.brand_nm, { brandNo: b.brand_no, use: b.use_yn }]));
}

/** Reads one half; problems with the format are pushed to `errors`. */
export function readHalf(half: Half, errors: string[]): LabelledCase[] {
  const text = readFileSync(dataFile(half), 'utf8');
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  const where = (n: number) => `labelled-${half}.tsv:${n}`;
  if (lines[0] !== HEADER.join('\t')) errors.push(`${where(1)}: header must be "${HEADER.join('\\t')}"`);
  const cases: LabelledCase[] = [];
  lines.slice(1).forEach((raw, i) => {
    const line = i + 2;
    const cols = raw.split('\t');
    if (cols.length !== HEADER.length) {
      errors.push(`${where(line)}: ${cols.length} columns, expected ${HEADER.length}`);
      return;
    }
    const [name, brand, category, kind, note] = cols as [string, string, string, string, string];
    if (name.trim() === '' || name !== name.trim()) errors.push(`${where(line)}: empty name or leading/trailing spaces`);
    if (brand !== brand.trim()) errors.push(`${where(line)}: brand has leading/trailing spaces`);
    if (!isKind(kind)) errors.push(`${where(line)}: unknown kind "${kind}"`);
    const categories = category === '-' ? [] : category.split(' | ');
    cases.push({ half, line, name, brand, categories, kind, note });
  });
  return cases;
}

export function checkCases(cases: readonly LabelledCase[], errors: string[], warnings: string[]): void {
  const brands = brandMaster();
  const leaves = leafPaths();
  const seen = new Map<string, LabelledCase>();
  for (const c of cases) {
    const where = `labelled-${c.half}.tsv:${c.line} (${c.name})`;
    const key = c.name.normalize('NFC');
    const earlier = seen.get(key);
    if (earlier) errors.push(`${where}: duplicate of labelled-${earlier.half}.tsv:${earlier.line}`);
    else seen.set(key, c);

    if (c.brand !== '') {
      const use = brands.get(c.brand)?.use;
      if (use === undefined) errors.push(`${where}: brand "${c.brand}" is not a brand name of the master (aliases are not names)`);
      else if (use === 'N') warnings.push(`${where}: brand "${c.brand}" is retired (use_yn = N)`);
    }
    if (new Set(c.categories).size !== c.categories.length) errors.push(`${where}: a leaf is listed twice`);
    for (const path of c.categories) if (!leaves.has(path)) errors.push(`${where}: "${path}" is not a leaf path of the category tree`);

    if (!isKind(c.kind)) continue;
    const rule = RULES[c.kind];
    if (rule.category === 'leaf' && c.categories.length === 0) errors.push(`${where}: kind ${c.kind} needs an in-tree leaf, not "-"`);
    if (rule.brand === 'required' && c.brand === '') errors.push(`${where}: kind ${c.kind} expects a brand`);
    if (rule.brand === 'empty' && c.brand !== '') errors.push(`${where}: kind ${c.kind} expects no brand`);
    if (rule.category === 'none' && c.categories.length > 0) errors.push(`${where}: kind out-of-tree expects category "-"`);
  }
}

function main(): void {
  const errors: string[] = [];
  const warnings: string[] = [];
  const cases = HALVES.flatMap((h) => readHalf(h, errors));
  checkCases(cases, errors, warnings);

  const count = (kind: Kind, half: Half) => cases.filter((c) => c.kind === kind && c.half === half).length;
  const rows = KINDS.map((k) => [k, count(k, 'dev'), count(k, 'test')] as const);
  const width = Math.max(...KINDS.map((k) => k.length), 'total'.length);
  console.log(`${'kind'.padEnd(width)}  dev  test  all`);
  for (const [k, d, t] of rows) {
    console.log(`${k.padEnd(width)}  ${String(d).padStart(3)}  ${String(t).padStart(4)}  ${String(d + t).padStart(3)}`);
    if (Math.abs(d - t) > 2) warnings.push(`kind ${k} is unbalanced between the halves (${d} dev, ${t} test)`);
  }
  const dev = cases.filter((c) => c.half === 'dev').length;
  console.log(
    `${'total'.padEnd(width)}  ${String(dev).padStart(3)}  ${String(cases.length - dev).padStart(4)}  ${String(cases.length).padStart(3)}`,
  );
  const withBrand = cases.filter((c) => c.brand !== '').length;
  const outOfTree = cases.filter((c) => c.categories.length === 0).length;
  const multi = cases.filter((c) => c.categories.length > 1).length;
  console.log(
    `brand expected: ${withBrand}, no brand: ${cases.length - withBrand}; out of tree: ${outOfTree}; several acceptable leaves: ${multi}`,
  );

  for (const w of warnings) console.warn(`warning: ${w}`);
  if (errors.length > 0) {
    for (const e of errors) console.error(`error: ${e}`);
    console.error(`${errors.length} error(s)`);
    process.exit(1);
  }
  console.log('labels OK');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
