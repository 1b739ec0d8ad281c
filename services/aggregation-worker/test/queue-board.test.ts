import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { AGGREGATE_KINDS } from '@bo/contracts';
import request from 'supertest';
import type { Express } from 'express';
import { createTestDatabase, type TestDatabase, testLogger } from '@bo/testing';
import type { Readiness } from '@bo/service-kit';
import { boMigrations } from '@bo/aggregates';
import { createWorkerApp } from '../src/app.ts';
import { DEV_DASHBOARD_PASSWORD, DEV_DASHBOARD_USER } from '../src/config.ts';
import { createTestQueues, keysUnder, testPrefix, type TestQueueEnv } from './helpers/queue-env.ts';

const CREDENTIALS = { user: 'ops-test', password: 'dashboard-secret-42' };
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const OPS = basic(CREDENTIALS.user, CREDENTIALS.password);

describe('queue dashboard', () => {
  let db: TestDatabase;
  let env: TestQueueEnv;
  let app: Express;

  before(async () => {
    db = await createTestDatabase('agg_dashboard', boMigrations);
    env = createTestQueues('dash');
    app = createWorkerApp({
      logger: testLogger(),
      knex: db.knex,
      redis: env.redis,
      queues: env.queues,
      credentials: CREDENTIALS,
      rerunMaxDays: 31,
    });
  });
  after(async () => {
    await env?.close();
    await db?.drop();
  });

  /** The form token of the rerun form, as a browser gets it with the form. */
  async function formToken(): Promise<string> {
    const form = await request(app).get('/admin/rerun').set('Authorization', OPS);
    return /name="_csrf" value="([^"]+)"/.exec(form.text)![1]!;
  }
  const rerun = async (form: object) =>
    request(app)
      .post('/admin/rerun')
      .set('Authorization', OPS)
      .type('form')
      .send({ ...form, _csrf: await formToken() });

  /** The pages, the board's API (reads and the writes ops use) and the rerun form. */
  const GUARDED: { method: 'get' | 'post' | 'put'; path: string; form?: object; json?: object }[] = [
    { method: 'get', path: '/admin/queues' },
    { method: 'get', path: '/admin/queues/api/queues' },
    { method: 'get', path: '/admin/queues/api/redis/stats' },
    { method: 'get', path: '/admin/rerun' },
    { method: 'post', path: '/admin/rerun', form: { kind: 'goods', from: '2026-05-01', to: '2026-05-01' } },
    { method: 'post', path: '/admin/queues/api/queues/agg-build/add', json: { name: 'build', data: { kind: 'goods', day: '2026-05-01' } } },
    { method: 'put', path: '/admin/queues/api/queues/agg-build/pause' },
    { method: 'put', path: '/admin/queues/api/queues/pause' },
    { method: 'put', path: '/admin/queues/api/queues/agg-build/retry/failed' },
    { method: 'put', path: '/admin/queues/api/queues/agg-build/clean/completed' },
    { method: 'put', path: '/admin/queues/api/queues/agg-build/empty' },
    { method: 'put', path: '/admin/queues/api/queues/agg-build/obliterate' },
  ];

  for (const [label, header] of [
    ['no credentials', undefined],
    ['a wrong password', basic(CREDENTIALS.user, 'dashboard-secret-43')],
    ['a wrong user', basic('ops', CREDENTIALS.password)],
    ['the user with an empty password', basic(CREDENTIALS.user, '')],
    ['basic credentials without a colon', `Basic ${Buffer.from(`${CREDENTIALS.user}${CREDENTIALS.password}`).toString('base64')}`],
    ['a bearer token', 'Bearer abc'],
  ] as const) {
    it(`when the dashboard, its API or the rerun form is asked with ${label}, then 401, basic credentials asked for, and the queues untouched`, async () => {
      const before = await env.queues.build.getJobCounts();
      for (const r of GUARDED) {
        let req = request(app)[r.method](r.path);
        if (r.form) req = req.type('form').send(r.form);
        if (r.json) req = req.send(r.json);
        const res = await (header ? req.set('Authorization', header) : req);
        expect(res.status, `${r.method} ${r.path}`).to.equal(401);
        expect(res.headers['www-authenticate']).to.match(/^Basic realm=/);
        expect(res.body).to.include({ code: '1101', httpStatus: 401 });
      }
      expect(await env.queues.build.getJobCounts()).to.deep.equal(before);
      expect(await env.queues.build.isPaused()).to.equal(false);
      expect(await env.queues.schedule.isPaused()).to.equal(false);
    });
  }

  it('when ops sign in, then the board page renders and its API lists both queues', async () => {
    const page = await request(app).get('/admin/queues').set('Authorization', OPS);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('<div id="root">');
    const api = await request(app).get('/admin/queues/api/queues').set('Authorization', OPS);
    expect(api.status).to.equal(200);
    expect((api.body as { queues: { name: string }[] }).queues.map((q) => q.name).sort()).to.deep.equal(['agg-build', 'agg-schedule']);
  });

  it('when the rerun form is submitted with a range across a month end, then one job per kind and month piece is queued with a deterministic id', async () => {
    const res = await rerun({ kind: 'all', from: '2026-04-29', to: '2026-05-02' });
    expect(res.status).to.equal(202);
    const jobs = await env.queues.build.getJobs(['waiting']);
    const ids = jobs.map((j) => j.id).sort();
    expect(ids).to.have.length(2 * AGGREGATE_KINDS.length);
    expect(ids).to.include.members([
      'build-category-2026-04-29..2026-04-30',
      'build-inflow-2026-05-01..2026-05-02',
      'build-entr-2026-05-01..2026-05-02',
    ]);
    expect(ids.every((id) => !id!.includes(':'))).to.equal(true);
    expect((await env.queues.build.getJob('build-goods-2026-05-01..2026-05-02'))?.data).to.deep.equal({
      kind: 'goods',
      day: '2026-05-01',
      toDay: '2026-05-02',
      requestedBy: 'dashboard',
    });
    expect(res.text).to.include('build-payway-2026-04-29..2026-04-30');
    expect(res.text).to.include('payway 2026-04-29..2026-04-30');
  });

  it('when the same rerun is submitted again while its jobs wait, then the duplicates collapse into the waiting jobs', async () => {
    const res = await rerun({ kind: 'payway', from: '2026-04-29', to: '2026-04-30' });
    expect(res.status).to.equal(202);
    expect(res.text).to.include('already queued or running');
    expect(await env.queues.build.getJobCountByTypes('waiting')).to.equal(2 * AGGREGATE_KINDS.length);
  });

  for (const [label, form, field, message] of [
    ['an unknown kind', { kind: 'weekly', from: '2026-05-01', to: '2026-05-01' }, 'kind', 'must be one of'],
    ['an impossible date', { kind: 'goods', from: '2026-02-30', to: '2026-03-01' }, 'from', 'must be a valid date'],
    ['a range ending before it starts', { kind: 'goods', from: '2026-05-02', to: '2026-05-01' }, 'to', 'must not be before from'],
    ['a range longer than allowed', { kind: 'goods', from: '2026-01-01', to: '2026-03-01' }, 'to', 'at most 31 days'],
    ['a missing day', { kind: 'goods', from: '2026-05-01' }, 'to', 'is required'],
  ] as const) {
    it(`when the rerun form is submitted with ${label}, then it answers 400, names the field and queues nothing`, async () => {
      const before = await env.queues.build.count();
      const res = await rerun(form);
      expect(res.status).to.equal(400);
      expect(res.text).to.match(new RegExp(`<li><strong>${field}</strong> [^<]*${message}`));
      expect(res.text).to.include('The rerun was not queued');
      expect(await env.queues.build.count()).to.equal(before);
    });
  }

  for (const [label, token, headers] of [
    ['without the form token', undefined, {}],
    ['with a wrong form token', 'forged-token', {}],
    ['from a page of another site (Origin)', 'valid', { Origin: 'http://evil.example' }],
    ['from a page of another site (Sec-Fetch-Site)', 'valid', { 'Sec-Fetch-Site': 'cross-site' }],
  ] as const) {
    it(`when a signed-in browser posts the rerun form ${label}, then 403 and nothing is queued`, async () => {
      const before = await env.queues.build.count();
      const form = {
        kind: 'goods',
        from: '2026-03-01',
        to: '2026-03-01',
        ...(token ? { _csrf: token === 'valid' ? await formToken() : token } : {}),
      };
      const res = await request(app).post('/admin/rerun').set('Authorization', OPS).set(headers).type('form').send(form);
      expect(res.status).to.equal(403);
      expect(res.body).to.include({ code: '1201', httpStatus: 403 });
      expect(await env.queues.build.count()).to.equal(before);
    });
  }

  it('when a page of another site makes a signed-in browser pause a queue through the board API, then 403 and the queue keeps running', async () => {
    const res = await request(app)
      .put('/admin/queues/api/queues/agg-build/pause')
      .set('Authorization', OPS)
      .set('Origin', 'http://evil.example');
    expect(res.status).to.equal(403);
    expect(await env.queues.build.isPaused()).to.equal(false);
  });

  it('when the board itself pauses and resumes a queue (same Origin), then both are done', async () => {
    const board = (action: string) =>
      request(app)
        .put(`/admin/queues/api/queues/agg-build/${action}`)
        .set('Authorization', OPS)
        .set('Host', 'ops.internal:3003')
        .set('Origin', 'http://ops.internal:3003')
        .set('Sec-Fetch-Site', 'same-origin');
    expect((await board('pause')).status).to.equal(200);
    expect(await env.queues.build.isPaused()).to.equal(true);
    expect((await board('resume')).status).to.equal(200);
    expect(await env.queues.build.isPaused()).to.equal(false);
  });

  it('when the rerun form is posted through the gateway (Host without its port) by a browser that sends Origin only, then it is accepted', async () => {
    const res = await request(app)
      .post('/admin/rerun')
      .set('Authorization', OPS)
      .set('Host', 'ops.internal')
      .set('Origin', 'http://ops.internal:8080')
      .type('form')
      .send({ kind: 'goods', from: '2026-03-03', to: '2026-03-03', _csrf: await formToken() });
    expect(res.status).to.equal(202);
  });

  it('when the rerun form is posted from the dashboard itself (same Origin) with its token, then it is accepted', async () => {
    const res = await request(app)
      .post('/admin/rerun')
      .set('Authorization', OPS)
      .set('Host', 'ops.internal:3003')
      .set('Origin', 'http://ops.internal:3003')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ kind: 'goods', from: '2026-03-02', to: '2026-03-02', _csrf: await formToken() });
    expect(res.status).to.equal(202);
  });

  it('when the README gives the development dashboard credentials, then they are the ones the worker and pnpm start use', () => {
    const root = join(import.meta.dirname, '..', '..', '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const [, user, password] = /queue dashboard \| [^|]*development credentials `([^`]+)` \/ `([^`]+)`/.exec(readme) ?? [];
    expect([user, password]).to.deep.equal([DEV_DASHBOARD_USER, DEV_DASHBOARD_PASSWORD]);
    // `pnpm start` may set them itself; then to the same pair.
    const start = readFileSync(join(root, 'scripts', 'start-all.ts'), 'utf8');
    for (const [name, value] of [
      ['QUEUE_DASHBOARD_USER', DEV_DASHBOARD_USER],
      ['QUEUE_DASHBOARD_PASSWORD', DEV_DASHBOARD_PASSWORD],
    ] as const)
      for (const m of start.matchAll(new RegExp(`${name}: '([^']*)'`, 'g')))
        expect(m[1], `${name} in scripts/start-all.ts`).to.equal(value);
  });

  it('when the worker runs, then /health is up and /ready checks the database and Redis', async () => {
    expect((await request(app).get('/health')).body).to.deep.equal({ status: 'UP' });
    const ready = await request(app).get('/ready');
    expect(ready.status).to.equal(200);
    expect(Object.keys((ready.body as Readiness).checks).sort()).to.deep.equal(['database', 'redis']);
  });

  it('when jobs are queued under this test prefix, then every key is under it and another prefix sees nothing', async () => {
    const keys = await keysUnder(env.redis, env.prefix);
    expect(keys.some((k) => k.startsWith(`${env.prefix}:agg-build:build-goods-2026-05-01`))).to.equal(true);
    const other = testPrefix('other');
    expect(await keysUnder(env.redis, other)).to.deep.equal([]);
    const otherEnv = createTestQueues('other');
    try {
      expect(await otherEnv.queues.build.count()).to.equal(0);
    } finally {
      await otherEnv.close();
    }
  });
});
