import { existsSync } from 'node:fs';
import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { chromium, type Browser } from 'playwright-core';
import { createKnex, type Knex } from '@bo/db';
import { loadBackofficeConfig } from '@bo/backoffice';
import { ConfigError, startHttpServer, type RunningServer } from '@bo/service-kit';
import { captureLogs, TEST_JWT_SECRET, TEST_SERVER_URL } from '@bo/testing';
import { backofficeApp, memberApp } from './support/real-apps.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UI_ORIGIN = 'https://bo-ui.example.com';

describe('hardening of the real services: security headers, CORS', () => {
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
          expect(res.headers['content-security-policy'], path).to.equal(
            "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
          );
          expect(res.headers, path).to.not.have.property('x-powered-by');
        }
      });
    }

    it('when the Swagger UI page and its assets are fetched, then they answer 200 under a policy allowing only the service itself', async () => {
      for (const path of [
        '/api/bo/swagger-ui/',
        '/api/bo/swagger-ui/swagger-ui-init.js',
        '/api/bo/swagger-ui/swagger-ui-bundle.js',
        '/api/bo/swagger-ui/swagger-ui.css',
      ]) {
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
        if (!existsSync(CHROMIUM))
          throw new Error(`Chromium is missing at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`);
        server = await startHttpServer(bo, 0, [], '127.0.0.1');
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
        });
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
        withCors = backofficeApp(knex, captureLogs().logger, {
          JWT_SECRET: TEST_JWT_SECRET,
          CORS_ORIGINS: `${UI_ORIGIN}, http://localhost:5173`,
        });
      });

      it('when the UI origin sends a preflight, then it is answered before authentication with the allowed methods and headers', async () => {
        const res = await preflight(withCors, UI_ORIGIN);
        expect(res.status).to.equal(204);
        expect(res.headers).to.include({ 'access-control-allow-origin': UI_ORIGIN, 'access-control-max-age': '600' });
        expect(res.headers['access-control-allow-methods']).to.equal('GET,POST');
        expect(String(res.headers['access-control-allow-headers']).toLowerCase().split(',')).to.include.members([
          'authorization',
          'content-type',
        ]);
        expect(res.headers).to.not.have.property('access-control-allow-credentials');
        expect(String(res.headers.vary)).to.contain('Origin');
      });

      it('when the UI origin calls the API, then the answer allows it and exposes the headers its scripts read', async () => {
        const second = await request(withCors).get('/api/bo/health').set('Origin', 'http://localhost:5173');
        expect(second.headers['access-control-allow-origin']).to.equal('http://localhost:5173');
        const refused = await request(withCors)
          .post('/api/bo/v2/goods/ai/getAiGoodsAutoFill')
          .set('Origin', UI_ORIGIN)
          .send({ productName: 'x' });
        expect(refused.status).to.equal(401);
        expect(refused.headers['access-control-allow-origin']).to.equal(UI_ORIGIN);
        expect(String(refused.headers['access-control-expose-headers']).split(',')).to.include.members([
          'X-Request-Id',
          'Retry-After',
          'Content-Disposition',
        ]);
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
      for (const bad of [
        'bo-ui.example.com',
        'https://bo-ui.example.com/',
        'https://bo-ui.example.com/app',
        'ftp://bo-ui.example.com',
        '*',
      ]) {
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
});
