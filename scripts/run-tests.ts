/**
 * `pnpm test [path …]`: the mocha suites, one package at a time (the machine has two cores and one
 * MariaDB), then one closing line `N passed, N failed`. Exit code 1 if anything failed.
 *
 * Without a path: a workspace typecheck, the README configuration-table, structure, lint and formatting
 * checks, every package on MariaDB, then the database packages again on MySQL (a private server
 * from Debian's packages, `scripts/mysql-from-debian.sh`; `TEST_MYSQL=skip` leaves it out).
 * With paths (relative to where the command was typed): a package folder runs that package, a
 * test file or a folder inside a package's `test/` runs only those files. A path that does not
 * exist or holds no test, and a run that executes no test at all, are failures with a message.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { typedArgs, usageError } from '@bo/service-kit/command-line';

const root = join(import.meta.dirname, '..');
// pnpm runs scripts from the workspace root; INIT_CWD is where the user typed the command.
const typedIn = process.env.INIT_CWD ?? process.cwd();

const USAGE = `usage: pnpm test [path …]
  no path           typecheck, README configuration, structure, lint and formatting checks, every
                    package's suite, then the database packages on MySQL (TEST_MYSQL=skip: not)
  services/member   one package
  services/member/test/staff-limit-change.test.ts
                    one test file (several paths may be given; folders inside test/ too)`;

/** The packages whose tests talk to the database: run a second time on MySQL in a full run. */
const DATABASE_PACKAGES = ['packages/db', 'packages/aggregates', 'services/aggregation-worker', 'services/backoffice', 'services/member'];

/** The folders the structure check reads (the same as `pnpm lint:structure`). */
const LINTED = ['packages', 'services', 'tools', 'bench', 'scripts', 'tests'];

const isTestFile = (file: string) => file.endsWith('.test.ts');
const testFilesIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter(isTestFile)
        .map((f) => join(dir, f))
    : [];

/** Package folders (relative to the root) that have a mocha config and at least one test. */
const allPackages = ['packages', 'services', 'tests', 'tools']
  .flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}`))
  .concat(['bench'])
  .filter((dir) => existsSync(join(root, dir, '.mocharc.cjs')) && testFilesIn(join(root, dir, 'test')).length > 0)
  // The fault and system tests last: they start the real processes.
  .sort((a, b) => Number(a.startsWith('tests/')) - Number(b.startsWith('tests/')));

/** What to run in one package: everything, or the listed spec files. */
interface Run {
  dir: string;
  specs: string[] | 'all';
}

function fail(message: string): never {
  return usageError(message, USAGE);
}

/** The package folder (relative to the root) that holds `path`, or undefined. */
function packageOf(path: string): string | undefined {
  for (let dir = statSync(path).isDirectory() ? path : dirname(path); dir.startsWith(root) && dir !== root; dir = dirname(dir)) {
    const rel = relative(root, dir).split(sep).join('/');
    if (allPackages.includes(rel)) return rel;
  }
  return undefined;
}

function plan(args: string[]): Run[] {
  if (args.length === 0) return allPackages.map((dir) => ({ dir, specs: 'all' }));
  const runs = new Map<string, Run>();
  for (const arg of args) {
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    }
    if (arg.startsWith('-')) fail(`unknown option ${arg}`);
    const path = [resolve(typedIn, arg), resolve(root, arg)].find((p) => existsSync(p));
    if (!path) fail(`no such file or folder: ${arg}`);
    const dir = packageOf(path);
    if (!dir) fail(`${arg} is not inside a package with tests (${allPackages.join(', ')})`);
    const run = runs.get(dir) ?? { dir, specs: [] };
    runs.set(dir, run);
    if (path === join(root, dir)) run.specs = 'all';
    else {
      const files = statSync(path).isDirectory() ? testFilesIn(path) : isTestFile(path) ? [path] : [];
      if (files.length === 0) fail(`${arg} holds no test file (*.test.ts)`);
      if (run.specs !== 'all') run.specs.push(...files.map((f) => relative(join(root, dir), f)));
    }
  }
  return [...runs.values()];
}

/** Run a command, echo its output, resolve with the text and exit code. */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ text: string; code: number }> {
  return new Promise((resolveRun) => {
    let text = '';
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', TURBO_TELEMETRY_DISABLED: '1', ...env },
    });
    child.stdout.on('data', (d: Buffer) => {
      process.stdout.write(d);
      text += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    child.on('close', (code) => resolveRun({ text, code: code ?? 1 }));
  });
}

const args = typedArgs();
const runs = plan(args);
let passed = 0;
let failed = 0;
let pending = 0;
const failedParts: string[] = [];
/** Mocha's failure reports, printed again at the end: CI keeps only the tail of a long run. */
const failureReports: string[] = [];
/** At most the first 4,000 characters of a failure report (stack traces can run long). */
const clip = (text: string) => (text.length > 4000 ? `${text.slice(0, 4000)}\n… (${text.length - 4000} more characters above)` : text);
const count = (text: string, word: string) => Number(text.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);

// Type errors are test failures too: one check for the whole workspace.
if (args.length === 0) {
  console.log('=== typecheck (all packages) ===');
  const packagesTypecheck = await run(join(root, 'node_modules/.bin/turbo'), ['run', 'typecheck', '--output-logs=errors-only'], root);
  const scriptsTypecheck = await run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], root);
  if (packagesTypecheck.code === 0 && scriptsTypecheck.code === 0) passed += 1;
  else {
    failed += 1;
    failedParts.push('typecheck');
  }
  const checks: [title: string, command: string, args: string[]][] = [
    ['README configuration table matches the config schemas', 'tsx', ['scripts/config-table.ts', '--check']],
    ['structure: no import cycle, layers one way (dependency-cruiser)', 'depcruise', ['--config', '.dependency-cruiser.cjs', ...LINTED]],
    ['lint: typescript-eslint type-aware rules (eslint .)', 'eslint', ['.']],
    ['formatting (prettier --check)', 'prettier', ['--check', '--log-level', 'warn', '.']],
  ];
  for (const [title, command, args] of checks) {
    console.log(`=== ${title} ===`);
    const check = await run(join(root, 'node_modules/.bin', command), args, root);
    if (check.code === 0) passed += 1;
    else {
      failed += 1;
      failedParts.push(title);
    }
  }
}

let testsRun = 0;
/** One package's mocha run, counted into the totals. */
async function runPackage(dir: string, specs: string[] | 'all', label: string, env: Record<string, string> = {}): Promise<void> {
  console.log(`\n=== ${label}${specs === 'all' ? '' : `: ${specs.join(' ')}`} ===`);
  const output = await run(join(root, 'node_modules/.bin/mocha'), ['--no-color', ...(specs === 'all' ? [] : specs)], join(root, dir), env);
  const p = count(output.text, 'passing');
  const f = count(output.text, 'failing');
  passed += p;
  failed += f;
  pending += count(output.text, 'pending');
  testsRun += p + f;
  // A suite that crashed before reporting, or that found no test, counts as one failure, never as silence.
  if (output.code !== 0 && f === 0) failed += 1;
  if (output.code !== 0) failedParts.push(label);
  const report = output.text.search(/^\s*\d+ failing/m);
  if (f > 0 && report >= 0) failureReports.push(`=== ${label} ===\n${clip(output.text.slice(report).trim())}`);
}

for (const { dir, specs } of runs) await runPackage(dir, specs, dir);

// MySQL as well as MariaDB (issue 17.8): the compose file ships MySQL, so the SQL must run on both.
if (process.argv.length <= 2 && process.env.TEST_MYSQL === 'skip') console.log('\n=== MySQL run left out (TEST_MYSQL=skip) ===');
else if (process.argv.length <= 2) {
  const mysqlScript = join(root, 'scripts/mysql-from-debian.sh');
  console.log("\n=== MySQL: starting a private server from Debian's packages ===");
  const started = await run('bash', [mysqlScript], root);
  if (started.code !== 0) {
    failed += 1;
    failedParts.push('MySQL server (scripts/mysql-from-debian.sh)');
  } else {
    // The script's last line names the port it chose (33806 unless that one was taken).
    const port = [...started.text.matchAll(/listening on 127\.0\.0\.1:(\d+)/g)].at(-1)?.[1] ?? '33806';
    const env = { TEST_DATABASE_URL: `mysql://root@127.0.0.1:${port}/` };
    for (const dir of DATABASE_PACKAGES) await runPackage(dir, 'all', `${dir} on MySQL`, env);
    await run('bash', [mysqlScript, 'stop'], root);
  }
}

if (testsRun === 0) {
  console.log('\nno test was executed: that is a failure, not a pass');
  if (failed === 0) failed = 1;
}
if (failureReports.length) console.log(`\n=== the failures again ===\n${failureReports.join('\n\n')}`);
if (failedParts.length) console.log(`\nfailed: ${failedParts.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
