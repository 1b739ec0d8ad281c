import { expect } from 'chai';
import request from 'supertest';
import { bearer, handMadeJwt, hs256, nowSeconds, rs256, rsaKeyPair, TEST_JWT_SECRET } from '@bo/testing';
import { bearerAuth } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

const CLAIMS = { sub: 'md01', workGrpCd: 'BO_MD', entrNo: 'E100' };
const HS_HEADER = { alg: 'HS256', typ: 'JWT' };

const body = (code: string, message: string) => ({ code, message, httpStatus: 401, isProcess: false });
const INVALID = body('1102', 'The access token is not valid');
const EXPIRED = body('1103', 'The access token has expired');

describe('bearer authentication', () => {
  const keys = rsaKeyPair();

  describe('the principal a valid token yields (HS256)', () => {
    const app = kitApp({
      guards: bearerAuth({ JWT_SECRET: TEST_JWT_SECRET }),
      routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
    });

    it('when the token carries sub, workGrpCd and entrNo, then req.auth is {userId, workGrpCd, entrNo}', async () => {
      const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', bearer(CLAIMS));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ userId: 'md01', workGrpCd: 'BO_MD', entrNo: 'E100' });
    });

    it('when the token has no entrNo, then req.auth has no entrNo', async () => {
      const res = await request(app)
        .get(`${PREFIX}/whoami`)
        .set('Authorization', bearer({ sub: 'admin01', workGrpCd: 'BO_ADMIN' }));
      expect(res.body).to.deep.equal({ userId: 'admin01', workGrpCd: 'BO_ADMIN' });
    });

    // A supplier claim the issuer got wrong must fail closed: read as "no supplier" it would show every supplier's data.
    for (const [when, claims, message] of [
      [
        'the entrNo claim is a number',
        { sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: 1 },
        'The access token entrNo must be a supplier number (string)',
      ],
      [
        'the entrNo claim is a list',
        { sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: ['E100', 'E200'] },
        'The access token entrNo must be a supplier number (string)',
      ],
      [
        'a supplier (BO_ENTR) token carries no entrNo',
        { sub: 'entr01', workGrpCd: 'BO_ENTR' },
        'A supplier (BO_ENTR) token must carry its supplier (entrNo)',
      ],
      [
        'a supplier (BO_ENTR) token carries an empty entrNo',
        { sub: 'entr01', workGrpCd: 'BO_ENTR', entrNo: '' },
        'A supplier (BO_ENTR) token must carry its supplier (entrNo)',
      ],
    ] as const) {
      it(`when ${when}, then 401 instead of a principal without a supplier`, async () => {
        const token = handMadeJwt(HS_HEADER, { ...claims, exp: nowSeconds() + 600 }, hs256(TEST_JWT_SECRET));
        const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', `Bearer ${token}`);
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal(body('1102', message));
      });
    }

    it('when a non-supplier token carries entrNo null or empty, then req.auth has no entrNo', async () => {
      for (const entrNo of [null, '']) {
        const token = handMadeJwt(
          HS_HEADER,
          { sub: 'admin01', workGrpCd: 'BO_ADMIN', entrNo, exp: nowSeconds() + 600 },
          hs256(TEST_JWT_SECRET),
        );
        const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', `Bearer ${token}`);
        expect(res.body, String(entrNo)).to.deep.equal({ userId: 'admin01', workGrpCd: 'BO_ADMIN' });
      }
    });

    it('when the scheme is written in lower case, then the token is still accepted', async () => {
      const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', bearer(CLAIMS).replace('Bearer', 'bearer'));
      expect(res.status).to.equal(200);
    });

    // An accepted token is kept (VerifiedTokens) so that later requests skip its verification:
    // it must still expire, and nothing but that exact token may ride on it.
    it('when a token that was accepted reaches its exp, then the next request with it answers 401 TOKEN_EXPIRED', async function () {
      this.timeout(10_000);
      const exp = nowSeconds() + 2;
      const token = `Bearer ${handMadeJwt(HS_HEADER, { ...CLAIMS, exp }, hs256(TEST_JWT_SECRET))}`;
      const first = await request(app).get(`${PREFIX}/whoami`).set('Authorization', token);
      expect(first.status).to.equal(200);
      while (nowSeconds() < exp) await new Promise((r) => setTimeout(r, 100));
      const later = await request(app).get(`${PREFIX}/whoami`).set('Authorization', token);
      expect(later.status).to.equal(401);
      expect(later.body).to.deep.equal(EXPIRED);
    });

    it('when an accepted token is sent again with its payload or signature altered, then 401 each time and the original still passes', async () => {
      const token = bearer(CLAIMS);
      expect((await request(app).get(`${PREFIX}/whoami`).set('Authorization', token)).status).to.equal(200);
      const [h, p, sig] = token.slice('Bearer '.length).split('.') as [string, string, string];
      const admin = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), workGrpCd: 'BO_ADMIN' })).toString(
        'base64url',
      );
      const flipped = `${sig.slice(0, -2)}${sig.at(-2) === 'A' ? 'B' : 'A'}${sig.at(-1)}`;
      for (const altered of [`Bearer ${h}.${admin}.${sig}`, `Bearer ${h}.${p}.${flipped}`, `Bearer ${h}.${p}.`]) {
        const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', altered);
        expect(res.status, altered).to.equal(401);
        expect(res.body).to.deep.equal(INVALID);
      }
      const again = await request(app).get(`${PREFIX}/whoami`).set('Authorization', token);
      expect(again.body).to.deep.equal({ userId: 'md01', workGrpCd: 'BO_MD', entrNo: 'E100' });
    });
  });

  // Issue 17.3: authorization fails closed. Scopes are keyed on known work groups, so a token of
  // a group nobody listed (or a known one in another case) used to pass with no scope at all.
  describe('work groups: an allow-list, anything else 403', () => {
    const FORBIDDEN = {
      code: '1201',
      message: "The token's work group (workGrpCd) may not use this service",
      httpStatus: 403,
      isProcess: false,
    };
    const app = kitApp({
      guards: bearerAuth({ JWT_SECRET: TEST_JWT_SECRET }),
      routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
    });
    const token = (workGrpCd: string, extra: object = {}) =>
      `Bearer ${handMadeJwt(HS_HEADER, { sub: 'u01', workGrpCd, ...extra, exp: nowSeconds() + 600 }, hs256(TEST_JWT_SECRET))}`;

    for (const workGrpCd of ['bo_entr', 'Bo_Entr', 'bo_admin', 'BO_ADMIN ', 'BO_GUEST', 'BO_ENTR_X', 'ADMIN', '*']) {
      it(`when a signed token carries work group ${JSON.stringify(workGrpCd)} and no entrNo, then 403 with the ErrorCode body`, async () => {
        const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', token(workGrpCd));
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal(FORBIDDEN);
        // Refused the second time too (a refusal is never kept as a verified token).
        expect((await request(app).get(`${PREFIX}/whoami`).set('Authorization', token(workGrpCd))).status).to.equal(403);
      });
    }

    it('when the three platform groups come, then each passes', async () => {
      for (const [workGrpCd, extra] of [
        ['BO_ADMIN', {}],
        ['BO_MD', {}],
        ['BO_ENTR', { entrNo: 'E1' }],
      ] as const) {
        const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', token(workGrpCd, extra));
        expect(res.status, workGrpCd).to.equal(200);
      }
    });

    it('when JWT_WORK_GROUPS lists fewer groups, then the others answer 403', async () => {
      const adminsOnly = kitApp({
        guards: bearerAuth({ JWT_SECRET: TEST_JWT_SECRET, JWT_WORK_GROUPS: 'BO_ADMIN' }),
        routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
      });
      expect((await request(adminsOnly).get(`${PREFIX}/whoami`).set('Authorization', token('BO_ADMIN'))).status).to.equal(200);
      const md = await request(adminsOnly).get(`${PREFIX}/whoami`).set('Authorization', token('BO_MD'));
      expect(md.status).to.equal(403);
      expect(md.body).to.deep.equal(FORBIDDEN);
    });
  });

  describe('issuer and audience (JWT_ISSUER, JWT_AUDIENCE)', () => {
    const app = kitApp({
      guards: bearerAuth({ JWT_SECRET: TEST_JWT_SECRET, JWT_ISSUER: 'https://sso.example.test', JWT_AUDIENCE: 'bo-api' }),
      routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
    });
    const token = (claims: object) =>
      `Bearer ${handMadeJwt(HS_HEADER, { sub: 'u01', workGrpCd: 'BO_ADMIN', ...claims, exp: nowSeconds() + 600 }, hs256(TEST_JWT_SECRET))}`;

    it('when a token carries the configured issuer and audience, then it passes (aud also as a list)', async () => {
      for (const aud of ['bo-api', ['other', 'bo-api']]) {
        const res = await request(app)
          .get(`${PREFIX}/whoami`)
          .set('Authorization', token({ iss: 'https://sso.example.test', aud }));
        expect(res.status, JSON.stringify(aud)).to.equal(200);
      }
    });

    for (const [when, claims] of [
      ['no issuer', { aud: 'bo-api' }],
      ['another issuer', { iss: 'https://evil.example.test', aud: 'bo-api' }],
      ['no audience', { iss: 'https://sso.example.test' }],
      ['another audience', { iss: 'https://sso.example.test', aud: 'member-api' }],
    ] as const) {
      it(`when a token carries ${when}, then 401 (1102)`, async () => {
        const res = await request(app).get(`${PREFIX}/whoami`).set('Authorization', token(claims));
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.equal(INVALID);
      });
    }

    it('when neither is configured, then tokens without iss and aud pass as before', async () => {
      const plain = kitApp({
        guards: bearerAuth({ JWT_SECRET: TEST_JWT_SECRET }),
        routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
      });
      expect((await request(plain).get(`${PREFIX}/whoami`).set('Authorization', token({}))).status).to.equal(200);
    });
  });

  describe('on a service configured with RS256 (JWT_PUBLIC_KEY)', () => {
    const whoami = kitApp({
      guards: bearerAuth({ JWT_PUBLIC_KEY: keys.publicKey }),
      routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
    });
    const rsToken = (privateKey: string, claims: object = { ...CLAIMS, exp: nowSeconds() + 600 }) =>
      `Bearer ${handMadeJwt({ alg: 'RS256', typ: 'JWT' }, claims, rs256(privateKey))}`;

    it('when an attacker signs HS256 with the public key PEM as the secret, then 401', async () => {
      const forged = handMadeJwt(HS_HEADER, { ...CLAIMS, workGrpCd: 'BO_ADMIN', exp: nowSeconds() + 600 }, hs256(keys.publicKey));
      const res = await request(whoami).get(`${PREFIX}/whoami`).set('Authorization', `Bearer ${forged}`);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(INVALID);
    });

    it('when an RS256 token is properly signed, then it passes with its principal', async () => {
      const res = await request(whoami).get(`${PREFIX}/whoami`).set('Authorization', rsToken(keys.privateKey));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ userId: 'md01', workGrpCd: 'BO_MD', entrNo: 'E100' });
    });

    it('when the public key was configured on one line with \\n escapes, then properly signed tokens pass', async () => {
      const oneLine = kitApp({
        guards: bearerAuth({ JWT_PUBLIC_KEY: keys.publicKey.trim().replace(/\n/g, '\\n') }),
        routes: (r) => r.get('/whoami', (req, res) => res.json(req.auth)),
      });
      const res = await request(oneLine).get(`${PREFIX}/whoami`).set('Authorization', rsToken(keys.privateKey));
      expect(res.status).to.equal(200);
    });
  });
});
