import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { chromium, type Browser } from 'playwright-core';
import { findOperation } from '@bo/contracts';
import { createKnex, type Knex } from '@bo/db';
import { TEST_SERVER_URL, TEST_JWT_SECRET, captureLogs } from '@bo/testing';
import { ConfigError, mountOperation, startHttpServer, type RunningServer } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';
import { backofficeApp, memberApp } from './support/real-apps.ts';
import { loadBackofficeConfig } from '@bo/backoffice';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UI_ORIGIN = 'https://bo-ui.example.com';

/** A promise with its resolve handle, to let a test decide when a slow route may answer. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A raw connection to the server, to send what no HTTP client would (half a request). */
function rawSocket(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

describe('hardening: security headers, CORS, request time limit, socket limits', () => {
  // Neither the headers, the docs page nor CORS touch the database: a pool that never connects will do.
  let knex: Knex;
  let bo: Express;
  let member: Express;
  before(() => {
    knex = createKnex(TEST_SERVER_URL, { poolMax: 1 });
    bo = backofficeApp(knex, captureLogs().logger);
    member = memberApp(knex, captureLogs().logger);
  });
  after(() => knex.destroy());

  describe('security headers (helmet)', () => {
    for (const [name, prefix, app] of [
      ['back-office', '/api/bo', () => bo],
      ['member', '/api/member', () => member],
    ] as const) {
      it(`when the ${name} service answers, then it sends helmet's headers and a policy that lets nothing load`, async () => {
        for (const path of [`${prefix}/health`, `${prefix}/v3/api-docs`, `${prefix}/no-such-path`]) {
          const res = await request(app()).get(path);
          expect(res.headers, path).to.include({
            'x-content-type-options': 'nosniff',
            'x-frame-options': 'SAMEORIGIN',
            'referrer-policy': 'no-referrer',
            'cross-origin-opener-policy': 'same-origin',
          });
          expect(res.headers['strict-transport-security'], path).to.match(/^max-age=\d+/);
          expect(res.headers['content-security-policy'], path).to.equal("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
          expect(res.headers, path).to.not.have.property('x-powered-by');
        }
      });
    }

    it('when the Swagger UI page and its assets are fetched, then they answer 200 under a policy allowing only the service itself', async () => {
      for (const path of ['/api/bo/swagger-ui/', '/api/bo/swagger-ui/swagger-ui-init.js', '/api/bo/swagger-ui/swagger-ui-bundle.js', '/api/bo/swagger-ui/swagger-ui.css']) {
        const res = await request(bo).get(path);
        expect(res.status, path).to.equal(200);
        const csp = String(res.headers['content-security-policy']);
        expect(csp, path).to.contain("default-src 'self'").and.to.contain("script-src 'self'").and.to.contain("object-src 'none'");
        expect(csp, path).to.not.contain('unsafe-eval');
      }
    });

    describe('the Swagger UI page in a real browser', function () {
      this.timeout(60_000);
      let browser: Browser;
      let server: RunningServer;
      before(async () => {
        if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`);
        server = await startHttpServer(bo, 0, [], '127.0.0.1');
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
      });
      after(async () => {
        await browser?.close();
        await server?.close();
      });

      it('when the docs page is opened, then Swagger UI renders the operations and the browser reports no policy violation', async () => {
        const page = await browser.newPage();
        const violations: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
        });
        await page.goto(`${server.url}/api/bo/swagger-ui/`);
        await page.locator('.swagger-ui .info .title').filter({ hasText: 'Back-office API' }).waitFor({ timeout: 20_000 });
        await page.locator('.opblock-summary-path').filter({ hasText: '/v2/goods/ai/getAiGoodsAutoFill' }).first().waitFor();
        expect(violations).to.deep.equal([]);
      });
    });
  });

  describe('CORS', () => {
    const preflight = (app: Express, origin: string) =>
      request(app)
        .options('/api/bo/v2/goods/ai/getAiGoodsAutoFill')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Headers', 'authorization,content-type');

    it('when CORS_ORIGINS is not set, then neither a preflight nor a request gets a CORS header', async () => {
      const pre = await preflight(bo, UI_ORIGIN);
      expect(pre.headers).to.not.have.property('access-control-allow-origin');
      expect(pre.headers).to.not.have.property('access-control-allow-methods');
      const res = await request(bo).get('/api/bo/health').set('Origin', UI_ORIGIN);
      expect(res.status).to.equal(200);
      expect(res.headers).to.not.have.property('access-control-allow-origin');
    });

    describe('with CORS_ORIGINS naming the UI', () => {
      let withCors: Express;
      before(() => {
        withCors = backofficeApp(knex, captureLogs().logger, { JWT_SECRET: TEST_JWT_SECRET, CORS_ORIGINS: `${UI_ORIGIN}, http://localhost:5173` });
      });

      it('when the UI origin sends a preflight, then it is answered before authentication with the allowed methods and headers', async () => {
        const res = await preflight(withCors, UI_ORIGIN);
        expect(res.status).to.equal(204);
        expect(res.headers).to.include({ 'access-control-allow-origin': UI_ORIGIN, 'access-control-max-age': '600' });
        expect(res.headers['access-control-allow-methods']).to.equal('GET,POST');
        expect(String(res.headers['access-control-allow-headers']).toLowerCase().split(',')).to.include.members(['authorization', 'content-type']);
        expect(res.headers).to.not.have.property('access-control-allow-credentials');
        expect(String(res.headers.vary)).to.contain('Origin');
      });

      it('when the UI origin calls the API, then the answer allows it and exposes the headers its scripts read', async () => {
        const second = await request(withCors).get('/api/bo/health').set('Origin', 'http://localhost:5173');
        expect(second.headers['access-control-allow-origin']).to.equal('http://localhost:5173');
        const refused = await request(withCors).post('/api/bo/v2/goods/ai/getAiGoodsAutoFill').set('Origin', UI_ORIGIN).send({ productName: 'x' });
        expect(refused.status).to.equal(401);
        expect(refused.headers['access-control-allow-origin']).to.equal(UI_ORIGIN);
        expect(String(refused.headers['access-control-expose-headers']).split(',')).to.include.members(['X-Request-Id', 'Retry-After', 'Content-Disposition']);
      });

      it('when another origin sends a preflight or a request, then it gets no CORS header and the preflight is not answered', async () => {
        for (const origin of ['https://evil.example.com', `${UI_ORIGIN}.evil.example.com`, 'null', UI_ORIGIN.replace('https', 'http')]) {
          const pre = await preflight(withCors, origin);
          expect(pre.status, origin).to.equal(401);
          expect(pre.headers, origin).to.not.have.property('access-control-allow-origin');
          expect(pre.headers, origin).to.not.have.property('access-control-allow-methods');
          const res = await request(withCors).get('/api/bo/health').set('Origin', origin);
          expect(res.headers, origin).to.not.have.property('access-control-allow-origin');
          expect(String(res.headers.vary), origin).to.contain('Origin');
        }
      });
    });

    it('when CORS_ORIGINS holds something that is not a bare origin, then the service refuses to start naming the variable', () => {
      for (const bad of ['bo-ui.example.com', 'https://bo-ui.example.com/', 'https://bo-ui.example.com/app', 'ftp://bo-ui.example.com', '*']) {
        let err: unknown;
        try {
          loadBackofficeConfig({ CORS_ORIGINS: bad });
        } catch (e) {
          err = e;
        }
        expect(err, bad).to.be.instanceOf(ConfigError);
        expect((err as ConfigError).problems.join(' '), bad).to.match(/^CORS_ORIGINS: /);
      }
    });
  });

  describe('request time limit', () => {
    const LIMIT_MS = 300;
    const logs = captureLogs('kit-timeout');
    const release = deferred();
    const lateFailure = deferred();
    const app = kitApp({
      logger: logs.logger,
      docs: 'backoffice',
      hardening: { requestTimeoutMs: LIMIT_MS },
      routes: (r) => {
        r.get('/stuck', async (_req, res) => {
          await release.promise;
          res.json({ late: true });
        });
        r.get('/stuck-then-fails', async () => {
          await release.promise;
          lateFailure.resolve();
          throw new Error('the database went away after the answer');
        });
        mountOperation(r, findOperation('getAiGoodsAutoFill'), async () => {
          await release.promise;
          return { goodsNm: 'late' };
        });
        // Writes a piece every 100 ms for about three times the limit: a download that keeps writing.
        r.get('/download', async (_req, res) => {
          res.status(200).type('text/plain');
          for (let i = 0; i < 10; i++) {
            res.write(`piece ${i}\n`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          res.end('done\n');
        });
      },
    });
    after(() => release.resolve());

    it('when a handler has not started its answer within the limit, then 900 with REQUEST_TIMEOUT (1504, httpStatus 504) instead of a hang', async () => {
      const res = await request(app).get(`${PREFIX}/stuck`).set('X-Request-Id', 'stuck-1').timeout(10_000);
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal({
        code: '1504',
        message: 'The request took longer than the server allows; try again shortly or ask for less',
        httpStatus: 504,
        isProcess: false,
      });
      expect(logs.of('stuck-1').find((l) => l.message === 'request exceeded its time limit')).to.include({ level: 'warn', limitMs: LIMIT_MS });
    });

    it('when an envelope operation runs over the limit, then the 1504 answer is the result envelope', async () => {
      const res = await request(app).post(`${PREFIX}/v2/goods/ai/getAiGoodsAutoFill`).send({ productName: 'x' }).timeout(10_000);
      expect(res.status).to.equal(900);
      expect(res.body).to.include({ code: '1504', httpStatus: 504, isProcess: false, error: true, payload: null });
      expect(res.body.errors).to.deep.equal([]);
    });

    it('when a streamed answer keeps writing past the limit, then it is not cut and arrives whole', async () => {
      const res = await request(app).get(`${PREFIX}/download`).buffer(true).timeout(10_000);
      expect(res.status).to.equal(200);
      expect(res.text).to.equal(`${Array.from({ length: 10 }, (_, i) => `piece ${i}\n`).join('')}done\n`);
    });

    it('when a handler fails after its time limit answered, then the client keeps its 504 and the failure is a warning, not an unexpected error', async () => {
      const res = await request(app).get(`${PREFIX}/stuck-then-fails`).set('X-Request-Id', 'late-fail-1').timeout(10_000);
      expect(res.body).to.include({ code: '1504' });
      release.resolve();
      await lateFailure.promise;
      await new Promise((resolve) => setImmediate(resolve));
      const lines = logs.of('late-fail-1');
      expect(lines.find((l) => l.message === 'request failed after its time limit had answered')).to.include({ level: 'warn' });
      expect(lines.filter((l) => l.level === 'error' && l.message !== 'request')).to.deep.equal([]);
    });
  });

  describe('socket limits of the server', function () {
    this.timeout(15_000);
    let server: RunningServer;
    let stalledDownload: { closedEarly: Promise<boolean> } | undefined;
    before(async () => {
      const app = kitApp({
        routes: (r) =>
          // An endless download: it ends only when the connection does.
          r.get('/endless', (_req, res) => {
            let closedEarly!: (v: boolean) => void;
            stalledDownload = { closedEarly: new Promise((resolve) => (closedEarly = resolve)) };
            res.once('close', () => closedEarly(!res.writableFinished));
            const chunk = Buffer.alloc(64 * 1024, 'x');
            const pump = () => {
              while (!res.destroyed && res.write(chunk));
            };
            res.on('drain', pump);
            pump();
          }),
      });
      server = await startHttpServer(app, 0, [], '127.0.0.1', {
        headersTimeoutMs: 300,
        receiveTimeoutMs: 600,
        keepAliveTimeoutMs: 5_000,
        idleSocketTimeoutMs: 1_500,
        checkIntervalMs: 100,
      });
    });
    after(async () => {
      server.server.closeAllConnections();
      await server.close();
    });

    it('when a client sends headers too slowly (slowloris), then the server answers 408 and closes the connection', async () => {
      const { socket, received, closed } = await rawSocket(server.port);
      socket.write('GET /api/kit/health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      await closed;
      expect(received()).to.match(/^HTTP\/1\.1 408 /);
    });

    it('when a client sends the headers but not the announced body, then the server answers 408 and closes the connection', async () => {
      const { socket, received, closed } = await rawSocket(server.port);
      socket.write('POST /api/kit/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
      await closed;
      expect(received()).to.match(/^HTTP\/1\.1 408 /);
    });

    it('when a keep-alive connection idles longer than the headers limit, then its next request is still served', async () => {
      const { socket, received } = await rawSocket(server.port);
      socket.write('GET /api/kit/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      socket.write('GET /api/kit/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
      expect(received().match(/HTTP\/1\.1 200 /g)).to.have.length(2);
    });

    it('when a client stops reading a streamed answer, then the server cuts the connection after the idle limit', async () => {
      const { socket } = await rawSocket(server.port);
      socket.write('GET /api/kit/endless HTTP/1.1\r\nHost: x\r\n\r\n');
      socket.pause();
      while (!stalledDownload) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await stalledDownload.closedEarly).to.equal(true);
      socket.destroy();
    });
  });
});
