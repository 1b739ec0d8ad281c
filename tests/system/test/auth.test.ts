import { expect } from 'chai';
import request from 'supertest';
import jwt from 'jsonwebtoken';
import type { Express } from 'express';
import {
  bearer,
  captureLogs,
  createTestDatabase,
  handMadeJwt,
  hs256,
  nowSeconds,
  rs256,
  rsaKeyPair,
  TEST_JWT_SECRET,
  type CapturedLogs,
  type TestDatabase,
} from '@bo/testing';
import { backofficeApp } from './support/real-apps.ts';

/** A spec operation of the back-office: the guard runs before any operation is matched. */
const OPERATION = '/api/bo/v2/dashboard/goods/sale-stock-status';
const CLAIMS = { sub: 'md01', workGrpCd: 'BO_MD', entrNo: 'E100' };
const HS_HEADER = { alg: 'HS256', typ: 'JWT' };

const body = (code: string, message: string) => ({ code, message, httpStatus: 401, isProcess: false });
const MISSING = body('1101', 'A bearer access token is required');
const BAD_SCHEME = body('1102', 'The Authorization header must be "Bearer <token>"');
const INVALID = body('1102', 'The access token is not valid');
const EXPIRED = body('1103', 'The access token has expired');

describe('bearer authentication on the real back-office', () => {
  let db: TestDatabase;
  const keys = rsaKeyPair();
  const attacker = rsaKeyPair();

  before(async () => {
    db = await createTestDatabase('kit_auth', []);
  });
  after(async () => {
    await db?.drop();
  });

  describe('on the back-office service configured with HS256 (JWT_SECRET)', () => {
    let logs: CapturedLogs;
    let app: Express;
    before(() => {
      logs = captureLogs('backoffice');
      app = backofficeApp(db.knex, logs.logger);
    });

    const refusals: { when: string; authorization?: string; expected: object }[] = [
      { when: 'the Authorization header is missing', expected: MISSING },
      { when: 'the header is "Bearer" with no token', authorization: 'Bearer', expected: BAD_SCHEME },
      { when: 'the header is "Bearer " (trailing space, trimmed on the wire)', authorization: 'Bearer ', expected: BAD_SCHEME },
      { when: 'the scheme is Basic', authorization: 'Basic dXNlcjpwYXNz', expected: BAD_SCHEME },
      { when: 'the header is garbage', authorization: 'garbage', expected: BAD_SCHEME },
      { when: 'the header has three parts', authorization: 'Bearer a b', expected: BAD_SCHEME },
      { when: 'the token is not a JWT', authorization: 'Bearer not.a.jwt', expected: INVALID },
      {
        when: 'the token has expired',
        authorization: `Bearer ${jwt.sign({ ...CLAIMS, exp: nowSeconds() - 60 }, TEST_JWT_SECRET, { algorithm: 'HS256' })}`,
        expected: EXPIRED,
      },
      {
        when: 'the token is signed with another secret',
        authorization: bearer(CLAIMS, { secret: 'some-other-secret-0123456789' }),
        expected: INVALID,
      },
      {
        when: 'the payload was altered after signing',
        authorization: (() => {
          const [h, , s] = bearer(CLAIMS).slice('Bearer '.length).split('.');
          const forged = Buffer.from(JSON.stringify({ ...CLAIMS, workGrpCd: 'BO_ADMIN', exp: nowSeconds() + 600 })).toString('base64url');
          return `Bearer ${h}.${forged}.${s}`;
        })(),
        expected: INVALID,
      },
      {
        when: 'the token says alg none and carries no signature',
        authorization: `Bearer ${handMadeJwt({ alg: 'none', typ: 'JWT' }, { ...CLAIMS, exp: nowSeconds() + 600 })}`,
        expected: INVALID,
      },
      {
        when: 'the token says alg none but keeps a valid HS256 signature',
        authorization: `Bearer ${handMadeJwt({ alg: 'none', typ: 'JWT' }, { ...CLAIMS, exp: nowSeconds() + 600 }, hs256(TEST_JWT_SECRET))}`,
        expected: INVALID,
      },
      {
        when: 'the token carries no exp',
        authorization: `Bearer ${handMadeJwt(HS_HEADER, { ...CLAIMS, iat: nowSeconds() }, hs256(TEST_JWT_SECRET))}`,
        expected: body('1102', 'The access token must carry an expiry (exp)'),
      },
      {
        when: 'the token carries no user id (sub)',
        authorization: `Bearer ${handMadeJwt(HS_HEADER, { workGrpCd: 'BO_MD', exp: nowSeconds() + 600 }, hs256(TEST_JWT_SECRET))}`,
        expected: body('1102', 'The access token must carry the user id (sub)'),
      },
      {
        when: 'the token carries no work group',
        authorization: `Bearer ${handMadeJwt(HS_HEADER, { sub: 'md01', exp: nowSeconds() + 600 }, hs256(TEST_JWT_SECRET))}`,
        expected: body('1102', 'The access token must carry the work group (workGrpCd)'),
      },
      {
        when: 'the token is not valid yet (nbf in the future)',
        authorization: `Bearer ${handMadeJwt(HS_HEADER, { ...CLAIMS, nbf: nowSeconds() + 600, exp: nowSeconds() + 1200 }, hs256(TEST_JWT_SECRET))}`,
        expected: INVALID,
      },
      {
        when: 'the token is a valid RS256 token (algorithm not allowed here)',
        authorization: `Bearer ${handMadeJwt({ alg: 'RS256', typ: 'JWT' }, { ...CLAIMS, exp: nowSeconds() + 600 }, rs256(keys.privateKey))}`,
        expected: INVALID,
      },
    ];

    for (const { when, authorization, expected } of refusals) {
      it(`when ${when}, then 401 with the ErrorCode body and a log line`, async () => {
        const req = request(app)
          .get(OPERATION)
          .set('X-Request-Id', `auth-${refusals.findIndex((r) => r.when === when)}`);
        const res = await (authorization === undefined ? req : req.set('Authorization', authorization));
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal(expected);
        const refused = logs.of(res.headers['x-request-id'] as string).filter((l) => l.message.startsWith('request refused'));
        expect(refused, 'log line').to.have.length(1);
        expect(refused[0]).to.include({ level: 'warn', code: (expected as { code: string }).code });
      });
    }

    it('when the token is valid, then authentication passes (an unknown path answers 404, not 401)', async () => {
      const res = await request(app).get('/api/bo/no-such-operation').set('Authorization', bearer(CLAIMS));
      expect(res.status).to.equal(404);
      expect(res.body).to.include({ code: '1404', httpStatus: 404 });
    });
  });

  describe('on the back-office configured with RS256 (JWT_PUBLIC_KEY)', () => {
    let app: Express;
    const rsToken = (privateKey: string, claims: object = { ...CLAIMS, exp: nowSeconds() + 600 }) =>
      `Bearer ${handMadeJwt({ alg: 'RS256', typ: 'JWT' }, claims, rs256(privateKey))}`;

    before(() => {
      app = backofficeApp(db.knex, captureLogs('backoffice').logger, { JWT_PUBLIC_KEY: keys.publicKey });
    });

    it('when an attacker signs HS256 with the public key PEM as the secret, then 401', async () => {
      const forged = handMadeJwt(HS_HEADER, { ...CLAIMS, workGrpCd: 'BO_ADMIN', exp: nowSeconds() + 600 }, hs256(keys.publicKey));
      const res = await request(app).get(OPERATION).set('Authorization', `Bearer ${forged}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(INVALID);
    });

    it('when a token is signed with the test HS256 secret, then 401', async () => {
      const res = await request(app).get(OPERATION).set('Authorization', bearer(CLAIMS));
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(INVALID);
    });

    it('when an RS256 token is signed with another private key, then 401', async () => {
      const res = await request(app).get(OPERATION).set('Authorization', rsToken(attacker.privateKey));
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(INVALID);
    });

    it('when an RS256 token without exp is properly signed, then 401', async () => {
      const res = await request(app).get(OPERATION).set('Authorization', rsToken(keys.privateKey, CLAIMS));
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(body('1102', 'The access token must carry an expiry (exp)'));
    });

    it('when an RS256 token is properly signed, then authentication passes (an unknown path answers 404, not 401)', async () => {
      const res = await request(app).get('/api/bo/no-such-operation').set('Authorization', rsToken(keys.privateKey));
      expect(res.status).to.equal(404);
    });
  });
});
