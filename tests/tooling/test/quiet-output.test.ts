import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';

const root = join(import.meta.dirname, '../../..');
const TELEMETRY_BANNER = /collects completely anonymous telemetry/i;
const BUILD_SCRIPT_WARNING = /approve-builds|Ignored build scripts/i;

/** A home that never ran turbo: the first run is the one that shows the banner. */
function freshHome() {
  const home = mkdtempSync(join(tmpdir(), 'tooling-home-'));
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
}
const output = (r: ReturnType<typeof spawnSync>) => `${String(r.stdout)}${String(r.stderr)}`;

describe('normal output has no telemetry banner or build-script warning', function () {
  this.timeout(180_000);
  const cleanup: string[] = [];
  after(() => cleanup.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('when turbo runs for the first time through a pnpm script, then no telemetry banner is printed', () => {
    const [home, control] = [freshHome(), freshHome()];
    cleanup.push(home.HOME, control.HOME);
    // The same first run of turbo without the script's setting shows the banner: the check can fail.
    const bare = spawnSync(join(root, 'node_modules/.bin/turbo'), ['run', 'build', '--dry=json'], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...control, TURBO_TELEMETRY_DISABLED: '', DO_NOT_TRACK: '' },
    });
    expect(output(bare)).to.match(TELEMETRY_BANNER);
    const r = spawnSync('pnpm', ['build', '--dry=json'], { cwd: root, encoding: 'utf8', env: { ...process.env, ...home } });
    expect(r.status, output(r)).to.equal(0);
    expect(output(r)).not.to.match(TELEMETRY_BANNER);
  });

  it('when the workspace is installed into an empty folder, then pnpm reports no ignored build script', () => {
    // The manifests and the lockfile as a fresh clone has them; packages come from the local store.
    const clone = mkdtempSync(join(tmpdir(), 'tooling-install-'));
    cleanup.push(clone);
    const manifests = execFileSync('git', ['ls-files', 'package.json', '*/package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean);
    for (const file of manifests) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      copyFileSync(join(root, file), join(clone, file));
    }
    const r = spawnSync('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], { cwd: clone, encoding: 'utf8' });
    expect(r.status, output(r)).to.equal(0);
    expect(output(r)).not.to.match(BUILD_SCRIPT_WARNING);
  });
});
