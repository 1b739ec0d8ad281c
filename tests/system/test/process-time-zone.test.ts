import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { exitOf } from '@bo/testing';

/**
 * Issue 17.6: every stored DATETIME is local time of PLATFORM_TIME_ZONE (Asia/Seoul), so
 * nothing may depend on the time zone of the process. The tests that put rows and clocks on
 * Seoul's midnight and window edges — statistics, the dashboard review window, the schedule
 * targets, the real 09:00 run through BullMQ workers, the member history — run again here in
 * processes whose TZ is far from Seoul on either side.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const MOCHA = `${REPO}node_modules/.bin/mocha`;

const SUITES: { folder: string; files: string[] }[] = [
  { folder: 'services/backoffice', files: ['test/statistics/midnight.test.ts', 'test/dashboard/review-status.test.ts'] },
  { folder: 'services/aggregation-worker', files: ['test/midnight.test.ts', 'test/schedules.test.ts'] },
  { folder: 'services/member', files: ['test/staff-limit-change.test.ts'] },
];

async function runWithTz(tz: string, folder: string, files: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn(MOCHA, files, {
    cwd: `${REPO}${folder}`,
    env: { ...process.env, TZ: tz, PLATFORM_TIME_ZONE: 'Asia/Seoul' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const { code } = await exitOf(child);
  return { code, output };
}

describe('the services and the worker in a process whose TZ is not the platform zone', function () {
  this.timeout(300_000);

  for (const tz of ['America/Los_Angeles', 'Pacific/Kiritimati']) {
    for (const { folder, files } of SUITES) {
      it(`when ${folder} runs its time-edge tests with TZ=${tz}, then they pass as they do in Seoul`, async () => {
        const { code, output } = await runWithTz(tz, folder, files);
        expect(code, output.slice(-4000)).to.equal(0);
        expect(output).to.match(/\d+ passing/);
        expect(output).to.not.match(/\d+ failing/);
      });
    }
  }

  it('when a child process is given TZ, then its clock really is in that zone (the runs above are not in Seoul)', async () => {
    const child = spawn(process.execPath, ['-e', 'console.log(new Date(Date.UTC(2026, 0, 1)).getTimezoneOffset())'], {
      env: { ...process.env, TZ: 'America/Los_Angeles' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await exitOf(child);
    expect(Number(out.trim())).to.equal(480);
  });
});
