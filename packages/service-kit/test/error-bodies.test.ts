import { expect } from 'chai';
import request from 'supertest';
import { findOperation, type EnvelopeOf, type ErrorCode } from '@bo/contracts';
import { AppError, mountOperation } from '../src/index.ts';
import { captureLogs } from '@bo/testing';
import { kitApp, PREFIX } from './support/kit-app.ts';

const logs = captureLogs('kit');
const app = kitApp({
  logger: logs.logger,
  docs: 'backoffice',
  routes: (r) => {
    mountOperation<unknown, { productName: string }>(r, findOperation('getAiGoodsAutoFill'), ({ body }) => {
      if (body.productName === 'unknown') return Promise.reject(new AppError('GOODS_NOT_FOUND'));
      return Promise.resolve({ goodsNm: body.productName });
    });
    mountOperation<unknown, { goodsNo: string }>(r, findOperation('getAiGoodsDescV2'), ({ body }) =>
      Promise.resolve({
        result: 'OK',
        content: body.goodsNo,
        citations: [],
      }),
    );
    mountOperation(r, findOperation('getAiGoodsListV1'), () => Promise.resolve({ totalCount: 0, payloads: [] }));
    mountOperation<{ startDate: string; agrtGb: string }>(r, findOperation('getCategoryStatusList'), ({ query }) =>
      Promise.resolve({
        totalCount: 0,
        payloads: [],
        query,
      }),
    );
    r.post('/echo-size', (req, res) => {
      res.json({ chars: JSON.stringify(req.body).length });
    });
    r.get('/forbidden', () => {
      throw new AppError('FORBIDDEN');
    });
    // What a kept gzipped list answer does when its entry is gone before its first byte is sent.
    r.get('/gzip-then-fail', (_req, res) => {
      res.setHeader('Content-Encoding', 'gzip');
      throw new AppError('FORBIDDEN');
    });
    r.get('/boom', () => {
      throw new Error('connect ECONNREFUSED db-internal:3306 password=hunter2');
    });
    r.get('/boom-async', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('async failure password=hunter2');
    });
  },
});

const AUTO_FILL = `${PREFIX}/v2/goods/ai/getAiGoodsAutoFill`;
const DESC = `${PREFIX}/v2/goods/ai/getAiGoodsDesc`;
let sequence = 0;
/** Each request carries its own id so its log lines can be picked out. */
const nextId = () => `err-${++sequence}`;

function refusedLine(requestId: string, code: string) {
  const lines = logs.of(requestId).filter((l) => l.code === code);
  expect(lines, `log line with code ${code} for ${requestId}`).to.have.length(1);
  return lines[0]!;
}

describe('error bodies', () => {
  it('when a route throws a declared error, then 900 with exactly the ErrorCode body and a warn line', async () => {
    const id = nextId();
    const res = await request(app).post(DESC).set('X-Request-Id', id).send({ goodsNo: '', option: 'X' });
    expect(res.status).to.equal(900);
    expect(res.body).to.deep.equal({
      code: '1000',
      message: 'Invalid request: goodsNo must NOT have fewer than 1 characters',
      httpStatus: 400,
      isProcess: false,
      errors: [{ field: 'goodsNo', message: 'must NOT have fewer than 1 characters' }],
    });
    expect(refusedLine(id, '1000')).to.include({ level: 'warn' });
  });

  it('when a required body field is missing, then each missing field is named', async () => {
    const res = await request(app).post(DESC).send({});
    expect(res.status).to.equal(900);
    expect((res.body as ErrorCode).errors).to.deep.equal([
      { field: 'goodsNo', message: 'is required' },
      { field: 'option', message: 'is required' },
    ]);
  });

  it('when an envelope operation fails validation, then 900 with the envelope: error true and the field errors', async () => {
    const id = nextId();
    const res = await request(app).post(AUTO_FILL).set('X-Request-Id', id).send({ productName: '' });
    expect(res.status).to.equal(900);
    const { timestamp, ...rest } = res.body as { timestamp: string };
    expect(Number.isNaN(Date.parse(timestamp))).to.equal(false);
    expect(rest).to.deep.equal({
      code: '1000',
      message: 'Invalid request: productName must NOT have fewer than 1 characters',
      httpStatus: 400,
      isProcess: false,
      payload: null,
      error: true,
      errors: [{ field: 'productName', message: 'must NOT have fewer than 1 characters' }],
    });
    refusedLine(id, '1000');
  });

  it('when an envelope operation throws a business error, then the envelope carries its code and no field errors', async () => {
    const res = await request(app).post(AUTO_FILL).send({ productName: 'unknown' });
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '2001', httpStatus: 404, error: true, isProcess: false, payload: null });
    expect((res.body as EnvelopeOf<unknown>).errors).to.deep.equal([]);
  });

  it('when an envelope operation succeeds, then 200 with the envelope around the payload', async () => {
    const res = await request(app).post(AUTO_FILL).send({ productName: 'Wool coat' });
    expect(res.status).to.equal(200);
    const body = res.body as EnvelopeOf<{ goodsNm: string }>;
    expect(body).to.include({ code: '0000', isProcess: true, error: false });
    expect(body.payload).to.deep.equal({ goodsNm: 'Wool coat' });
    expect(body.errors).to.deep.equal([]);
  });

  it('when a query parameter has the wrong type, then 900 naming it, never a crash', async () => {
    const res = await request(app)
      .get(`${PREFIX}/v1/statistics/categoryStatus/getCategoryStatusList`)
      .query({ startDate: '2026-02-30', endDate: '2026-03-01', agrtGb: '09' });
    expect(res.status).to.equal(900);
    expect((res.body as ErrorCode).errors).to.deep.equal([
      { field: 'startDate', message: 'must be a valid date' },
      { field: 'agrtGb', message: 'must be one of "01", "02"' },
    ]);
  });

  it('when a scalar query parameter is repeated, then 900 naming it', async () => {
    const res = await request(app).get(
      `${PREFIX}/v1/statistics/categoryStatus/getCategoryStatusList?startDate=2026-03-01&startDate=2026-03-02&endDate=2026-03-03&agrtGb=01`,
    );
    expect(res.status).to.equal(900);
    expect((res.body as ErrorCode).errors).to.deep.equal([{ field: 'startDate', message: 'must be string' }]);
  });

  it('when a path is unknown, then 404 with the ErrorCode body and a warn line', async () => {
    for (const path of [`${PREFIX}/v9/nothing-here`, '/elsewhere']) {
      const id = nextId();
      const res = await request(app).get(path).set('X-Request-Id', id);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ code: '1404', message: `No operation at GET ${path}`, httpStatus: 404, isProcess: false });
      expect(refusedLine(id, '1404')).to.include({ level: 'warn' });
    }
  });

  it('when the caller is not allowed, then 403 (not 900) with the ErrorCode body', async () => {
    const res = await request(app).get(`${PREFIX}/forbidden`);
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ code: '1201', message: 'You may not access this resource', httpStatus: 403, isProcess: false });
  });

  it('when a route had announced a gzipped body and fails before sending it, then the error body goes plain, without that Content-Encoding', async () => {
    const res = await request(app).get(`${PREFIX}/gzip-then-fail`);
    expect(res.status).to.equal(403);
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(res.body).to.deep.equal({ code: '1201', message: 'You may not access this resource', httpStatus: 403, isProcess: false });
  });

  for (const path of ['/boom', '/boom-async']) {
    it(`when a route fails unexpectedly (${path}), then 500 with the generic body, no stack, and an error line with the stack`, async () => {
      const id = nextId();
      const res = await request(app).get(`${PREFIX}${path}`).set('X-Request-Id', id);
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.equal({ code: '1500', message: 'An unexpected error occurred', httpStatus: 500, isProcess: false });
      expect(res.text).to.not.contain('hunter2').and.not.contain('.ts:').and.not.match(/\bat /);
      const line = logs.of(id).find((l) => l.message.startsWith('unexpected error'));
      expect(line, 'error log line').to.not.equal(undefined);
      expect(line).to.include({ level: 'error' });
      expect(String(line!.stack)).to.contain('password=hunter2').and.contain('error-bodies.test.ts');
    });
  }

  it('when the JSON body is malformed, then 900 with MALFORMED_JSON (400) and a warn line', async () => {
    const id = nextId();
    const res = await request(app).post(DESC).set('X-Request-Id', id).set('Content-Type', 'application/json').send('{"goodsNo": "G1",');
    expect(res.status).to.equal(900);
    expect(res.body).to.deep.equal({ code: '1001', message: 'The request body is not valid JSON', httpStatus: 400, isProcess: false });
    refusedLine(id, '1001');
  });

  it('when the JSON body of an envelope operation is malformed, then the failure is the envelope', async () => {
    const res = await request(app).post(AUTO_FILL).set('Content-Type', 'application/json').send('{"productName": ');
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '1001', httpStatus: 400, error: true, payload: null });
  });

  it('when the body is a bare JSON string, then 900 with MALFORMED_JSON (only objects and arrays are JSON bodies)', async () => {
    const res = await request(app).post(DESC).set('Content-Type', 'application/json').send('"just text"');
    expect(res.status).to.equal(900);
    expect((res.body as ErrorCode).code).to.equal('1001');
  });

  it('when the body is a JSON array, then 900 naming the body', async () => {
    const res = await request(app)
      .post(DESC)
      .send([{ goodsNo: 'G1', option: 'X' }]);
    expect(res.status).to.equal(900);
    expect((res.body as ErrorCode).errors).to.deep.equal([{ field: '(body)', message: 'must be a JSON object' }]);
  });

  for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
    it(`when a POST operation receives ${contentType}, then 900 with UNSUPPORTED_MEDIA_TYPE (415) and a warn line`, async () => {
      const id = nextId();
      const res = await request(app).post(DESC).set('X-Request-Id', id).set('Content-Type', contentType).send('goodsNo=G1&option=X');
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal({
        code: '1002',
        message: 'The request body must be application/json',
        httpStatus: 415,
        isProcess: false,
      });
      refusedLine(id, '1002');
    });
  }

  it('when the body is larger than 1 MB, then 900 with PAYLOAD_TOO_LARGE (413) and a warn line', async () => {
    const id = nextId();
    const res = await request(app)
      .post(DESC)
      .set('X-Request-Id', id)
      .send({ goodsNo: 'G1', option: 'X', additionalInfo: 'x'.repeat(1024 * 1024 + 1) });
    expect(res.status).to.equal(900);
    expect(res.body).to.deep.equal({
      code: '1003',
      message: 'The request body is larger than the 1 MB limit',
      httpStatus: 413,
      isProcess: false,
    });
    refusedLine(id, '1003');
  });

  it('when the body is just under 1 MB, then it is read', async () => {
    const res = await request(app)
      .post(`${PREFIX}/echo-size`)
      .send({ text: 'x'.repeat(1024 * 1024 - 100) });
    expect(res.status).to.equal(200);
    expect((res.body as { chars: number }).chars).to.equal(1024 * 1024 - 100 + '{"text":""}'.length);
  });

  it('when the body of an envelope operation is larger than 1 MB, then the failure is the envelope', async () => {
    const res = await request(app)
      .post(AUTO_FILL)
      .send({ productName: 'x'.repeat(1024 * 1024 + 1) });
    expect(res.status).to.equal(900);
    expect(res.body).to.include({ code: '1003', httpStatus: 413, error: true });
  });

  it('when a deprecated operation is called, then it answers with Deprecation and a Link to its successor', async () => {
    const res = await request(app).get(`${PREFIX}/v1/goods/ai/getAiGoodsList`);
    expect(res.status).to.equal(200);
    expect(res.headers.deprecation).to.equal('true');
    expect(res.headers.link).to.equal(`<${PREFIX}/v2/goods/ai/getAiGoodsList>; rel="successor-version"`);
  });
});
