import { expect } from 'chai';
import request from 'supertest';
import { AppError } from '../src/index.ts';
import { captureLogs } from '@bo/testing';
import { kitApp, PREFIX } from './support/kit-app.ts';

/** What the test's `/work` route answers. */
interface WorkBody {
  marker: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request id', () => {
  const logs = captureLogs('kit');
  const app = kitApp({
    logger: logs.logger,
    routes: (r) => {
      r.post('/work', async (req, res) => {
        const { marker, waitMs } = req.body as { marker: string; waitMs: number };
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        logs.logger.info('work done', { marker });
        res.json({ marker } satisfies WorkBody);
      });
      r.get('/declared', () => {
        throw new AppError('GOODS_NOT_FOUND');
      });
    },
  });

  it('when the caller sends a sane X-Request-Id, then it is echoed and every log line of the request carries it', async () => {
    const id = 'web-7f3a.9:req_01';
    const res = await request(app).post(`${PREFIX}/work`).set('X-Request-Id', id).send({ marker: 'sane', waitMs: 0 });
    expect(res.headers['x-request-id']).to.equal(id);
    const lines = logs.of(id);
    expect(lines.map((l) => l.message)).to.include.members(['work done', 'request']);
    expect(lines.find((l) => l.message === 'request')).to.include({ method: 'POST', path: `${PREFIX}/work`, status: 200 });
  });

  it('when no X-Request-Id is sent, then one is generated, echoed and logged', async () => {
    const res = await request(app).post(`${PREFIX}/work`).send({ marker: 'absent', waitMs: 0 });
    const id = res.headers['x-request-id'] as string;
    expect(id).to.match(UUID);
    expect(logs.of(id).find((l) => l.message === 'work done')).to.include({ marker: 'absent' });
  });

  for (const insane of ['has spaces in it', 'x'.repeat(129), '<script>alert(1)</script>', 'id\twith\ttabs', 'ünïcode']) {
    it(`when X-Request-Id is not sane (${JSON.stringify(insane.slice(0, 20))}), then a fresh id replaces it in the answer and the logs`, async () => {
      const res = await request(app).get(`${PREFIX}/declared`).set('X-Request-Id', insane);
      const id = res.headers['x-request-id'] as string;
      expect(id).to.match(UUID);
      expect(logs.lines.some((l) => l.requestId === insane)).to.equal(false);
      expect(
        logs.of(id).find((l) => l.code === '2001'),
        'refusal logged with the fresh id',
      ).to.not.equal(undefined);
    });
  }

  it('when the error handler answers (declared, 404), then its log line carries the request id', async () => {
    const declared = await request(app).get(`${PREFIX}/declared`).set('X-Request-Id', 'rid-declared');
    expect(declared.headers['x-request-id']).to.equal('rid-declared');
    expect(logs.of('rid-declared').find((l) => l.code === '2001')).to.include({ level: 'warn' });
    const missing = await request(app).get('/nowhere').set('X-Request-Id', 'rid-404');
    expect(missing.headers['x-request-id']).to.equal('rid-404');
    expect(logs.of('rid-404').find((l) => l.code === '1404')).to.include({ level: 'warn' });
  });

  it('when two requests overlap, then each log line carries its own request id', async () => {
    // The slow one starts first and finishes last, so its work runs while the other's does.
    const [slow, fast] = await Promise.all([
      request(app).post(`${PREFIX}/work`).set('X-Request-Id', 'overlap-slow').send({ marker: 'slow', waitMs: 150 }),
      request(app).post(`${PREFIX}/work`).set('X-Request-Id', 'overlap-fast').send({ marker: 'fast', waitMs: 0 }),
    ]);
    expect([(slow.body as WorkBody).marker, (fast.body as WorkBody).marker]).to.deep.equal(['slow', 'fast']);
    expect(
      logs
        .of('overlap-slow')
        .filter((l) => l.message === 'work done')
        .map((l) => l.marker),
    ).to.deep.equal(['slow']);
    expect(
      logs
        .of('overlap-fast')
        .filter((l) => l.message === 'work done')
        .map((l) => l.marker),
    ).to.deep.equal(['fast']);
  });
});
