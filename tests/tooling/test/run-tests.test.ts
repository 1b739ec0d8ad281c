import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';

const root = join(import.meta.dirname, '../../..');

/** `pnpm test …` as a user types it in `cwd`. */
function pnpmTest(args: string[], cwd = root, env: Record<string, string> = {}) {
  const r = spawnSync('pnpm', ['test', ...args], { cwd, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0', ...env } });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}
const summary = (out: string) => {
  const m = out.match(/^(\d+) passed, (\d+) failed/m);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : undefined;
};

describe('pnpm test (the workspace test runner)', () => {
  it('when given one test file, then it runs that file alone', () => {
    const { code, out } = pnpmTest(['packages/contracts/test/formats.test.ts']);
    expect(code, out).to.equal(0);
    expect(out).to.match(/=== packages\/contracts: test\/formats\.test\.ts ===/);
    // error-codes.test.ts is the package's other file: none of its suites may appear.
    expect(out).not.to.include('error-code catalogue');
    const whole = summary(pnpmTest(['packages/contracts']).out);
    const one = summary(out);
    expect(one!.passed).to.be.above(0).and.below(whole!.passed);
    expect(one!.failed).to.equal(0);
  });

  it('when typed inside a package, then a relative file runs alone, with the package script or the workspace runner', () => {
    const cwd = join(root, 'packages/contracts');
    const own = pnpmTest(['test/formats.test.ts'], cwd); // the package's own `mocha`
    expect(own.code, own.out).to.equal(0);
    expect(own.out).not.to.include('error-code catalogue');
    const r = spawnSync('pnpm', ['-w', 'test', 'test/formats.test.ts'], { cwd, encoding: 'utf8' });
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).not.to.include('error-code catalogue');
    expect(summary(r.stdout)!.passed).to.equal(Number(own.out.match(/(\d+) passing/)?.[1]));
  });

  it('when the path matches nothing, then it exits non-zero and says so', () => {
    const { code, out } = pnpmTest(['services/member/test/some.test.ts']);
    expect(code).to.not.equal(0);
    expect(out).to.include('no such file or folder: services/member/test/some.test.ts');
    expect(out).not.to.match(/^0 passed, 0 failed/m);
  });

  it('when the path holds no test file, then it exits non-zero and says so', () => {
    const { code, out } = pnpmTest(['packages/contracts/src']);
    expect(code).to.not.equal(0);
    expect(out).to.include('holds no test file');
  });

  it('when the run executes no test, then it is a failure', () => {
    const { code, out } = pnpmTest(['tests/tooling/test/fixtures/no-tests.test.ts']);
    expect(code).to.equal(1);
    expect(summary(out)).to.deep.equal({ passed: 0, failed: 1 });
  });

  it('when a test fails, then its title and message are printed again after every suite, just above the summary', () => {
    const { code, out } = pnpmTest(['tests/tooling/test/fixtures/one-fails.test.ts'], root, { BO_RUN_TESTS_FIXTURE: 'fail' });
    expect(code, out).to.equal(1);
    expect(summary(out)).to.deep.equal({ passed: 1, failed: 1 });
    const again = out.lastIndexOf('=== the failures again ===');
    expect(again, out).to.be.above(out.indexOf('1 failing'));
    const tail = out.slice(again);
    expect(tail).to.include('=== tests/tooling ===');
    expect(tail).to.include('when this fails, then its title and message come again at the end');
    expect(tail).to.match(/a fixture failure\s+\+ expected - actual\s+-the value seen\s+\+the value wanted/);
    expect(tail.indexOf('failed: tests/tooling')).to.be.above(tail.indexOf('+the value wanted'));
  });

  it('when mocha is run inside a package with one file, then only that file runs', () => {
    const r = spawnSync(join(root, 'node_modules/.bin/mocha'), ['--no-color', 'test/formats.test.ts'], {
      cwd: join(root, 'packages/contracts'),
      encoding: 'utf8',
    });
    expect(r.status, r.stdout + r.stderr).to.equal(0);
    expect(r.stdout).not.to.include('error-code catalogue');
    const only = Number(r.stdout.match(/(\d+) passing/)?.[1]);
    const all = spawnSync(join(root, 'node_modules/.bin/mocha'), ['--no-color'], {
      cwd: join(root, 'packages/contracts'),
      encoding: 'utf8',
    });
    expect(only)
      .to.be.above(0)
      .and.below(Number(all.stdout.match(/(\d+) passing/)?.[1]));
  });
});
