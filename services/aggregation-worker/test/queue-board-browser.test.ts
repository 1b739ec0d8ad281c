import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import {
  createTestDatabase,
  type TestDatabase,
  testLogger,
  generateSourceData,
  insertSourceData,
  type SourceData,
  expectedDaily,
  storedRows,
} from '@bo/testing';
import { startHttpServer, type RunningServer } from '@bo/service-kit';
import { boMigrations } from '@bo/aggregates';
import { createWorkerApp } from '../src/app.ts';
import { createTestQueues, startTestWorkers, type TestQueueEnv } from './helpers/queue-env.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CREDENTIALS = { user: 'ops-browser', password: 'browser-test-secret' };
const DAY = '2026-05-01';
const SCREENSHOT = '/tmp/aggregation-dashboard.png';

describe('queue dashboard in a real browser', function () {
  this.timeout(90_000);
  let db: TestDatabase;
  let env: TestQueueEnv;
  let data: SourceData;
  let server: RunningServer;
  let workers: ReturnType<typeof startTestWorkers>;
  let browser: Browser | undefined;

  before(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `Chromium is missing at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
      );
    }
    db = await createTestDatabase('agg_browser', boMigrations);
    data = generateSourceData(5150, ['2026-04-30', DAY]);
    await insertSourceData(db.knex, data);
    env = createTestQueues('browser');
    workers = startTestWorkers(env, db.knex);
    const app = createWorkerApp({
      logger: testLogger(),
      knex: db.knex,
      redis: env.redis,
      queues: env.queues,
      credentials: CREDENTIALS,
      rerunMaxDays: 31,
    });
    server = await startHttpServer(app, 0, [], '127.0.0.1');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await workers?.close();
    await env?.close();
    await db?.drop();
  });

  it('when ops open the dashboard without credentials, then the browser is refused', async () => {
    const context = await browser!.newContext();
    try {
      // Headless Chromium has nobody to ask for the password the 401 requests: the navigation fails.
      const error = await (await context.newPage()).goto(`${server.url}/admin/queues`).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).to.match(/ERR_INVALID_AUTH_CREDENTIALS/);
      expect((await context.request.get(`${server.url}/admin/queues/api/queues`)).status()).to.equal(401);
    } finally {
      await context.close();
    }
  });

  it('when ops sign in, see the queues, and queue a rerun through the form, then the job completes on the board and the day is rebuilt', async () => {
    const context = await browser!.newContext({
      httpCredentials: { username: CREDENTIALS.user, password: CREDENTIALS.password },
      viewport: { width: 1280, height: 900 },
    });
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/queues`);
      await page.getByText('agg-build', { exact: true }).first().waitFor();
      await page.getByText('agg-schedule', { exact: true }).first().waitFor();

      // bull-board puts the configured links in the menu behind the right-most header button.
      await page.locator('header button').last().click();
      await page.getByText('Rerun aggregates').click();
      await page.getByLabel('Aggregate').selectOption('goods');
      await page.getByLabel('From (yyyy-MM-dd)').fill(DAY);
      await page.getByLabel('To, inclusive (yyyy-MM-dd)').fill(DAY);
      await page.getByRole('button', { name: 'Queue rerun' }).click();
      await page.getByRole('status').filter({ hasText: '1 build job(s) queued' }).waitFor();

      await page.getByRole('link', { name: `build-goods-${DAY}` }).click();
      await page.getByText(`build-goods-${DAY}`).first().waitFor();
      await page.goto(`${server.url}/admin/queues/queue/agg-build?status=completed`);
      await page.getByText(`build-goods-${DAY}`).first().waitFor({ timeout: 30_000 });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      expect(await (await env.queues.build.getJob(`build-goods-${DAY}`))?.getState()).to.equal('completed');
      expect(await storedRows(db.knex, 'goods', DAY)).to.deep.equal(expectedDaily(data, 'goods', DAY));
    } finally {
      await context.close();
    }
  });
});
