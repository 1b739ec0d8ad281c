import { expect } from 'chai';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { findOperation } from '@bo/contracts';
import { AppError, mountOperation } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/**
 * Operations are found by one lookup of method and path instead of Express's route walk: a
 * request must reach the same operation it reached through Express's routes, and nothing else.
 */
describe('operation dispatch: found by method and path, as Express routes match', () => {
  const LIST = '/v1/statistics/categoryStatus/getCategoryStatusList';
  const QUERY = '?startDate=2026-11-01&endDate=2026-11-02&agrtGb=01';
  const calls: string[] = [];
  const tag =
    (name: string, fail = false): RequestHandler =>
    (_req, _res, next) => {
      calls.push(name);
      next(fail ? new AppError('FORBIDDEN', { message: `${name} refused` }) : undefined);
    };
  const app = kitApp({
    docs: 'backoffice',
    routes: (r) => {
      r.get('/before-operations', (_req, res) => {
        res.json({ from: 'route' });
      });
      mountOperation(r, findOperation('getCategoryStatusList'), () => Promise.resolve({ from: 'category' }));
      mountOperation(r, findOperation('getPayWayStatusList'), () => Promise.resolve({ from: 'payway' }), {
        before: [tag('first'), tag('second')],
      });
      mountOperation(r, findOperation('getGoodsStatusList'), () => Promise.resolve({ from: 'goods' }), { before: [tag('refuse', true)] });
      r.get('/after-operations', (_req, res) => {
        res.json({ from: 'route' });
      });
    },
  });

  beforeEach(() => calls.splice(0));

  it('when the path is written in another case or with a trailing slash, then the operation answers (Express routes did too)', async () => {
    for (const path of [LIST, LIST.toLowerCase(), LIST.toUpperCase(), `${LIST}/`]) {
      const res = await request(app).get(`${PREFIX}${path}${QUERY}`);
      expect(res.status, path).to.equal(200);
      expect(res.body, path).to.deep.equal({ from: 'category' });
    }
  });

  it('when the method or the path differs, then nothing answers but the 404', async () => {
    for (const [method, path] of [
      ['post', LIST],
      ['delete', LIST],
      ['get', `${LIST}x`],
      ['get', `${LIST}//`],
      ['get', '/v1/statistics/categoryStatus'],
      ['get', `/x${LIST}`],
    ] as const) {
      const res = await request(app)[method](`${PREFIX}${path}${QUERY}`);
      expect(res.status, `${method} ${path}`).to.equal(404);
    }
  });

  it('when routes are mounted around the operations, then they still answer', async () => {
    expect((await request(app).get(`${PREFIX}/before-operations`)).body).to.deep.equal({ from: 'route' });
    expect((await request(app).get(`${PREFIX}/after-operations`)).body).to.deep.equal({ from: 'route' });
  });

  it('when an operation has handlers before it, then they run in order and then the operation; one that fails stops it', async () => {
    const ok = await request(app).get(`${PREFIX}/v1/statistics/payWayStatus/getPayWayStatusList${QUERY}`);
    expect(ok.body).to.deep.equal({ from: 'payway' });
    expect(calls).to.deep.equal(['first', 'second']);
    calls.splice(0);
    const refused = await request(app).get(`${PREFIX}/v1/statistics/goodsStatus/getGoodsStatusList${QUERY}`);
    expect(refused.status).to.equal(403);
    expect(refused.text).to.include('refuse refused').and.not.include('goods');
    expect(calls).to.deep.equal(['refuse']);
  });

  it('when a request is served, then the metrics count it under the operation path, not the raw one', async () => {
    await request(app).get(`${PREFIX}${LIST.toLowerCase()}/${QUERY}`);
    await request(app).get(`${PREFIX}/nowhere`);
    const metrics = (await request(app).get(`${PREFIX}/metrics`)).text;
    expect(metrics).to.match(new RegExp(`http_requests_total\\{[^}]*route="${PREFIX}${LIST}"[^}]*status="200"`));
    expect(metrics).to.match(/http_requests_total\{[^}]*route="unmatched"[^}]*status="404"/);
    expect(metrics).not.to.include(LIST.toLowerCase());
  });

  it('when one operation is mounted twice on a router, then mounting fails', () => {
    const op = findOperation('getCategoryStatusList');
    expect(() =>
      kitApp({
        routes: (r) => {
          mountOperation(r, op, () => Promise.resolve(1));
          mountOperation(r, op, () => Promise.resolve(2));
        },
      }),
    ).to.throw(/mounted twice/);
  });

  it('when an operation path is a pattern, then mounting fails instead of the operation answering 404', () => {
    for (const path of ['/v1/goods/:goodsNo', '/v1/files/*', '/v1/goods{/:goodsNo}?']) {
      const op = { ...findOperation('getCategoryStatusList'), path };
      expect(() => kitApp({ routes: (r) => mountOperation(r, op, () => Promise.resolve(1)) }), path).to.throw(/is a pattern/);
    }
  });
});
