import { existsSync } from 'node:fs';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Request } from 'playwright-core';
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
/** An untranslated bull-board label shows its i18n key, such as `MENU.QUEUES`. */
const I18N_KEY = /\b[A-Z]+(?:_[A-Z]+)*\.[A-Z]+(?:_[A-Z]+)*\b/;

/** Requests of a context to hosts other than the service are refused (as offline) and listed. */
async function offline(context: BrowserContext, serviceUrl: string): Promise<{ outside: string[]; posts: Request[] }> {
  const host = new URL(serviceUrl).host;
  const seen = { outside: [] as string[], posts: [] as Request[] };
  await context.route('**/*', (route) => {
    const req = route.request();
    if (new URL(req.url()).host !== host) {
      seen.outside.push(req.url());
      return route.abort('internetdisconnected');
    }
    if (req.method() === 'POST') seen.posts.push(req);
    return route.continue();
  });
  return seen;
}

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

  for (const how of ['a login prompt', 'credentials in the URL'] as const) {
    it(`when ops open the dashboard with ${how} and no network beyond the service, then it renders translated with no request to another host`, async () => {
      const context = await browser!.newContext(
        how === 'a login prompt' ? { httpCredentials: { username: CREDENTIALS.user, password: CREDENTIALS.password } } : {},
      );
      try {
        const seen = await offline(context, server.url);
        const page = await context.newPage();
        const signedIn = how === 'a login prompt' ? server.url : server.url.replace('//', `//${CREDENTIALS.user}:${CREDENTIALS.password}@`);
        await page.goto(`${signedIn}/admin/queues`);
        await page.getByText('agg-build', { exact: true }).first().waitFor();
        await page.getByText('agg-schedule', { exact: true }).first().waitFor();
        await page.getByPlaceholder('Filter queues').waitFor();
        const text = await page.locator('body').innerText();
        expect(text).to.include('QUEUES');
        expect(text).not.to.match(I18N_KEY);
        expect(seen.outside, 'requests to other hosts').to.deep.equal([]);
      } finally {
        await context.close();
      }
    });
  }

  it('when ops type days into the rerun form, then they show as typed (yyyy-MM-dd), and a wrong range is refused in the browser before anything is sent', async () => {
    const context = await browser!.newContext({
      httpCredentials: { username: CREDENTIALS.user, password: CREDENTIALS.password },
      locale: 'en-US',
    });
    try {
      const seen = await offline(context, server.url);
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/rerun`);
      const from = page.getByLabel('From (yyyy-MM-dd)');
      const to = page.getByLabel('To, inclusive (yyyy-MM-dd)');
      expect(await from.getAttribute('placeholder')).to.equal('yyyy-MM-dd');
      for (const [a, b, message] of [
        ['2026-05-02', '2026-05-01', 'To must not be before from'],
        ['2026-02-30', '2026-03-01', 'From must be a real day written yyyy-MM-dd'],
        ['05/01/2026', '2026-05-01', 'From must be a real day written yyyy-MM-dd'],
        ['2026-01-01', '2026-03-01', 'The range may span at most 31 days'],
      ] as const) {
        await from.fill(a);
        await to.fill(b);
        expect([await from.inputValue(), await to.inputValue()]).to.deep.equal([a, b]);
        await page.getByRole('button', { name: 'Queue rerun' }).click();
        expect(await page.locator('#range-check').innerText(), `${a} … ${b}`).to.equal(message);
        expect(page.url()).to.equal(`${server.url}/admin/rerun`);
      }
      expect(seen.posts, 'forms sent').to.deep.equal([]);
      await from.fill('2026-04-30');
      await to.fill('2026-05-30');
      expect(await page.locator('#range-check').innerText()).to.equal('');
      await page.getByLabel('Aggregate').selectOption('payway');
      await page.getByRole('button', { name: 'Queue rerun' }).click();
      // One job per month piece: the 30th of April, and the 1st to the 30th of May.
      await page.getByRole('status').filter({ hasText: '2 build job(s) queued' }).waitFor();
      expect(seen.posts).to.have.length(1);
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
