import { expect } from 'chai';
import request from 'supertest';
import { findOperation } from '@bo/contracts';
import { mountOperation } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/**
 * An operation's answer is written by `sendJson`, not `res.json`: it must be what `res.json`
 * gives a client (type, length, bytes), also for HEAD and for conditional requests.
 */
describe('operation answers: JSON as res.json writes it', () => {
  const answer = { totalCount: 1, payloads: [{ name: '한글 "따옴표" \\ 역슬래시', amount: 1234567890123, none: null }] };
  // Long enough to be written in pieces (json-chunks.ts): ~370 KB.
  const large = {
    totalCount: 4000,
    payloads: Array.from({ length: 4000 }, (_, i) => ({
      goodsNo: `G${i}`,
      goodsNm: `캠핑 의자 😀 "${i}"`,
      mdId: i % 7 ? 'md01' : undefined,
      ordAmt: i * 1e9,
    })),
  };
  const app = kitApp({
    docs: 'backoffice',
    routes: (r) => {
      mountOperation(r, findOperation('getCategoryStatusList'), () => Promise.resolve(answer));
      mountOperation(r, findOperation('getAiGoodsListV1'), () => Promise.resolve(answer));
      mountOperation(r, findOperation('getGoodsStatusList'), () => Promise.resolve(large));
      r.get('/reference', (_req, res) => {
        res.json(answer);
      });
      r.get('/reference-large', (_req, res) => {
        res.json(large);
      });
    },
  });
  const LIST = `${PREFIX}/v1/statistics/categoryStatus/getCategoryStatusList?startDate=2026-11-01&endDate=2026-11-02&agrtGb=01`;

  it('when an operation answers, then its type, length and body are those res.json gives the same value', async () => {
    const ours = await request(app).get(LIST);
    const reference = await request(app).get(`${PREFIX}/reference`);
    expect(ours.status).to.equal(200);
    expect(ours.headers['content-type']).to.equal(reference.headers['content-type']).and.to.equal('application/json; charset=utf-8');
    expect(ours.headers['content-length']).to.equal(reference.headers['content-length']);
    expect(ours.text).to.equal(reference.text);
    expect(ours.body).to.deep.equal(answer);
  });

  it('when an answer is large enough to go in pieces, then its type, length and bytes are still those res.json gives, and a HEAD gets its length only', async () => {
    const GOODS = `${PREFIX}/v1/statistics/goodsStatus/getGoodsStatusList?startDate=2026-11-01&endDate=2026-11-02&agrtGb=01`;
    const ours = await request(app).get(GOODS);
    const reference = await request(app).get(`${PREFIX}/reference-large`);
    expect(ours.status, ours.text.slice(0, 300)).to.equal(200);
    expect(ours.headers['content-type']).to.equal(reference.headers['content-type']);
    expect(Number(ours.headers['content-length'])).to.be.above(300_000).and.to.equal(Number(reference.headers['content-length']));
    expect(ours.text === reference.text, 'same bytes as res.json').to.equal(true);
    const head = await request(app).head(GOODS);
    expect(head.headers['content-length']).to.equal(ours.headers['content-length']);
    expect(head.text ?? '').to.equal('');
  });

  it('when the request is a HEAD, then the head carries the GET answer’s length and no body comes', async () => {
    const head = await request(app).head(LIST);
    const get = await request(app).get(LIST);
    expect(head.status).to.equal(200);
    expect(head.headers['content-length']).to.equal(get.headers['content-length']);
    expect(head.text ?? '').to.equal('');
  });

  it('when a client sends If-None-Match: * or If-Modified-Since, then it still gets the answer, not 304 (answers have no validator)', async () => {
    for (const [name, value] of [
      ['If-None-Match', '*'],
      ['If-Modified-Since', new Date(Date.now() + 86_400_000).toUTCString()],
    ] as const) {
      const res = await request(app).get(LIST).set(name, value);
      expect(res.status, name).to.equal(200);
      expect(res.body, name).to.deep.equal(answer);
    }
  });

  it('when an envelope operation answers, then the value is in the envelope with code 0000', async () => {
    const res = await request(app).get(`${PREFIX}/v1/goods/ai/getAiGoodsList`);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(res.body).to.include({ code: '0000', isProcess: true, error: false });
    expect((res.body as { payload: unknown }).payload).to.deep.equal(answer);
  });
});
