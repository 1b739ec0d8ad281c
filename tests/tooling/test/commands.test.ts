import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';

const root = join(import.meta.dirname, '../../..');

/** `pnpm <args>` as a user types it at the workspace root. */
function pnpm(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync('pnpm', args, { cwd: root, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, out: `${r.stdout}${r.stderr}` };
}
/** A line of a JavaScript stack trace. */
const STACK_FRAME = /^\s+at .+[(:]\d+/m;

describe('root commands as a user types them', () => {
  const secret = 'tooling-test-secret';

  for (const separator of [[], ['--']]) {
    const typed = ['dev:token', ...separator, '--user', 'md01', '--group', 'BO_MD'];
    it(`when \`pnpm ${typed.join(' ')}\` is typed, then it prints a token with those claims`, () => {
      const r = pnpm(typed, { JWT_SECRET: secret });
      expect(r.code, r.out).to.equal(0);
      const token = r.stdout.trim().split('\n').at(-1)!;
      const claims = jwt.verify(token, secret, { algorithms: ['HS256'] }) as jwt.JwtPayload;
      expect(claims).to.include({ sub: 'md01', workGrpCd: 'BO_MD' });
      expect(claims.exp! - claims.iat!).to.equal(12 * 3600);
    });
  }

  it('when `pnpm dev:token` is given a supplier, then the token carries entrNo', () => {
    const r = pnpm(['dev:token', '--user', 'entr01', '--group', 'BO_ENTR', '--entr', 'E0001', '--hours', '1'], { JWT_SECRET: secret });
    expect(r.code, r.out).to.equal(0);
    const claims = jwt.verify(r.stdout.trim().split('\n').at(-1)!, secret) as jwt.JwtPayload;
    expect(claims).to.include({ sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: 'E0001' });
    expect(claims.exp! - claims.iat!).to.equal(3600);
  });

  // Every root command with an unknown option, without and with `--`: the usage and exit 2.
  const usageErrors: [args: string[], usage: RegExp][] = [
    [['dev:token', '--usr', 'x'], /usage: pnpm dev:token/],
    [['dev:token', '--hours', 'soon'], /usage: pnpm dev:token/],
    [['test', '--bogus'], /usage: pnpm test/],
    [['db:migrate', '--bogus'], /usage: pnpm db:migrate/],
    [['db:rollback', '--bogus'], /usage: pnpm db:rollback/],
    [['db:seed', '--bogus'], /--help/],
    [['aggregate', '--bogus'], /Usage: pnpm aggregate/],
    [['retention', '--bogus'], /Usage: pnpm retention/],
    [['retention', '--keep-months', 'x'], /Usage: pnpm retention/],
    [['bench', '--bogus'], /usage: pnpm bench/],
    [['ai:eval', '--bogus'], /usage: pnpm ai:eval/],
    [['start', '--bogus'], /usage: pnpm start/],
  ];
  for (const [[command, ...rest], usage] of usageErrors) {
    for (const separator of [[], ['--']]) {
      const typed = [command!, ...separator, ...rest];
      it(`when \`pnpm ${typed.join(' ')}\` is typed, then it prints the usage and exits 2, without a stack trace`, () => {
        const r = pnpm(typed);
        expect(r.code, r.out).to.equal(2);
        expect(r.stderr).to.match(usage);
        expect(r.out).not.to.match(STACK_FRAME);
        expect(r.out).not.to.match(/\bTypeError\b|ERR_PARSE_ARGS/);
      });
    }
  }

  it('when `pnpm test -- <file>` is typed, then it runs that file as without `--`', () => {
    const file = 'packages/contracts/test/formats.test.ts';
    const plain = pnpm(['test', file]);
    const separated = pnpm(['test', '--', file]);
    expect(separated.code, separated.out).to.equal(0);
    const summary = (out: string) => out.match(/^\d+ passed, \d+ failed/m)?.[0];
    expect(summary(separated.stdout))
      .to.equal(summary(plain.stdout))
      .and.match(/^[1-9]\d* passed, 0 failed/);
  });

  it('when `pnpm dev:token --help` is typed, then it prints the usage and exits 0', () => {
    const r = pnpm(['dev:token', '--help']);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.include('usage: pnpm dev:token');
  });
});
