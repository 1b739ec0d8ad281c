import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Express } from 'express';
import { boSourceMigrations } from '@bo/db';
import {
  createTestDatabase,
  type TestDatabase,
  ADMIN,
  bearer,
  testLogger,
  freePort,
  startNginxGateway,
  type RunningGateway,
} from '@bo/testing';
import { memberMigrations } from '@bo/member/migrations';
import { backofficeApp, memberApp } from './support/real-apps.ts';

/** What an upstream saw of one proxied request. */
interface Seen {
  upstream: string;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bodyBytes: number;
}

/** A stand-in for one service: records what reaches it and echoes it back as JSON. */
async function fakeUpstream(name: string): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let bodyBytes = 0;
    req.on('data', (d: Buffer) => (bodyBytes += d.length));
    req.on('end', () => {
      const entry = { upstream: name, method: req.method ?? '', url: req.url ?? '', headers: req.headers, bodyBytes };
      seen.push(entry);
      if (req.url?.endsWith('/declared-failure')) {
        res.writeHead(900, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ code: '2001', message: 'No goods with this goods number', httpStatus: 404, isProcess: false }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(entry));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, seen };
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: () => Record<string, unknown>;
}

/** One HTTP request from a chosen loopback address, path sent exactly as given. */
function send(
  port: number,
  options: { path: string; from?: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: options.path,
        method: options.method ?? 'GET',
        headers: options.headers,
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('gateway (infra/gateway/nginx.conf run by a real nginx)', () => {
  let gateway: RunningGateway;
  let gatewayPort: number;
  let backoffice: Awaited<ReturnType<typeof fakeUpstream>>;
  let member: Awaited<ReturnType<typeof fakeUpstream>>;
  let worker: Awaited<ReturnType<typeof fakeUpstream>>;
  const accessLogLine = (text: string) => gateway.accessLogLine(text);

  before(async function () {
    this.timeout(30_000);
    [backoffice, member, worker] = await Promise.all([fakeUpstream('backoffice'), fakeUpstream('member'), fakeUpstream('worker')]);
    gateway = await startNginxGateway({ backoffice: [backoffice.port], member: [member.port], worker: [worker.port] });
    gatewayPort = gateway.port;
  });

  after(async () => {
    await gateway?.stop();
    for (const upstream of [backoffice, member, worker]) {
      upstream?.server.closeAllConnections();
      upstream?.server.close();
    }
  });

  it('when the rendered config is checked with nginx -t, then it is valid', () => {
    expect(gateway.checkOutput).to.contain('test is successful');
  });

  it('when /api/bo is called from outside, then it reaches the back-office unchanged with X-Request-Id and the caller as X-Forwarded-For', async () => {
    const res = await send(gatewayPort, {
      path: '/api/bo/v2/statistics/category/sales-status?startDate=2026-05-01&agrtGb=01',
      headers: { 'X-Request-Id': 'ui-4711', 'X-Forwarded-For': '10.0.0.5', Authorization: 'Bearer abc' },
    });
    expect(res.status).to.equal(200);
    const seen = res.json() as unknown as Seen;
    expect(seen).to.include({
      upstream: 'backoffice',
      method: 'GET',
      url: '/api/bo/v2/statistics/category/sales-status?startDate=2026-05-01&agrtGb=01',
    });
    expect(seen.headers).to.include({ 'x-request-id': 'ui-4711', authorization: 'Bearer abc', 'x-real-ip': '127.0.0.1' });
    expect(seen.headers['x-forwarded-for'], "the caller's own X-Forwarded-For is replaced").to.equal('127.0.0.1');
    expect(JSON.parse(await accessLogLine('"requestId":"ui-4711"'))).to.include({ remote: '127.0.0.1', status: 200, method: 'GET' });
  });

  it('when a caller sends a spoofed internal X-Forwarded-For (10.0.0.1, alone or as a chain), then the service sees only the real caller', async () => {
    for (const [from, xff] of [
      ['127.0.0.9', '10.0.0.1'],
      ['127.0.0.9', '10.0.0.1, 127.0.0.2'],
      ['127.0.0.2', '10.0.0.1'],
    ]) {
      const res = await send(gatewayPort, { path: '/api/bo/health', from, headers: { 'X-Forwarded-For': xff!, 'X-Real-IP': '10.0.0.1' } });
      const seen = res.json() as unknown as Seen;
      expect(seen.headers, `${from} sending ${xff}`).to.include({ 'x-forwarded-for': from, 'x-real-ip': from });
    }
  });

  it('when no sane X-Request-Id comes in, then the gateway makes one, passes it on and logs it', async () => {
    for (const headers of [{}, { 'X-Request-Id': 'not sane at all' }] as Record<string, string>[]) {
      const seen = (await send(gatewayPort, { path: '/api/bo/health', headers })).json() as unknown as Seen;
      const id = seen.headers['x-request-id'] as string;
      expect(id).to.match(/^[0-9a-f]{32}$/);
      await accessLogLine(`"requestId":"${id}"`);
    }
  });

  it('when the back-office answers a declared failure (900), then the status and body pass through', async () => {
    const res = await send(gatewayPort, { path: '/api/bo/declared-failure' });
    expect(res.status).to.equal(900);
    expect(res.json()).to.deep.equal({ code: '2001', message: 'No goods with this goods number', httpStatus: 404, isProcess: false });
  });

  it('when a body over 1 MB is posted, then it reaches the service (which answers its own 1003) instead of an nginx 413', async () => {
    const body = JSON.stringify({ additionalInfo: 'x'.repeat(1536 * 1024) });
    const res = await send(gatewayPort, {
      path: '/api/bo/v2/goods/ai/getAiGoodsDesc',
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });
    expect(res.status).to.equal(200);
    expect((res.json() as unknown as Seen).bodyBytes).to.equal(Buffer.byteLength(body));
  });

  it('when one keep-alive connection carries more than 1,000 requests, then the gateway keeps it open (no reset for busy callers)', async () => {
    // nginx's default closes a client connection after 1,000 requests; a caller racing that close gets a reset socket.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    try {
      for (let i = 0; i < 1_100; i++) {
        const closing = await new Promise<string | undefined>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port: gatewayPort, path: '/api/bo/keepalive', agent }, (res) => {
            sockets.add(req.socket);
            res.resume();
            res.on('end', () => resolve(res.headers.connection));
          });
          req.on('error', reject);
          req.end();
        });
        expect(closing, `response ${i + 1}`).not.to.equal('close');
      }
      expect(sockets.size).to.equal(1);
    } finally {
      agent.destroy();
    }
  });

  it('when /admin/queues is called, then it reaches the worker', async () => {
    const res = await send(gatewayPort, { path: '/admin/queues/api/queues' });
    expect(res.status).to.equal(200);
    expect(res.json()).to.include({ upstream: 'worker', url: '/admin/queues/api/queues' });
  });

  it('when the rerun form (/admin/rerun, linked from the board) is called, then it reaches the worker', async () => {
    const res = await send(gatewayPort, { path: '/admin/rerun' });
    expect(res.status).to.equal(200);
    expect(res.json()).to.include({ upstream: 'worker', url: '/admin/rerun' });
  });

  it('when /api/member is called from outside the network (or from its gateway address), then 403 with the ErrorCode body and the member service never sees it', async () => {
    const before = member.seen.length;
    const spoofs = ['127.0.0.2', '10.0.0.1', '10.0.0.1, 127.0.0.2'];
    for (const [from, xff] of ['127.0.0.1', '127.0.0.9'].flatMap((f) => spoofs.map((x) => [f, x] as const))) {
      const res = await send(gatewayPort, {
        path: '/api/member/v1/staff/getDsctLmtStatBO?mbrNo=M1',
        from,
        headers: { 'X-Forwarded-For': xff, 'X-Real-IP': xff },
      });
      expect(res.status, `${from} sending ${xff}`).to.equal(403);
      expect(res.headers['content-type']).to.equal('application/json');
      expect(res.json()).to.deep.equal({
        code: '1204',
        message: 'This service is reachable from internal servers only',
        httpStatus: 403,
        isProcess: false,
      });
      expect(res.headers['x-request-id']).to.match(/^[0-9a-f]{32}$/);
    }
    expect(member.seen.length).to.equal(before);
  });

  it('when an outside caller dresses /api/member up (dot segments, encoded dots and slashes, double slash), then still 403', async () => {
    const before = member.seen.length;
    for (const path of [
      '/api/bo/../member/v1/staff/getDsctLmtStatBO?mbrNo=M1',
      '/api/bo/%2e%2e/member/v1/staff/getDsctLmtStatBO',
      '/api/bo/..%2fmember/v1/staff/getDsctLmtStatBO',
      '//api/member/v1/staff/getDsctLmtStatBO',
    ]) {
      const res = await send(gatewayPort, { path });
      expect(res.status, path).to.equal(403);
      expect(res.json(), path).to.include({ code: '1204' });
    }
    expect(member.seen.length).to.equal(before);
  });

  it('when /api/member is called from inside the network, then it reaches the member service with the caller in X-Forwarded-For', async () => {
    const res = await send(gatewayPort, {
      path: '/api/member/v1/staff/getDsctLmtStatBO?mbrNo=M1',
      from: '127.0.0.2',
      headers: { 'X-Request-Id': 'internal-1' },
    });
    expect(res.status).to.equal(200);
    const seen = res.json() as unknown as Seen;
    expect(seen).to.include({ upstream: 'member', url: '/api/member/v1/staff/getDsctLmtStatBO?mbrNo=M1' });
    expect(seen.headers).to.include({ 'x-forwarded-for': '127.0.0.2', 'x-request-id': 'internal-1' });
  });

  it('when a path belongs to no service, then 404 with the ErrorCode body', async () => {
    const res = await send(gatewayPort, { path: '/wp-admin/setup.php' });
    expect(res.status).to.equal(404);
    expect(res.json()).to.deep.equal({ code: '1404', message: 'No such resource', httpStatus: 404, isProcess: false });
  });

  it('when a service is down, then 503 with the ErrorCode body instead of an nginx error page', async () => {
    worker.server.closeAllConnections();
    await new Promise<void>((resolve) => worker.server.close(() => resolve()));
    const res = await send(gatewayPort, { path: '/admin/queues' });
    expect(res.status).to.equal(503);
    expect(res.json()).to.deep.equal({
      code: '1503',
      message: 'A dependency is unavailable; try again shortly',
      httpStatus: 503,
      isProcess: false,
    });
  });
});

/** An Express app on a loopback port of its own. */
async function listen(app: Express): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The same gateway in front of the real back-office and member services. The member service is
 * configured as in docker-compose.yml, with loopback for the compose network: internal callers
 * 127.0.0.0/29 (172.28.0.0/16), X-Forwarded-For believed from the gateway only (172.28.0.10).
 */
describe('gateway in front of the real services', () => {
  let boDb: TestDatabase;
  let memberDb: TestDatabase;
  let services: { port: number; close: () => Promise<void> }[] = [];
  let gateway: RunningGateway;
  let memberPort: number;
  const STAFF = { mbrNo: 'GW1', rmndAmt: 8_000, limAmt: 10_000 };
  const remaining = async () =>
    (await memberDb.knex('staff_dc_lim').where({ mbr_no: STAFF.mbrNo }).first<{ rmnd_amt: number }>('rmnd_amt')).rmnd_amt;
  const historyRows = async () => (await memberDb.knex('staff_dc_lim_hist').where({ mbr_no: STAFF.mbrNo })).length;
  const change = JSON.stringify({ mbrNo: STAFF.mbrNo, rsrvUseGbCd: '20', ocurAmt: 1_000, ordNo: 'O-GW' });

  before(async function () {
    this.timeout(60_000);
    [boDb, memberDb] = await Promise.all([
      createTestDatabase('kit_gw_bo', boSourceMigrations),
      createTestDatabase('kit_gw_member', memberMigrations),
    ]);
    await memberDb.knex('mbr').insert({ mbr_no: STAFF.mbrNo, mbr_nm: 'staff', mbr_stat_cd: '10', staff_yn: 'Y' });
    await memberDb
      .knex('staff_dc_lim')
      .insert({ mbr_no: STAFF.mbrNo, lim_amt: STAFF.limAmt, rmnd_amt: STAFF.rmndAmt, upd_dtm: '2026-01-01 00:00:00' });
    const memberEnv = { INTERNAL_CIDRS: '127.0.0.0/29', TRUSTED_PROXIES: '127.0.0.1/32' };
    services = await Promise.all([
      listen(backofficeApp(boDb.knex, testLogger('backoffice'))),
      listen(memberApp(memberDb.knex, testLogger('member'), memberEnv)),
    ]);
    memberPort = services[1]!.port;
    gateway = await startNginxGateway({ backoffice: [services[0]!.port], member: [memberPort], worker: [await freePort()] });
  });
  after(async () => {
    await gateway?.stop();
    await Promise.all(services.map((s) => s.close()));
    await Promise.all([boDb?.drop(), memberDb?.drop()]);
  });

  it('when /api/bo is called through the gateway, then the real back-office answers: 200 with a token, its own 401 body without', async () => {
    const path = '/api/bo/v2/dashboard/goods/sale-stock-status';
    const ok = await send(gateway.port, {
      path,
      from: '127.0.0.9',
      headers: { Authorization: bearer(ADMIN), 'X-Forwarded-For': '10.0.0.1' },
    });
    expect(ok.status, ok.text).to.equal(200);
    expect(ok.json()).to.have.keys('goodsStatuses', 'mdMatchedStdCtgCount');
    const refused = await send(gateway.port, { path, from: '127.0.0.9' });
    expect(refused.status).to.equal(401);
    expect(refused.json()).to.deep.equal({ code: '1101', message: 'A bearer access token is required', httpStatus: 401, isProcess: false });
  });

  it('when an outside caller spoofing X-Forwarded-For: 10.0.0.1 calls /api/member on the public listener, then 403 and the real member changes nothing', async () => {
    for (const from of ['127.0.0.1', '127.0.0.9']) {
      const headers = { 'X-Forwarded-For': '10.0.0.1', 'Content-Type': 'application/json' };
      const read = await send(gateway.port, { path: `/api/member/v1/staff/getDsctLmtStatBO?mbrNo=${STAFF.mbrNo}`, from, headers });
      const write = await send(gateway.port, { path: '/api/member/v1/staff/dcLimIncDec', method: 'POST', from, headers, body: change });
      for (const res of [read, write]) {
        expect(res.status, from).to.equal(403);
        expect(res.json()).to.deep.equal({
          code: '1204',
          message: 'This service is reachable from internal servers only',
          httpStatus: 403,
          isProcess: false,
        });
      }
    }
    expect(await remaining()).to.equal(STAFF.rmndAmt);
    expect(await historyRows()).to.equal(0);
  });

  it('when the same spoof goes straight to the member port, then the member itself refuses it (it believes X-Forwarded-For from the gateway only)', async () => {
    const res = await send(memberPort, {
      path: `/api/member/v1/staff/getDsctLmtStatBO?mbrNo=${STAFF.mbrNo}`,
      from: '127.0.0.9',
      headers: { 'X-Forwarded-For': '10.0.0.1' },
    });
    expect(res.status).to.equal(403);
    expect(res.json()).to.include({ code: '1204' });
  });

  it('when an internal server calls /api/member through the gateway, whatever X-Forwarded-For it sends, then the real member answers it', async () => {
    for (const headers of [{}, { 'X-Forwarded-For': '203.0.113.9' }] as Record<string, string>[]) {
      const res = await send(gateway.port, {
        path: `/api/member/v1/staff/getDsctLmtStatBO?mbrNo=${STAFF.mbrNo}`,
        from: '127.0.0.2',
        headers,
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.json()).to.deep.equal(STAFF);
    }
  });
});
