import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { expect } from 'chai';

const root = join(import.meta.dirname, '../../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const troubleshooting = readme.split('### Troubleshooting')[1]!.split('\n## ')[0]!;
const STACK_FRAME = /^\s+at .+[(:]\d+/m;

/** A port nothing listens on: taken from the system, then released. */
const closedPort = () =>
  new Promise<number>((resolvePort) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });

/** `pnpm start` as typed, on ports and servers the test chooses; it must stop at its first check. */
function pnpmStart(env: NodeJS.ProcessEnv) {
  const r = spawnSync('pnpm', ['start'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, FORCE_COLOR: '0', ...env },
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

describe('pnpm start says what is wrong, as the README Troubleshooting shows it', function () {
  this.timeout(120_000);
  let ports: Record<string, string>;
  beforeEach(async () => {
    ports = { BO_PORT: String(await closedPort()), MEMBER_PORT: String(await closedPort()), WORKER_PORT: String(await closedPort()) };
  });

  it('when a port is in use, then it names the port and its variable before touching any database', async () => {
    const busy: Server = await new Promise((r) => {
      const s = createServer().listen(0, () => r(s));
    });
    const port = (busy.address() as { port: number }).port;
    try {
      // A database URL nobody listens on: the port check must come first.
      const { code, out } = pnpmStart({
        ...ports,
        BO_PORT: String(port),
        BO_DATABASE_URL: `mysql://root@127.0.0.1:${await closedPort()}/x`,
      });
      expect(code).to.equal(1);
      expect(out).to.include(`✖ port ${port} (BO_PORT) is in use`);
      expect(out).not.to.match(STACK_FRAME);
    } finally {
      busy.close();
    }
    expect(troubleshooting).to.include('`✖ port 3001 (BO_PORT) is in use`');
  });

  it('when MariaDB is not running, then it says so with the command that starts it, without a stack trace', async () => {
    const { code, out } = pnpmStart({ ...ports, BO_DATABASE_URL: `mysql://root@127.0.0.1:${await closedPort()}/bo` });
    expect(code).to.equal(1);
    expect(out).to.match(/✖ cannot reach MySQL\/MariaDB at mysql:\/\/root@127\.0\.0\.1:\d+\/bo/);
    expect(out).to.include('start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd');
    expect(out).not.to.match(STACK_FRAME);
    expect(troubleshooting).to.include('`✖ cannot reach MySQL/MariaDB at mysql://root@127.0.0.1:3306/bo');
  });

  it('when Redis is not running, then it says so with the command that starts it, without a stack trace', async () => {
    const url = `redis://127.0.0.1:${await closedPort()}/0`;
    const { code, out } = pnpmStart({ ...ports, REDIS_URL: url });
    expect(code).to.equal(1);
    expect(out).to.include(`✖ cannot reach Redis at ${url}`);
    expect(out).to.include('redis-server --daemonize yes --bind 127.0.0.1 --port 6379');
    expect(out).not.to.match(STACK_FRAME);
    expect(troubleshooting).to.include('`✖ cannot reach Redis at redis://127.0.0.1:6379/0`');
  });
});
