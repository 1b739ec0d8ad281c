import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { addDays, boSourceMigrations, memberBaseMigrations, platformNow } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/testing';

const packageDir = join(import.meta.dirname, '..');
const TIME_ZONE = 'Asia/Seoul';

function runSeed(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli/seed.ts', ...args],
      { cwd: packageDir, env: { ...process.env, PLATFORM_TIME_ZONE: TIME_ZONE } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('seed CLI', function () {
  this.timeout(120_000);
  let bo: TestDatabase;
  let member: TestDatabase;
  before(async () => {
    bo = await createTestDatabase('cli', boSourceMigrations);
    member = await createTestDatabase('cli_m', memberBaseMigrations);
  });
  after(async () => {
    await bo?.drop();
    await member?.drop();
  });

  it('when asked for help, then it prints the options and exits 0', async () => {
    const r = await runSeed(['--', '--help']);
    expect(r.code).to.equal(0);
    for (const flag of [
      '--seed',
      '--days',
      '--goods',
      '--events-per-day',
      '--events',
      '--end-date',
      '--bo-url',
      '--member-url',
      '--if-empty',
      '--truncate',
    ]) {
      expect(r.stdout).to.include(flag);
    }
  });

  it('when given an unknown option or a bad number, then it names the problem and exits 2', async () => {
    const unknown = await runSeed(['--colour', 'red']);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.include('--colour');
    const bad = await runSeed(['--days', 'ten']);
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('--days must be a whole number');
  });

  it('when run without --end-date, then it loads a period ending today with nothing after now, and a second run with --if-empty loads nothing', async () => {
    const urls = ['--bo-url', bo.url, '--member-url', member.url];
    const r = await runSeed([...urls, '--days', '3', '--events', '900', '--goods', '40', '--seed', '5']);
    const now = platformNow(TIME_ZONE);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/ord_stat_evt\s+[\d,]+/);
    expect(r.stdout).to.match(/done in .* rows\/s/);
    const [[latest]] = (await bo.knex.raw(
      `SELECT (SELECT MAX(evt_dtm) FROM ord_stat_evt) AS evt, (SELECT MAX(inflow_dtm) FROM goods_inflow_log) AS inflow,
              (SELECT MAX(reg_dtm) FROM goods_review) AS review, (SELECT MAX(quest_dtm) FROM goods_qna) AS qna`,
    )) as [[Record<string, string>]];
    const [[limits]] = (await member.knex.raw('SELECT MAX(upd_dtm) AS staff_limit FROM staff_dc_lim')) as [[Record<string, string>]];
    for (const [table, dtm] of Object.entries({ ...latest, ...limits })) expect(dtm <= now, `${table} ${dtm} after ${now}`).to.equal(true);
    const [[first]] = (await bo.knex.raw(`SELECT MIN(evt_dtm) AS lo FROM ord_stat_evt`)) as [[{ lo: string }]];
    expect(first.lo.slice(0, 10)).to.equal(addDays(now.slice(0, 10), -2));

    const again = await runSeed([...urls, '--if-empty']);
    expect(again.code, again.stderr).to.equal(0);
    expect(again.stdout).to.include('nothing loaded');
  });
});
