import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { createKnex, type Knex } from '@bo/db';
import type { Readiness } from '@bo/service-kit';
import { createTestDatabase, type TestDatabase, bearer, captureLogs, freePort } from '@bo/testing';
import { backofficeApp, memberApp } from './support/real-apps.ts';

describe('health, readiness and metrics of the real services', () => {
  let boDb: TestDatabase;
  let memberDb: TestDatabase;
  let downKnex: Knex;

  before(async () => {
    [boDb, memberDb] = await Promise.all([createTestDatabase('kit_ready_bo', []), createTestDatabase('kit_ready_member', [])]);
    downKnex = createKnex(`mysql://root@127.0.0.1:${await freePort()}/bo`, { poolMax: 1 });
  });
  after(async () => {
    await Promise.all([boDb?.drop(), memberDb?.drop(), downKnex?.destroy()]);
  });

  const services: { name: string; prefix: string; up: () => Express; down: () => Express }[] = [
    {
      name: 'back-office',
      prefix: '/api/bo',
      up: () => backofficeApp(boDb.knex, captureLogs().logger),
      down: () => backofficeApp(downKnex, captureLogs().logger),
    },
    {
      name: 'member',
      prefix: '/api/member',
      up: () => memberApp(memberDb.knex, captureLogs().logger),
      down: () => memberApp(downKnex, captureLogs().logger),
    },
  ];

  for (const { name, prefix, up, down } of services) {
    describe(`${name} service`, () => {
      it('when the process runs, then /health answers 200 without a token', async () => {
        const res = await request(up()).get(`${prefix}/health`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ status: 'UP' });
      });

      it('when its database answers, then /ready answers 200 with the database UP', async () => {
        const res = await request(up()).get(`${prefix}/ready`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ status: 'UP', checks: { database: { status: 'UP' } } });
      });

      it('when its database is unreachable, then /ready answers 503 naming the database, and /health stays 200', async () => {
        const app = down();
        const res = await request(app).get(`${prefix}/ready`);
        expect(res.status).to.equal(503);
        const body = res.body as Readiness;
        expect(body.status).to.equal('DOWN');
        expect(Object.keys(body.checks)).to.deep.equal(['database']);
        expect(body.checks.database?.status).to.equal('DOWN');
        expect(body.checks.database?.error).to.be.a('string').and.not.equal('');
        expect((await request(app).get(`${prefix}/health`)).status).to.equal(200);
      });
    });
  }

  describe('metrics', () => {
    it('when requests were served, then /metrics counts them by route pattern and status, unknown paths as unmatched', async () => {
      const app = backofficeApp(boDb.knex, captureLogs().logger);
      await request(app).get('/api/bo/health');
      await request(app).get('/api/bo/health');
      await request(app).get('/api/bo/ready');
      await request(app).get('/no/such/path/12345');
      await request(app)
        .get('/api/bo/anything-unknown')
        .set('Authorization', bearer({ sub: 'u1', workGrpCd: 'BO_ADMIN' }));

      const res = await request(app).get('/api/bo/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      const counter = (route: string, status: string) => {
        const line = res.text
          .split('\n')
          .find((l) => l.startsWith('http_requests_total{') && l.includes(`route="${route}"`) && l.includes(`status="${status}"`));
        return line === undefined ? undefined : Number(line.split(' ').pop());
      };
      expect(counter('/api/bo/health', '200')).to.equal(2);
      expect(counter('/api/bo/ready', '200')).to.equal(1);
      expect(counter('unmatched', '404')).to.equal(2);
      expect(res.text, 'raw paths never become labels').to.not.contain('12345').and.not.contain('anything-unknown');
      expect(res.text).to.match(/^http_request_duration_seconds_bucket\{.*route="\/api\/bo\/health".*\} 2$/m);
      expect(res.text).to.contain('service="backoffice"');
    });
  });
});
