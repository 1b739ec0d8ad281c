import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { operationsOf, type OperationSpec } from '@bo/contracts';
import { exitOf, freePort, type TestDatabase } from '@bo/testing';
import type { RunningServer } from '@bo/service-kit';
import { clientAddress, inRanges, parseAddress, parseCidrList } from '../src/client-address.ts';
import { loadMemberConfig } from '../src/config.ts';
import {
  arrangeStaff,
  CHANGE_PATH,
  change,
  createMemberDatabase,
  historyOf,
  listening,
  memberApp,
  remainingOf,
  sendFrom,
  STATUS_PATH,
  type MemberApp,
} from './support.ts';

/**
 * The service listens on 127.0.0.1 and each request's socket is bound to a chosen loopback
 * address; the configuration decides which of them are "internal" (127.0.0.1, 10/8) and which
 * is a trusted proxy (127.0.0.3). 127.0.0.2 plays an outside caller.
 */
const INSIDE = '127.0.0.1';
const OUTSIDE = '127.0.0.2';
const PROXY = '127.0.0.3';
const NOT_INTERNAL = { code: '1204', message: 'This service is reachable from internal servers only', httpStatus: 403, isProcess: false };

describe('member service: internal callers only', () => {
  let db: TestDatabase;
  let member: MemberApp;
  let server: RunningServer;
  const read = (from: string, headers: Record<string, string> = {}) =>
    sendFrom(server, from, { method: 'GET', path: `${STATUS_PATH}?mbrNo=IN1`, headers });

  before(async () => {
    db = await createMemberDatabase('member_internal');
    await arrangeStaff(db.knex, { mbrNo: 'IN1', limAmt: 10_000, rmndAmt: 8_000 });
    member = memberApp(db, { INTERNAL_CIDRS: '127.0.0.1/32,10.0.0.0/8', TRUSTED_PROXIES: `${PROXY}/32` });
    server = await listening(member);
  });
  after(async () => {
    await server.close();
    await member.close();
    await db.drop();
  });

  it('when an internal server calls, then the operation answers', async () => {
    const res = await read(INSIDE);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ mbrNo: 'IN1', rmndAmt: 8_000, limAmt: 10_000 });
  });

  it('when an outside address calls, then 403 with the error body and nothing changes', async () => {
    const res = await sendFrom(server, OUTSIDE, { method: 'POST', path: CHANGE_PATH, body: change('IN1', '20', 1_000) });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal(NOT_INTERNAL);
    expect(await remainingOf(db.knex, 'IN1')).to.equal(8_000);
    expect(await historyOf(db.knex, 'IN1')).to.have.length(0);
  });

  it('when an outside caller sends a forged X-Forwarded-For naming an internal address, then it is still refused', async () => {
    for (const xff of ['127.0.0.1', '10.1.2.3', `10.1.2.3, ${PROXY}`]) {
      const res = await read(OUTSIDE, { 'X-Forwarded-For': xff });
      expect(res.status, xff).to.equal(403);
      expect(res.body).to.deep.equal(NOT_INTERNAL);
    }
  });

  it('when an internal caller sends an X-Forwarded-For naming an outside address, then the header changes nothing', async () => {
    const res = await read(INSIDE, { 'X-Forwarded-For': '203.0.113.9' });
    expect(res.status).to.equal(200);
  });

  it('when a trusted proxy forwards an internal caller, then the operation answers', async () => {
    for (const xff of ['10.1.2.3', `10.1.2.3, ${PROXY}`, `203.0.113.9, 10.1.2.3`]) {
      const res = await read(PROXY, { 'X-Forwarded-For': xff });
      expect(res.status, xff).to.equal(200);
    }
  });

  it('when a trusted proxy forwards an outside caller, even one that prepended an internal address, then 403', async () => {
    for (const xff of ['203.0.113.9', '10.1.2.3, 203.0.113.9', `127.0.0.1, 203.0.113.9, ${PROXY}`, 'not-an-address']) {
      const res = await read(PROXY, { 'X-Forwarded-For': xff });
      expect(res.status, xff).to.equal(403);
      expect(res.body).to.deep.equal(NOT_INTERNAL);
    }
  });

  it('when a trusted proxy calls without X-Forwarded-For, then its own (non-internal) address decides', async () => {
    expect((await read(PROXY)).status).to.equal(403);
  });

  describe('with MEMBER_ACCESS_TOKEN', () => {
    const TOKEN = 'member-token-0123456789';
    let guarded: MemberApp;
    let guardedServer: RunningServer;
    before(async () => {
      guarded = memberApp(db, { INTERNAL_CIDRS: '127.0.0.1/32', MEMBER_ACCESS_TOKEN: TOKEN });
      guardedServer = await listening(guarded);
    });
    after(async () => {
      await guardedServer.close();
      await guarded.close();
    });
    const readGuarded = (from: string, headers: Record<string, string> = {}) =>
      sendFrom(guardedServer, from, { method: 'GET', path: `${STATUS_PATH}?mbrNo=IN1`, headers });

    it('when the Authorization header carries the token, as Bearer or bare, then the operation answers', async () => {
      expect((await readGuarded(INSIDE, { Authorization: `Bearer ${TOKEN}` })).status).to.equal(200);
      expect((await readGuarded(INSIDE, { Authorization: TOKEN })).status).to.equal(200);
    });

    it('when the token is missing or wrong, then 403 and nothing changes', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { Authorization: 'Bearer wrong-token-0123456789' },
        { Authorization: `Bearer ${TOKEN}x` },
      ];
      for (const headers of attempts) {
        const res = await readGuarded(INSIDE, headers);
        expect(res.status).to.equal(403);
        expect(res.body).to.include({
          code: '1201',
          httpStatus: 403,
          message: 'The Authorization header must carry the member access token',
        });
      }
      const post = await sendFrom(guardedServer, INSIDE, { method: 'POST', path: CHANGE_PATH, body: change('IN1', '20', 1_000) });
      expect(post.status).to.equal(403);
      expect(await remainingOf(db.knex, 'IN1')).to.equal(8_000);
    });

    it('when an outside caller has the right token, then it is still refused', async () => {
      const res = await readGuarded(OUTSIDE, { Authorization: `Bearer ${TOKEN}` });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal(NOT_INTERNAL);
    });
  });
});

/** A valid request of each member operation; a new operation without one fails the coverage test. */
const SAMPLES: Record<string, { query?: Record<string, string>; body?: object }> = {
  dcLimIncDec: { body: change('ALL1', '20', 1_000) },
  getDsctLmtStatBO: { query: { mbrNo: 'ALL1' } },
};

describe('member service: every operation refuses outside callers, forged X-Forwarded-For and a missing access token', () => {
  const TOKEN = 'member-token-every-op-0123456789';
  let db: TestDatabase;
  let open: MemberApp;
  let guarded: MemberApp;
  let openServer: RunningServer;
  let guardedServer: RunningServer;

  const call = (server: RunningServer, op: OperationSpec, from: string, headers: Record<string, string> = {}) => {
    const sample = SAMPLES[op.operationId]!;
    const query = sample.query ? `?${new URLSearchParams(sample.query).toString()}` : '';
    return sendFrom(server, from, {
      method: op.method === 'post' ? 'POST' : 'GET',
      path: `/api/member${op.path}${query}`,
      headers,
      body: sample.body,
    });
  };
  /** Nothing of the member changed: same remaining amount, no history row. */
  const untouched = async () => {
    expect(await remainingOf(db.knex, 'ALL1')).to.equal(8_000);
    expect(await historyOf(db.knex, 'ALL1')).to.have.length(0);
  };

  before(async () => {
    db = await createMemberDatabase('member_internal_all');
    await arrangeStaff(db.knex, { mbrNo: 'ALL1', limAmt: 10_000, rmndAmt: 8_000 });
    open = memberApp(db, { INTERNAL_CIDRS: '127.0.0.1/32,10.0.0.0/8', TRUSTED_PROXIES: `${PROXY}/32` });
    guarded = memberApp(db, { INTERNAL_CIDRS: '127.0.0.1/32,10.0.0.0/8', TRUSTED_PROXIES: `${PROXY}/32`, MEMBER_ACCESS_TOKEN: TOKEN });
    [openServer, guardedServer] = await Promise.all([listening(open), listening(guarded)]);
  });
  after(async () => {
    await Promise.all([openServer?.close(), guardedServer?.close()]);
    await Promise.all([open?.close(), guarded?.close()]);
    await db?.drop();
  });

  it('when the spec lists the member operations, then every one has a sample request here', () => {
    expect(
      operationsOf('member')
        .map((o) => o.operationId)
        .sort(),
    ).to.deep.equal(Object.keys(SAMPLES).sort());
  });

  for (const op of operationsOf('member')) {
    const title = `${op.method.toUpperCase()} ${op.path}`;

    it(`when an outside address calls ${title}, with or without a forged X-Forwarded-For, then 403 and nothing changes`, async () => {
      const forged = [undefined, '127.0.0.1', '10.0.0.1', `10.0.0.1, ${PROXY}`];
      for (const xff of forged) {
        const res = await call(openServer, op, OUTSIDE, xff ? { 'X-Forwarded-For': xff } : {});
        expect(res.status, String(xff)).to.equal(403);
        expect(res.body).to.deep.equal(NOT_INTERNAL);
      }
      // Through the trusted proxy, an outside caller that prepended an internal address.
      const proxied = await call(openServer, op, PROXY, { 'X-Forwarded-For': '10.0.0.1, 203.0.113.9' });
      expect(proxied.status).to.equal(403);
      expect(proxied.body).to.deep.equal(NOT_INTERNAL);
      await untouched();
    });

    it(`when MEMBER_ACCESS_TOKEN is set and ${title} comes without it or with a wrong one, then 403; from outside even with it, then 403`, async () => {
      const attempts: Record<string, string>[] = [
        {},
        { Authorization: 'Bearer wrong-token-0123456789' },
        { Authorization: `Bearer ${TOKEN}x` },
        { Authorization: TOKEN.slice(0, -1) },
      ];
      for (const headers of attempts) {
        const res = await call(guardedServer, op, INSIDE, headers);
        expect(res.status, JSON.stringify(headers)).to.equal(403);
        expect(res.body).to.deep.equal({
          code: '1201',
          message: 'The Authorization header must carry the member access token',
          httpStatus: 403,
          isProcess: false,
        });
      }
      for (const xff of [undefined, '10.0.0.1']) {
        const res = await call(guardedServer, op, OUTSIDE, {
          Authorization: `Bearer ${TOKEN}`,
          ...(xff ? { 'X-Forwarded-For': xff } : {}),
        });
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal(NOT_INTERNAL);
      }
      await untouched();
    });
  }

  // Last: the one call that may change the member proves the samples are valid requests.
  it('when an internal caller with the access token calls every operation, then each answers 200', async () => {
    for (const op of operationsOf('member')) {
      const res = await call(guardedServer, op, INSIDE, { Authorization: `Bearer ${TOKEN}` });
      expect(res.status, `${op.path} ${JSON.stringify(res.body)}`).to.equal(200);
    }
    expect(await remainingOf(db.knex, 'ALL1')).to.equal(7_000);
  });
});

describe('member service: metrics and API docs for internal callers only, probes for anyone', () => {
  const TOKEN = 'member-token-side-paths-0123456789';
  let db: TestDatabase;
  let member: MemberApp;
  let server: RunningServer;
  const get = (from: string, path: string, headers: Record<string, string> = {}) =>
    sendFrom(server, from, { method: 'GET', path: `/api/member${path}`, headers });

  /** What each path answers an internal caller: the metrics text, the OpenAPI JSON, the UI page. */
  const SIDE_PATHS: { path: string; content: RegExp; check: (body: unknown) => void }[] = [
    { path: '/metrics', content: /^text\/plain/, check: (body) => expect(String(body)).to.match(/^# HELP /m) },
    { path: '/v3/api-docs', content: /^application\/json/, check: (body) => expect(body).to.include({ openapi: '3.1.0' }) },
    { path: '/swagger-ui/', content: /^text\/html/, check: (body) => expect(String(body)).to.contain('swagger-ui') },
    {
      path: '/swagger-ui/swagger-ui-init.js',
      content: /javascript/,
      check: (body) => expect(String(body)).to.contain('/v1/staff/dcLimIncDec'),
    },
  ];

  before(async () => {
    db = await createMemberDatabase('member_side_paths');
    // The access token is set: it guards the operations, not these paths.
    member = memberApp(db, { INTERNAL_CIDRS: '127.0.0.1/32,10.0.0.0/8', TRUSTED_PROXIES: `${PROXY}/32`, MEMBER_ACCESS_TOKEN: TOKEN });
    server = await listening(member);
  });
  after(async () => {
    await server?.close();
    await member?.close();
    await db?.drop();
  });

  for (const side of SIDE_PATHS) {
    it(`when an outside caller asks for ${side.path}, directly, with a forged X-Forwarded-For or through the proxy, then 403 with the error body`, async () => {
      for (const [from, headers] of [
        [OUTSIDE, {}],
        [OUTSIDE, { 'X-Forwarded-For': '10.0.0.1' }],
        [OUTSIDE, { Authorization: `Bearer ${TOKEN}` }],
        [PROXY, { 'X-Forwarded-For': '10.0.0.1, 203.0.113.9' }],
      ] as const) {
        const res = await get(from, side.path, headers);
        expect(res.status, `${from} ${JSON.stringify(headers)}`).to.equal(403);
        expect(res.body).to.deep.equal(NOT_INTERNAL);
      }
    });

    it(`when an internal caller (directly or through the proxy) asks for ${side.path}, then it is served without the operations' access token`, async () => {
      for (const [from, headers] of [
        [INSIDE, {}],
        [PROXY, { 'X-Forwarded-For': '10.0.0.1' }],
      ] as const) {
        const res = await get(from, side.path, headers);
        expect(res.status, `${from} ${JSON.stringify(headers)}`).to.equal(200);
        expect(res.headers['content-type']).to.match(side.content);
        side.check(res.body);
      }
    });
  }

  it('when an outside caller asks for a path the service does not have, then 403, not 404: nothing about the service shows', async () => {
    const res = await get(OUTSIDE, '/no-such-path');
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal(NOT_INTERNAL);
    expect((await get(INSIDE, '/no-such-path', { Authorization: `Bearer ${TOKEN}` })).status).to.equal(404);
  });

  it('when anyone asks for /health or /ready (probes of orchestrators and load balancers), then they answer', async () => {
    for (const from of [OUTSIDE, INSIDE, PROXY]) {
      const health = await get(from, '/health');
      expect(health.status, from).to.equal(200);
      expect(health.body).to.deep.equal({ status: 'UP' });
      const ready = await get(from, '/ready');
      expect(ready.status, from).to.equal(200);
      expect(ready.body).to.deep.equal({ status: 'UP', checks: { database: { status: 'UP' } } });
    }
  });
});

describe('client address resolution', () => {
  const trusted = parseCidrList('10.0.0.0/8,fd00::/8');

  it('when the socket is IPv4-mapped IPv6, then the IPv4 address is the caller', () => {
    expect(clientAddress('::ffff:192.168.1.5', undefined, trusted)?.toString()).to.equal('192.168.1.5');
  });

  it('when the socket is not a trusted proxy, then X-Forwarded-For is ignored', () => {
    expect(clientAddress('192.168.1.5', '10.9.9.9', trusted)?.toString()).to.equal('192.168.1.5');
  });

  it('when IPv6 proxies forward, then the right-most untrusted entry is the caller', () => {
    expect(clientAddress('fd00::1', '2001:db8::7, fd00::2', trusted)?.toString()).to.equal('2001:db8::7');
    expect(clientAddress('10.0.0.1', '[2001:db8::9]', trusted)?.toString()).to.equal('2001:db8::9');
  });

  it('when the socket address is not an address, then the caller is unknown', () => {
    expect(clientAddress(undefined, '10.0.0.1', trusted)).to.equal(undefined);
  });
});

describe('member configuration', () => {
  it('when INTERNAL_CIDRS or TRUSTED_PROXIES hold a bad range, then loading stops naming the variable', () => {
    expect(() => loadMemberConfig({ INTERNAL_CIDRS: '10.0.0.0/33' })).to.throw(/INTERNAL_CIDRS: "10.0.0.0\/33" is not a CIDR range/);
    expect(() => loadMemberConfig({ TRUSTED_PROXIES: '10.0.0.1,proxy.local' })).to.throw(
      /TRUSTED_PROXIES: "proxy.local" is not an IP address/,
    );
  });

  it('when IDEMPOTENCY_KEY_TTL_HOURS is under 24, then loading stops', () => {
    expect(() => loadMemberConfig({ IDEMPOTENCY_KEY_TTL_HOURS: '12' })).to.throw(/IDEMPOTENCY_KEY_TTL_HOURS/);
  });

  // Issue 17.4: behind a proxy nobody listed in TRUSTED_PROXIES, the default ranges make every outside caller internal.
  it('when NODE_ENV is production without MEMBER_ACCESS_TOKEN and with the default INTERNAL_CIDRS, then loading stops naming both', () => {
    const problems = (env: NodeJS.ProcessEnv): string => {
      try {
        loadMemberConfig(env);
      } catch (err) {
        return (err as Error).message;
      }
      return '';
    };
    const both = problems({ NODE_ENV: 'production' });
    expect(both).to.match(/MEMBER_ACCESS_TOKEN is required in production/);
    expect(both).to.match(/INTERNAL_CIDRS must name the internal callers' own ranges in production/);
    // The default written out (in another order, a range spelled differently) is the default all the same.
    expect(
      problems({
        NODE_ENV: 'production',
        MEMBER_ACCESS_TOKEN: 'a-long-enough-member-token',
        INTERNAL_CIDRS: 'fc00::/7, 192.168.0.0/16,172.16.0.0/12,10.0.0.0/8,::1/128,127.0.0.0/8',
      }),
    ).to.match(/INTERNAL_CIDRS/);
    expect(problems({ NODE_ENV: 'production', INTERNAL_CIDRS: '10.20.0.0/16' }))
      .to.match(/MEMBER_ACCESS_TOKEN/)
      .and.not.match(/INTERNAL_CIDRS/);
    expect(
      problems({ NODE_ENV: 'production', INTERNAL_CIDRS: '10.20.0.0/16', MEMBER_ACCESS_TOKEN: 'a-long-enough-member-token' }),
    ).to.equal('');
    // Development and tests keep working without either.
    expect(problems({ NODE_ENV: 'development' })).to.equal('');
  });

  it('when the real process starts in production with the defaults, then it exits non-zero naming both variables', async function () {
    this.timeout(60_000);
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', MEMBER_PORT: String(await freePort()) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const { code } = await exitOf(child);
    expect(code, output).to.not.equal(0);
    expect(output).to.contain('MEMBER_ACCESS_TOKEN').and.contain('INTERNAL_CIDRS');
  });

  it('when nothing is set, then the defaults allow loopback and the private ranges', () => {
    const c = loadMemberConfig({});
    const internal = parseCidrList(c.INTERNAL_CIDRS);
    for (const ip of ['127.0.0.1', '::1', '::ffff:10.1.1.1', '172.16.0.1', '192.168.0.1', 'fd12::1'])
      expect(inRanges(parseAddress(ip)!, internal), ip).to.equal(true);
    for (const ip of ['8.8.8.8', '172.32.0.1', '2001:db8::1']) expect(inRanges(parseAddress(ip)!, internal), ip).to.equal(false);
    expect(c).to.include({ IDEMPOTENCY_KEY_TTL_HOURS: 24, STAFF_LIMIT_LOCK_WAIT_SECONDS: 5, STAFF_LIMIT_MAX_ATTEMPTS: 3 });
  });
});
