import { expect } from 'chai';
import request from 'supertest';
import { AppError, createServiceApp } from '../src/index.ts';
import { testLogger } from '../src/testing/index.ts';

describe('service app smoke', () => {
  it('when a declared error is thrown, then 900 with the ErrorCode body', async () => {
    const app = createServiceApp({
      name: 'smoke',
      prefix: '/api/x',
      logger: testLogger(),
      probes: {},
      guards: [],
      routes: (r) => r.get('/boom', () => { throw new AppError('GOODS_NOT_FOUND'); }),
    });
    const res = await request(app).get('/api/x/boom');
    expect(res.status).to.equal(900);
    expect(res.body).to.deep.equal({ code: '2001', message: 'No goods with this goods number', httpStatus: 404, isProcess: false });
  });
});
