import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import { apiHelmet } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/** Headers that are the response's own, not the security policy's. */
const OWN = new Set(['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'etag', 'x-request-id', 'vary']);
const policy = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !OWN.has(name)));

/**
 * The services send helmet's headers computed once at startup (`securityHeaders`): they must be
 * exactly the ones helmet itself sends with the same configuration, on every kind of answer.
 */
describe('security headers: helmet’s, computed once', () => {
  const hardened = kitApp({
    hardening: { requestTimeoutMs: 5_000 },
    routes: (router) => {
      router.get('/ok', (_req, res) => {
        res.json({ ok: true });
      });
    },
  });
  const reference = express();
  reference.disable('x-powered-by');
  reference.use(apiHelmet());
  reference.get(/.*/, (_req, res) => {
    res.json({ ok: true });
  });

  it('when the service answers 200, 404 and its health, then the policy headers equal helmet’s own, name for name and value for value', async () => {
    const expected = policy((await request(reference).get('/any')).headers);
    expect(Object.keys(expected)).to.include.members(['content-security-policy', 'strict-transport-security', 'x-frame-options']);
    for (const path of [`${PREFIX}/ok`, `${PREFIX}/nothing`, `${PREFIX}/health`]) {
      const res = await request(hardened).get(path);
      expect(policy(res.headers), path).to.deep.equal(expected);
    }
  });
});
