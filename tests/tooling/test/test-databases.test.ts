import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { expect } from 'chai';
import { createKnex, type Knex } from '@bo/db';
import { createTestDatabase, TEST_SERVER_URL } from '@bo/testing';
import { databasesToDrop } from '../../../scripts/test-database-selection.ts';

const root = join(import.meta.dirname, '../../..');

describe('which test databases a CI run drops (scripts/test-databases.ts)', () => {
  describe('the selection', () => {
    // Hand-written cases: run id "ci42", limit 24 h.
    const cases: [name: string, hours: number | null, dropped: boolean, why: string][] = [
      ['t_member_ab12cd34_rci42', 0.1, true, "this run's, just made"],
      ['t_member_ab12cd34_rci42', null, true, "this run's, no table yet"],
      ['t_member_ab12cd34_rci421', 0.1, false, 'another run whose id starts like ours'],
      ['t_member_ab12cd34_rci7', 0.1, false, "another run's, running now"],
      ['t_member_ab12cd34', 2, false, 'a developer’s test, running now'],
      ['t_member_ab12cd34', 25, true, 'left over for more than a day'],
      ['t_member_ab12cd34', 24, false, 'exactly a day: not older than a day'],
      ['t_member_ab12cd34', null, false, 'no table: age unknown'],
      ['bo', 1000, false, 'not a test database'],
      ['bench_bo', 1000, false, 'not a test database'],
      ['tmp_rci42', 0, false, 'not a test database, even with the suffix'],
    ];
    for (const [name, hours, dropped, why] of cases) {
      it(`when ${name} (${hours ?? 'no'} h) meets run ci42, then it is ${dropped ? 'dropped' : 'kept'}: ${why}`, () => {
        expect(databasesToDrop([{ name, newestTableHours: hours }], 'ci42', 24)).to.deep.equal(dropped ? [name] : []);
      });
    }

    it('when no run id is given, then only databases older than the limit are dropped', () => {
      const all = [
        { name: 't_a_1_rci42', newestTableHours: 1 },
        { name: 't_b_2', newestTableHours: 30 },
      ];
      expect(databasesToDrop(all, undefined, 24)).to.deep.equal(['t_b_2']);
    });
  });

  describe('the command against the real server', function () {
    this.timeout(120_000);
    const runId = `tt${randomBytes(3).toString('hex')}`;
    const suffix = randomBytes(3).toString('hex');
    const names = {
      own: `t_tooling_own_${suffix}_r${runId}`,
      otherRun: `t_tooling_oth_${suffix}_rzz${runId}`,
      developer: `t_tooling_dev_${suffix}`,
    };
    let server: Knex;

    before(async () => {
      server = createKnex(TEST_SERVER_URL, { poolMax: 1 });
      for (const name of Object.values(names)) {
        await server.raw('CREATE DATABASE ??', [name]);
        await server.raw('CREATE TABLE ??.t (id INT PRIMARY KEY)', [name]);
      }
    });
    after(async () => {
      for (const name of Object.values(names)) await server.raw('DROP DATABASE IF EXISTS ??', [name]);
      await server.destroy();
    });
    const exists = async (name: string) =>
      ((await server.raw('SHOW DATABASES LIKE ?', [name.replace(/_/g, '\\_')])) as [unknown[]])[0].length === 1;

    it('when .ci/run ends with --run <id>, then its own database goes and the others stay', async () => {
      const r = spawnSync('pnpm', ['exec', 'tsx', 'scripts/test-databases.ts', '--run', runId], { cwd: root, encoding: 'utf8' });
      expect(r.status, r.stdout + r.stderr).to.equal(0);
      expect(r.stdout).to.include(names.own);
      expect(await exists(names.own)).to.equal(false);
      expect(await exists(names.otherRun)).to.equal(true);
      expect(await exists(names.developer)).to.equal(true);
    });

    it('when TEST_RUN_ID is set, then createTestDatabase names the database for the run', async () => {
      process.env.TEST_RUN_ID = runId;
      try {
        const db = await createTestDatabase('tooling', []);
        await db.drop();
        expect(db.name).to.match(new RegExp(`^t_tooling_[0-9a-f]{8}_r${runId}$`));
      } finally {
        delete process.env.TEST_RUN_ID;
      }
    });

    it('when asked for databases older than 0 hours (dry run), then ages come from information_schema and nothing is dropped', () => {
      const dry = (hours: string) =>
        spawnSync('pnpm', ['exec', 'tsx', 'scripts/test-databases.ts', '--dry-run', '--older-than-hours', hours], {
          cwd: root,
          encoding: 'utf8',
        }).stdout;
      expect(dry('0')).to.include(names.developer);
      expect(dry('24')).not.to.include(names.developer);
    });
  });
});
