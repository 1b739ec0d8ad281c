/**
 * `pnpm test`: every package's mocha suite, one package at a time (the machine has two cores
 * and one MariaDB), then one closing line `N passed, N failed`. Exit code 1 if anything failed.
 * `pnpm test services/member` runs the packages whose folder starts with the argument
 * (`pnpm test:faults` is `pnpm test tests/faults`).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const hasTests = (dir: string): boolean =>
  existsSync(dir) && readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((f) => f.endsWith('.test.ts'));

const root = join(import.meta.dirname, '..');
const filter = process.argv[2];
const packages = ['packages', 'services']
  .flatMap((dir) => readdirSync(join(root, dir)).map((name) => `${dir}/${name}`))
  // The fault tests last: they start the real processes against their own MariaDB and Redis.
  .concat(['bench', 'tests/faults'])
  .filter((dir) => existsSync(join(root, dir, '.mocharc.json')) && hasTests(join(root, dir, 'test')))
  .filter((dir) => !filter || dir.startsWith(filter));

let passed = 0;
let failed = 0;
let pending = 0;
const failedPackages: string[] = [];

/** Run a command, echo its output, resolve with the text and exit code. */
function run(command: string, args: string[], cwd: string): Promise<{ text: string; code: number }> {
  return new Promise((resolve) => {
    let text = '';
    const child = spawn(command, args, { cwd, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
    child.stdout.on('data', (d: Buffer) => {
      process.stdout.write(d);
      text += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => process.stderr.write(d));
    child.on('close', (code) => resolve({ text, code: code ?? 1 }));
  });
}

// Type errors are test failures too: one check for the whole workspace.
if (!filter) {
  console.log('=== typecheck (all packages) ===');
  const packagesTypecheck = await run(join(root, 'node_modules/.bin/turbo'), ['run', 'typecheck', '--output-logs=errors-only'], root);
  const scriptsTypecheck = await run(join(root, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], root);
  if (packagesTypecheck.code === 0 && scriptsTypecheck.code === 0) passed += 1;
  else {
    failed += 1;
    failedPackages.push('typecheck');
  }
  console.log('=== README configuration table matches the config schemas ===');
  const configTable = await run(join(root, 'node_modules/.bin/tsx'), ['scripts/config-table.ts', '--check'], root);
  if (configTable.code === 0) passed += 1;
  else {
    failed += 1;
    failedPackages.push('README configuration table');
  }
}

for (const dir of packages) {
  console.log(`\n=== ${dir} ===`);
  const output = await run(join(root, 'node_modules/.bin/mocha'), ['--no-color'], join(root, dir));
  const count = (word: string) => Number(output.text.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  const p = count('passing');
  const f = count('failing');
  passed += p;
  failed += f;
  pending += count('pending');
  // A suite that crashed before reporting counts as one failure, never as silence.
  if (output.code !== 0 && f === 0) failed += 1;
  if (output.code !== 0) failedPackages.push(dir);
}

if (failedPackages.length) console.log(`\nfailed packages: ${failedPackages.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed${pending ? `, ${pending} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
