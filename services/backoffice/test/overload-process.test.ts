import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import request from 'supertest';
import { createTestDatabase, holdTables, type TestDatabase, ADMIN, bearer, TEST_JWT_SECRET, freePort } from '@bo/testing';
import { boMigrations } from '@bo/aggregates';

const AUTH = bearer(ADMIN);
// Three days, no whole month: the list reads the daily aggregate only.
const PAY_WAY = '/api/bo/v1/statistics/payWayStatus/getPayWayStatusList?startDate=2026-01-03&endDate=2026-01-05&agrtGb=01';
const SALE_STOCK = '/api/bo/v2/dashboard/goods/sale-stock-status';
const OVERLOADED = { code: '1503', message: 'The database is overloaded; try again shortly', httpStatus: 503, isProcess: false };

/**
 * The back-office process as `pnpm start` runs it, configured only through its environment: the
 * pool settings (DB_POOL_MAX, DB_ACQUIRE_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS) are applied by
 * `main.ts`, so this is where they are seen working.
 */
describe('overload of the real back-office process: a held table and a full pool answer 503', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let child: ChildProcess;
  let url: string;
  let output = '';

  before(async () => {
    db = await createTestDatabase('bo_overload', boMigrations);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: new URL('..', import.meta.url).pathname,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        BO_PORT: String(port),
        BO_DATABASE_URL: db.url,
        JWT_SECRET: TEST_JWT_SECRET,
        DB_POOL_MAX: '1',
        DB_ACQUIRE_TIMEOUT_MS: '300',
        DB_STATEMENT_TIMEOUT_MS: '2000',
        AI_RATE_LIMIT_PER_MINUTE: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the back-office process exited:\n${output}`);
      const up = await fetch(`${url}/api/bo/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await db?.drop();
  });

  it('when a statistics read waits on a locked table past DB_STATEMENT_TIMEOUT_MS, and meanwhile a second request finds the pool of 1 busy, then both answer 900/1503 with Retry-After, neither 500 nor a hang', async () => {
    // LOCK TABLES … WRITE makes every read of the table wait: a statement that cannot finish.
    // An unfiltered list reads the every-site roll-up; both tables are held so either read waits.
    const hold = await holdTables(db.knex, db.name, ['agg_payway_daily', 'agg_payway_daily_all']);
    try {
      const slow = request(url)
        .get(PAY_WAY)
        .set('Authorization', AUTH)
        .timeout(20_000)
        .then((r) => r);
      // The slow read has the only connection once the server shows it waiting for the table.
      for (let tries = 0; ; tries++) {
        if (tries === 100)
          throw new Error(`the statistics read never waited on the table; it answered ${JSON.stringify((await slow).body)}`);
        if ((await hold.waiting()).some((sql) => sql.includes('agg_payway_daily'))) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      const crowded = await request(url).get(SALE_STOCK).set('Authorization', AUTH).timeout(20_000);
      expect(crowded.status, JSON.stringify(crowded.body)).to.equal(900);
      expect(crowded.body).to.deep.equal(OVERLOADED);
      expect(crowded.headers['retry-after']).to.equal('5');

      const stopped = await slow;
      expect(stopped.status, JSON.stringify(stopped.body)).to.equal(900);
      expect(stopped.body).to.deep.equal(OVERLOADED);
      expect(stopped.headers['retry-after']).to.equal('5');
    } finally {
      await hold.release();
    }

    const recovered = await request(url).get(PAY_WAY).set('Authorization', AUTH).timeout(20_000);
    expect(recovered.status).to.equal(200);
    expect(recovered.body).to.deep.equal({ totalCount: 0, payloads: [] });
    expect(output).to.not.match(/"level":"error"/);
  });
});
