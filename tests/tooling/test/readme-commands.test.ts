import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';

const root = join(import.meta.dirname, '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const scripts = Object.keys((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);

/** pnpm's own commands and flags the README uses (not scripts of package.json). */
const PNPM_OWN = new Set(['install', 'exec', 'add', '--filter', '-w', '-s', 'run', 'dlx']);

/** Every `pnpm <word>` the README writes, in code spans and code blocks. */
const pnpmCommands = () => [...readme.matchAll(/(?<![\w-])pnpm ((?:[a-z]+:)?[a-z-]+)/g)].map((m) => m[1]!);

describe('README on a fresh clone', () => {
  it('when the README names a pnpm command, then package.json has that script (or it is pnpm’s own)', () => {
    const named = pnpmCommands().filter((c) => !PNPM_OWN.has(c));
    expect(named.length).to.be.above(20);
    const missing = [...new Set(named)].filter((c) => !scripts.includes(c));
    // `pnpm token` appears only where the README says it is npm's command.
    expect(missing).to.deep.equal(['token']);
    expect(readme).to.match(/`pnpm token` prints an npm error \| the command is `pnpm dev:token`/);
  });

  it('when the Scripts table lists the commands, then every root script is there, and nothing else', () => {
    const table = readme.split('## Scripts')[1]!.split('\n### ')[0]!;
    const listed = new Set([...table.matchAll(/^\| `pnpm ([a-z:-]+)/gm)].map((m) => m[1]!));
    const internal = new Set(['lint:structure', 'lint:code', 'format', 'format:check']); // parts of `pnpm lint`
    const rootScripts = scripts.filter((s) => !internal.has(s));
    expect([...listed].sort()).to.include.members(rootScripts.filter((s) => !['typecheck', 'build'].includes(s)).sort());
    expect(table).to.include('`pnpm typecheck`, `pnpm build`');
    expect([...listed].filter((c) => !scripts.includes(c))).to.deep.equal([]);
  });

  it('when a fresh clone follows "two commands", then they are the install-and-start line and .ci/run', () => {
    const section = readme.split('## On a fresh machine: two commands')[1]!.split('\n## ')[0]!;
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    expect(blocks).to.deep.equal(['npm install -g pnpm@10.33.0 && pnpm install --frozen-lockfile && pnpm start', 'bash .ci/run']);
    const packageManager = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { packageManager: string }).packageManager;
    expect(packageManager).to.equal('pnpm@10.33.0');
    expect(readFileSync(join(root, '.ci/run'), 'utf8')).to.include('PNPM_VERSION=10.33.0');
  });
});
