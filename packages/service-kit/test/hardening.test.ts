import { connect, type Socket } from 'node:net';
import { expect } from 'chai';
import request from 'supertest';
import { findOperation, type EnvelopeOf } from '@bo/contracts';
import { captureLogs } from '@bo/testing';
import { mountOperation, startHttpServer, type RunningServer } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/** A promise with its resolve handle, to let a test decide when a slow route may answer. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A raw connection to the server, to send what no HTTP client would (half a request). */
function rawSocket(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d: Buffer) => (text += d.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

describe('hardening: request time limit, socket limits', () => {
  describe('request time limit', () => {
    const LIMIT_MS = 300;
    const logs = captureLogs('kit-timeout');
    const release = deferred();
    const lateFailure = deferred();
    const app = kitApp({
      logger: logs.logger,
      docs: 'backoffice',
      hardening: { requestTimeoutMs: LIMIT_MS },
      routes: (r) => {
        r.get('/stuck', async (_req, res) => {
          await release.promise;
          res.json({ late: true });
        });
        r.get('/stuck-then-fails', async () => {
          await release.promise;
          lateFailure.resolve();
          throw new Error('the database went away after the answer');
        });
        mountOperation(r, findOperation('getAiGoodsAutoFill'), async () => {
          await release.promise;
          return { goodsNm: 'late' };
        });
        // Writes a piece every 100 ms for about three times the limit: a download that keeps writing.
        r.get('/download', async (_req, res) => {
          res.status(200).type('text/plain');
          for (let i = 0; i < 10; i++) {
            res.write(`piece ${i}\n`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
          res.end('done\n');
        });
      },
    });
    after(() => release.resolve());

    it('when a handler has not started its answer within the limit, then 900 with REQUEST_TIMEOUT (1504, httpStatus 504) instead of a hang', async () => {
      const res = await request(app).get(`${PREFIX}/stuck`).set('X-Request-Id', 'stuck-1').timeout(10_000);
      expect(res.status).to.equal(900);
      expect(res.body).to.deep.equal({
        code: '1504',
        message: 'The request took longer than the server allows; try again shortly or ask for less',
        httpStatus: 504,
        isProcess: false,
      });
      expect(logs.of('stuck-1').find((l) => l.message === 'request exceeded its time limit')).to.include({
        level: 'warn',
        limitMs: LIMIT_MS,
      });
    });

    it('when an envelope operation runs over the limit, then the 1504 answer is the result envelope', async () => {
      const res = await request(app).post(`${PREFIX}/v2/goods/ai/getAiGoodsAutoFill`).send({ productName: 'x' }).timeout(10_000);
      expect(res.status).to.equal(900);
      const body = res.body as EnvelopeOf<unknown>;
      expect(body).to.include({ code: '1504', httpStatus: 504, isProcess: false, error: true, payload: null });
      expect(body.errors).to.deep.equal([]);
    });

    it('when a streamed answer keeps writing past the limit, then it is not cut and arrives whole', async () => {
      const res = await request(app).get(`${PREFIX}/download`).buffer(true).timeout(10_000);
      expect(res.status).to.equal(200);
      expect(res.text).to.equal(`${Array.from({ length: 10 }, (_, i) => `piece ${i}\n`).join('')}done\n`);
    });

    it('when a handler fails after its time limit answered, then the client keeps its 504 and the failure is a warning, not an unexpected error', async () => {
      const res = await request(app).get(`${PREFIX}/stuck-then-fails`).set('X-Request-Id', 'late-fail-1').timeout(10_000);
      expect(res.body).to.include({ code: '1504' });
      release.resolve();
      await lateFailure.promise;
      await new Promise((resolve) => setImmediate(resolve));
      const lines = logs.of('late-fail-1');
      expect(lines.find((l) => l.message === 'request failed after its time limit had answered')).to.include({ level: 'warn' });
      expect(lines.filter((l) => l.level === 'error' && l.message !== 'request')).to.deep.equal([]);
    });
  });

  describe('socket limits of the server', function () {
    this.timeout(15_000);
    let server: RunningServer;
    let stalledDownload: { closedEarly: Promise<boolean> } | undefined;
    before(async () => {
      const app = kitApp({
        routes: (r) =>
          // An endless download: it ends only when the connection does.
          r.get('/endless', (_req, res) => {
            let closedEarly!: (v: boolean) => void;
            stalledDownload = { closedEarly: new Promise((resolve) => (closedEarly = resolve)) };
            res.once('close', () => closedEarly(!res.writableFinished));
            const chunk = Buffer.alloc(64 * 1024, 'x');
            const pump = () => {
              while (!res.destroyed && res.write(chunk));
            };
            res.on('drain', pump);
            pump();
          }),
      });
      server = await startHttpServer(app, 0, [], '127.0.0.1', {
        headersTimeoutMs: 300,
        receiveTimeoutMs: 600,
        keepAliveTimeoutMs: 5_000,
        idleSocketTimeoutMs: 1_500,
        checkIntervalMs: 100,
      });
    });
    after(async () => {
      server.server.closeAllConnections();
      await server.close();
    });

    it('when a client sends headers too slowly (slowloris), then the server answers 408 and closes the connection', async () => {
      const { socket, received, closed } = await rawSocket(server.port);
      socket.write('GET /api/kit/health HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      await closed;
      expect(received()).to.match(/^HTTP\/1\.1 408 /);
    });

    it('when a client sends the headers but not the announced body, then the server answers 408 and closes the connection', async () => {
      const { socket, received, closed } = await rawSocket(server.port);
      socket.write('POST /api/kit/health HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
      await closed;
      expect(received()).to.match(/^HTTP\/1\.1 408 /);
    });

    it('when a keep-alive connection idles longer than the headers limit, then its next request is still served', async () => {
      const { socket, received } = await rawSocket(server.port);
      socket.write('GET /api/kit/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      socket.write('GET /api/kit/health HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 300));
      socket.destroy();
      expect(received().match(/HTTP\/1\.1 200 /g)).to.have.length(2);
    });

    it('when a client stops reading a streamed answer, then the server cuts the connection after the idle limit', async () => {
      const { socket } = await rawSocket(server.port);
      socket.write('GET /api/kit/endless HTTP/1.1\r\nHost: x\r\n\r\n');
      socket.pause();
      while (!stalledDownload) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await stalledDownload.closedEarly).to.equal(true);
      socket.destroy();
    });
  });
});
