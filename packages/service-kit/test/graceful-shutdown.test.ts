import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startHttpServer } from '../src/index.ts';
import { kitApp, PREFIX } from './support/kit-app.ts';

/** A promise with its resolve handle, to let a test decide when a slow route may answer. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function getJson(url: string, agent?: Agent): Promise<{ status: number; body: unknown; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), connection: res.headers.connection }));
    }).on('error', reject);
  });
}

function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}

describe('graceful shutdown', () => {
  it('when close() is called during a slow request, then that request still completes, new connections are refused, and closers run after it', async () => {
    const events: string[] = [];
    const entered = deferred();
    const release = deferred();
    const app = kitApp({
      routes: (r) =>
        r.get('/slow', async (_req, res) => {
          entered.resolve();
          await release.promise;
          events.push('slow answered');
          res.json({ done: true });
        }),
    });
    const server = await startHttpServer(
      app,
      0,
      [
        () => {
          events.push('closer ran');
          return Promise.resolve();
        },
      ],
      '127.0.0.1',
    );

    const inFlight = getJson(`${server.url}${PREFIX}/slow`);
    await entered.promise;
    const closed = server.close().then(() => events.push('close resolved'));

    expect(await connectError(server.port)).to.equal('ECONNREFUSED');
    expect(events).to.deep.equal([]);
    release.resolve();
    const res = await inFlight;
    expect(res).to.include({ status: 200 });
    expect(res.body).to.deep.equal({ done: true });
    await closed;
    expect(events).to.deep.equal(['slow answered', 'closer ran', 'close resolved']);
  });

  it('when a keep-alive client is connected, then close() does not wait for its idle socket and its in-flight answer says Connection: close', async () => {
    const entered = deferred();
    const release = deferred();
    const app = kitApp({
      routes: (r) => {
        r.get('/fast', (_req, res) => {
          res.json({ fast: true });
        });
        r.get('/slow', async (_req, res) => {
          entered.resolve();
          await release.promise;
          res.json({ done: true });
        });
      },
    });
    const server = await startHttpServer(app, 0, [], '127.0.0.1');
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    try {
      // One idle keep-alive socket, one socket busy with a slow request.
      expect((await getJson(`${server.url}${PREFIX}/fast`, agent)).status).to.equal(200);
      const inFlight = getJson(`${server.url}${PREFIX}/slow`, agent);
      await entered.promise;
      const closed = server.close();
      release.resolve();
      const res = await inFlight;
      expect(res.status).to.equal(200);
      expect(res.connection).to.equal('close');
      // Without draining, this waits for the 65 s keep-alive timeout and the test times out.
      await closed;
    } finally {
      agent.destroy();
    }
  });

  it('when clients hold connections without a request (one silent, one that sent half its headers), then close() closes them at once and resolves right after the in-flight request answers', async () => {
    const events: string[] = [];
    const entered = deferred();
    const release = deferred();
    const app = kitApp({
      routes: (r) =>
        r.get('/slow', async (_req, res) => {
          entered.resolve();
          await release.promise;
          events.push('slow answered');
          res.json({ done: true });
        }),
    });
    // Socket limits far beyond the test's time limit: only the shutdown may close these sockets.
    const server = await startHttpServer(app, 0, [], '127.0.0.1', {
      headersTimeoutMs: 600_000,
      receiveTimeoutMs: 600_000,
      idleSocketTimeoutMs: 0,
    });
    /** A raw client connection that sends `bytes` (or nothing) and then waits. */
    const rawClient = async (bytes: string) => {
      const socket = connect(server.port, '127.0.0.1');
      socket.on('error', () => {});
      const closedByServer = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      if (bytes) await new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
      return { socket, closedByServer };
    };
    const silent = await rawClient('');
    const halfHeaders = await rawClient(`GET ${PREFIX}/slow HTTP/1.1\r\nHost: x\r\n`);
    try {
      const inFlight = getJson(`${server.url}${PREFIX}/slow`);
      await entered.promise;
      const closed = server.close().then(() => events.push('close resolved'));
      // Without closing them, these wait for no limit at all: Node stops its header checks on close().
      await Promise.all([silent.closedByServer, halfHeaders.closedByServer]);
      events.push('idle connections closed');
      release.resolve();
      const res = await inFlight;
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ done: true });
      await closed;
      expect(events).to.deep.equal(['idle connections closed', 'slow answered', 'close resolved']);
    } finally {
      release.resolve();
      silent.socket.destroy();
      halfHeaders.socket.destroy();
    }
  });

  describe('on SIGTERM (a real process)', () => {
    const fixture = fileURLToPath(new URL('./fixtures/slow-service.ts', import.meta.url));
    let child: ChildProcess | undefined;
    afterEach(() => {
      if (child && child.exitCode === null) child.kill('SIGKILL');
    });

    /** Start the fixture and resolve with its port, its output so far and its exit. */
    async function startFixture(env: Record<string, string>) {
      const proc = spawn(process.execPath, ['--import', 'tsx', fixture], {
        env: { PATH: process.env.PATH, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = proc;
      let out = '';
      const waiters: { text: string; resolve: () => void }[] = [];
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (const w of waiters.filter((x) => out.includes(x.text))) w.resolve();
      });
      proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
      const waitFor = (text: string) =>
        out.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ text, resolve }));
      await waitFor('LISTENING ');
      const port = Number(/LISTENING (\d+)/.exec(out)![1]);
      return { port, waitFor, exited, output: () => out };
    }

    it('when SIGTERM arrives during a request, then the request completes, closers run, and the process exits 0', async function () {
      this.timeout(30_000);
      const fx = await startFixture({ HOLD_MS: '500' });
      const inFlight = getJson(`http://127.0.0.1:${fx.port}/api/fx/slow`);
      await fx.waitFor('SLOW_STARTED');
      child!.kill('SIGTERM');
      const res = await inFlight;
      expect(res.status).to.equal(200);
      expect(await fx.exited).to.equal(0);
      const out = fx.output();
      const order = ['shutting down', 'CLOSER_RAN', '"stopped"'].map((t) => out.indexOf(t));
      expect(
        order.every((i) => i >= 0),
        out,
      ).to.equal(true);
      expect(order).to.deep.equal([...order].sort((a, b) => a - b));
    });

    it('when in-flight work outlasts the shutdown limit, then the process gives up and exits 1', async function () {
      this.timeout(30_000);
      const fx = await startFixture({ HOLD_MS: '60000', SHUTDOWN_TIMEOUT_MS: '300' });
      const inFlight = getJson(`http://127.0.0.1:${fx.port}/api/fx/slow`).catch((err: Error) => err);
      await fx.waitFor('SLOW_STARTED');
      child!.kill('SIGTERM');
      expect(await fx.exited).to.equal(1);
      expect(fx.output()).to.contain('shutdown took too long');
      expect(await inFlight).to.be.instanceOf(Error);
    });
  });
});
