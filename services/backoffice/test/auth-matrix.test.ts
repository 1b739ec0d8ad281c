import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { ERRORS, operationsOf, type OperationSpec } from '@bo/contracts';
import {
  type TestDatabase,
  ADMIN,
  bearer,
  handMadeJwt,
  hs256,
  nowSeconds,
  rs256,
  rsaKeyPair,
  TEST_JWT_SECRET,
  testLogger,
} from '@bo/testing';
import { createBackofficeApp, loadBackofficeConfig } from '../src/index.ts';
import { aiDatabase, goodsRow, insertAiMasters } from './ai/helpers/ai-fixtures.ts';
import { binary } from './statistics/helpers/statistics-app.ts';

/**
 * Every back-office operation of the spec × every way a bearer token can be bad, on both
 * signing configurations: each answers 401 with the ErrorCode body, and a good token on the
 * same request does not. The single-route detail (messages, log lines, missing claims) is in
 * service-kit's auth.test.ts; this file proves no operation is mounted outside the guard.
 */

const OPERATIONS = operationsOf('backoffice');

/** A valid request per request schema ($id); Excel schemas that require a file name get one. */
const PERIOD = { calendarType: 'date', startDate: '2026-05-01', endDate: '2026-05-03', agrtGb: '01' };
const RANGE = { startDate: '2026-05-01', endDate: '2026-05-03', agrtGb: '01' };
const SAMPLES: Record<string, Record<string, string>> = {
  AiGoodsDescRequest: { goodsNo: 'G001', option: '10' },
  AiGoodsAutoFillRequest: { productName: '나이키 드라이핏 반팔티셔츠' },
  AiGoodsListRequest: {},
  PeriodStatusRequest: PERIOD,
  HourlyStatusRequest: { targetDate: '2026-05-01', agrtGb: '01' },
  CategoryStatusRequest: RANGE,
  PayWayStatusRequest: RANGE,
  GoodsStatusRequest: RANGE,
  EnterpriseStatusRequest: RANGE,
  SaleStockStatusRequest: {},
  RestockNoticeStatusRequest: {},
  QnaAnswerStatusRequest: {},
  GoodsReviewStatusRequest: {},
};

function sampleOf(op: OperationSpec): Record<string, string> {
  const schema = op.query ?? op.body;
  const id = schema?.$id?.replace(/WithFileName$/, '') ?? '';
  const sample = SAMPLES[id];
  if (!sample) throw new Error(`no sample request for ${op.operationId} (schema ${id || 'none'}): add one to SAMPLES`);
  return schema?.required?.includes('fileName') ? { ...sample, fileName: 'auth-matrix' } : sample;
}

async function call(app: Express, op: OperationSpec, authorization: string | undefined): Promise<{ status: number; body: unknown }> {
  const url = `/api/bo${op.path}`;
  const req = op.method === 'post' ? request(app).post(url).send(sampleOf(op)) : request(app).get(url).query(sampleOf(op));
  // Excel answers are binary: collect them, and read a refusal's JSON from the bytes.
  const sent = op.response === 'excel' ? req.buffer(true).parse(binary) : req;
  const res = await (authorization === undefined ? sent : sent.set('Authorization', authorization));
  const json = Buffer.isBuffer(res.body) && /json/.test(String(res.headers['content-type']));
  return { status: res.status, body: (json ? JSON.parse((res.body as Buffer).toString('utf8')) : res.body) as unknown };
}

const CLAIMS = { sub: 'md01', workGrpCd: 'BO_MD', entrNo: 'E001' };
const live = (extra: object = {}) => ({ ...CLAIMS, iat: nowSeconds(), exp: nowSeconds() + 600, ...extra });
const HS = { alg: 'HS256', typ: 'JWT' };
const RS = { alg: 'RS256', typ: 'JWT' };
const NONE = { alg: 'none', typ: 'JWT' };
/** A well-signed token whose payload was then swapped for an admin's. */
const tampered = (token: string) => {
  const [h, , s] = token.split('.');
  return `${h}.${Buffer.from(JSON.stringify(live({ workGrpCd: 'BO_ADMIN', entrNo: undefined }))).toString('base64url')}.${s}`;
};

type Code = '1101' | '1102' | '1103';
interface BadToken {
  when: string;
  authorization?: string;
  code: Code;
}

const keys = rsaKeyPair();
const attacker = rsaKeyPair();

/** Malformed headers are refused the same way whatever the signing configuration. */
const MALFORMED: BadToken[] = [
  { when: 'no Authorization header', code: '1101' },
  { when: '"Bearer" with no token', authorization: 'Bearer', code: '1102' },
  { when: 'a Basic scheme', authorization: 'Basic dXNlcjpwYXNz', code: '1102' },
  { when: 'a token that is not a JWT', authorization: 'Bearer not.a.jwt', code: '1102' },
];

const CONFIGURATIONS: { name: string; env: Record<string, string>; good: string; bad: BadToken[] }[] = [
  {
    name: 'HS256 (JWT_SECRET)',
    env: { JWT_SECRET: TEST_JWT_SECRET },
    good: bearer(ADMIN),
    bad: [
      ...MALFORMED,
      {
        when: 'an expired token',
        authorization: `Bearer ${handMadeJwt(HS, live({ exp: nowSeconds() - 60 }), hs256(TEST_JWT_SECRET))}`,
        code: '1103',
      },
      {
        when: 'a token not valid yet (future nbf)',
        authorization: `Bearer ${handMadeJwt(HS, live({ nbf: nowSeconds() + 600 }), hs256(TEST_JWT_SECRET))}`,
        code: '1102',
      },
      {
        when: 'a token signed with another secret',
        authorization: bearer(CLAIMS, { secret: 'some-other-secret-0123456789' }),
        code: '1102',
      },
      {
        when: 'a payload altered after signing',
        authorization: `Bearer ${tampered(handMadeJwt(HS, live(), hs256(TEST_JWT_SECRET)))}`,
        code: '1102',
      },
      { when: 'alg none without a signature', authorization: `Bearer ${handMadeJwt(NONE, live())}`, code: '1102' },
      {
        when: 'alg none keeping a valid HS256 signature',
        authorization: `Bearer ${handMadeJwt(NONE, live(), hs256(TEST_JWT_SECRET))}`,
        code: '1102',
      },
      {
        when: 'a properly signed RS256 token (HS/RS confusion)',
        authorization: `Bearer ${handMadeJwt(RS, live(), rs256(keys.privateKey))}`,
        code: '1102',
      },
    ],
  },
  {
    name: 'RS256 (JWT_PUBLIC_KEY)',
    env: { JWT_PUBLIC_KEY: keys.publicKey },
    good: `Bearer ${handMadeJwt(RS, { sub: ADMIN.sub, workGrpCd: ADMIN.workGrpCd, exp: nowSeconds() + 3600 }, rs256(keys.privateKey))}`,
    bad: [
      ...MALFORMED,
      {
        when: 'an expired token',
        authorization: `Bearer ${handMadeJwt(RS, live({ exp: nowSeconds() - 60 }), rs256(keys.privateKey))}`,
        code: '1103',
      },
      {
        when: 'a token not valid yet (future nbf)',
        authorization: `Bearer ${handMadeJwt(RS, live({ nbf: nowSeconds() + 600 }), rs256(keys.privateKey))}`,
        code: '1102',
      },
      {
        when: 'a token signed with another private key',
        authorization: `Bearer ${handMadeJwt(RS, live(), rs256(attacker.privateKey))}`,
        code: '1102',
      },
      {
        when: 'a payload altered after signing',
        authorization: `Bearer ${tampered(handMadeJwt(RS, live(), rs256(keys.privateKey)))}`,
        code: '1102',
      },
      { when: 'alg none without a signature', authorization: `Bearer ${handMadeJwt(NONE, live())}`, code: '1102' },
      {
        when: 'an HS256 token keyed with the public key PEM (HS/RS confusion)',
        authorization: `Bearer ${handMadeJwt(HS, live({ workGrpCd: 'BO_ADMIN' }), hs256(keys.publicKey))}`,
        code: '1102',
      },
      { when: 'an HS256 token signed with a secret', authorization: bearer(CLAIMS), code: '1102' },
    ],
  },
];

const MESSAGES: Partial<Record<Code, string>> = { '1101': ERRORS.UNAUTHENTICATED.message, '1103': ERRORS.TOKEN_EXPIRED.message };

describe('back-office authentication matrix: every operation × every bad token', () => {
  let db: TestDatabase;

  before(async () => {
    db = await aiDatabase('bo_auth_matrix');
    // Just enough rows that every sample request is a valid one a good token gets 200 for.
    await insertAiMasters(db.knex);
    await db.knex('goods').insert(goodsRow('G001', { goods_nm: '나이키 드라이핏 반팔티셔츠' }));
    await db
      .knex('goods_doc_page')
      .insert({ goods_no: 'G001', file_nm: 'spec.pdf', page_no: 1, page_text: '땀을 빠르게 흡수하는 기능성 원단의 반팔티셔츠입니다.' });
  });
  after(async () => {
    await db?.drop();
  });

  it('when the spec lists the back-office operations, then every one has a sample request here', () => {
    expect(OPERATIONS).to.have.length(26);
    for (const op of OPERATIONS) expect(() => sampleOf(op), op.operationId).to.not.throw();
  });

  for (const c of CONFIGURATIONS) {
    describe(`configured with ${c.name}`, () => {
      let app: Express;
      before(() => {
        app = createBackofficeApp({ config: loadBackofficeConfig({ NODE_ENV: 'test', ...c.env }), logger: testLogger(), knex: db.knex });
      });

      for (const bad of c.bad) {
        it(`when any operation is called with ${bad.when}, then 401 with the ErrorCode body (${bad.code})`, async () => {
          const wrong: string[] = [];
          for (const op of OPERATIONS) {
            const res = await call(app, op, bad.authorization);
            const body = res.body as Record<string, unknown>;
            const ok =
              res.status === 401 &&
              Object.keys(body).sort().join() === 'code,httpStatus,isProcess,message' &&
              body.code === bad.code &&
              body.httpStatus === 401 &&
              body.isProcess === false &&
              typeof body.message === 'string' &&
              (MESSAGES[bad.code] === undefined || body.message === MESSAGES[bad.code]);
            if (!ok) wrong.push(`${op.method.toUpperCase()} ${op.path}: ${res.status} ${JSON.stringify(body)}`);
          }
          expect(wrong, 'operations that did not refuse').to.deep.equal([]);
        });
      }

      it('when every operation is called with a good token, then each answers 200', async () => {
        const wrong: string[] = [];
        for (const op of OPERATIONS) {
          const res = await call(app, op, c.good);
          if (res.status !== 200) wrong.push(`${op.method.toUpperCase()} ${op.path}: ${res.status} ${JSON.stringify(res.body)}`);
        }
        expect(wrong).to.deep.equal([]);
      });
    });
  }
});
