import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Express } from 'express';
import { startHttpServer, type RunningServer } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/**
 * The services' HTTP server builds each request and response with the app's prototypes, so
 * Express's re-parenting of them (the cost of a third of a cheap read) changes nothing. Express
 * must behave exactly as on Node's own classes.
 */
describe('startHttpServer: requests and responses born as the Express app’s', () => {
  let app: Express;
  let running: RunningServer;
  let plain: Server;
  let plainUrl: string;
  /** Per server: whether the last request and response had the app's prototypes before the app saw them. */
  const born = new Map<Server, boolean>();
  const watch = (server: Server) =>
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.set(server, Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
    });

  before(async () => {
    app = kitApp({
      routes: (router) => {
        router.get('/echo', (req, res) => {
          res.json({ query: req.query, accept: req.get('accept'), path: req.path, baseUrl: req.baseUrl, protocol: req.protocol });
        });
        router.post('/echo', (req, res) => {
          res.status(201).type('json').send(JSON.stringify(req.body));
        });
      },
    });
    running = await startHttpServer(app, 0, [], '127.0.0.1');
    watch(running.server);
    plain = createServer(app);
    watch(plain);
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  });
  after(async () => {
    await running.close();
    await new Promise((resolve) => plain.close(resolve));
  });

  const exchange = async (base: string) => {
    const get = await fetch(`${base}${PREFIX}/echo?a=1&b=%ED%95%9C`, { headers: { accept: 'application/json' } });
    const post = await fetch(`${base}${PREFIX}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":[1,"둘"]}',
    });
    const missing = await fetch(`${base}${PREFIX}/nothing-here`);
    return {
      get: { status: get.status, type: get.headers.get('content-type'), hasId: get.headers.has('x-request-id'), body: await get.json() },
      post: { status: post.status, body: await post.json() },
      missing: { status: missing.status, body: await missing.json() },
    };
  };

  it('when the service server answers, then its request and response had the app’s prototypes from birth (Node’s own server: not)', async () => {
    await exchange(running.url);
    await fetch(`${plainUrl}${PREFIX}/echo`);
    expect(born.get(running.server)).to.equal(true);
    expect(born.get(plain)).to.equal(false);
  });

  it('when queries, headers, JSON bodies and unknown paths are sent, then every answer is the one Node’s own classes give', async () => {
    const ours = await exchange(running.url);
    expect(ours).to.deep.equal(await exchange(plainUrl));
    expect(ours.get).to.deep.include({ status: 200, type: 'application/json; charset=utf-8', hasId: true });
    expect(ours.get.body).to.deep.equal({
      query: { a: '1', b: '한' },
      accept: 'application/json',
      path: '/echo',
      baseUrl: PREFIX,
      protocol: 'http',
    });
    expect(ours.post).to.deep.equal({ status: 201, body: { x: [1, '둘'] } });
    expect(ours.missing.status).to.equal(404);
  });
});
