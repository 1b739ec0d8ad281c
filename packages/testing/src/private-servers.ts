import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { exitOf, freePort } from './child-process.ts';

/**
 * MariaDB and Redis servers of one test file: own data directory, own port. The shared servers
 * on 3306 and 6379 serve everyone on the machine, so a test that stops or kills a server stops
 * one of these, never those.
 */

const started = new Set<ChildProcess>();
// A test run that ends early must not leave servers behind (mocha --exit ends with process.exit).
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

/** An executable from PATH or the sbin folders (mariadbd lives in /usr/sbin, outside a user's PATH). */
export function executable(...names: string[]): string {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  for (const name of names) for (const dir of dirs) if (dir && existsSync(join(dir, name))) return join(dir, name);
  throw new Error(`none of ${names.join(', ')} found in PATH or /usr/sbin`);
}

/** A started child with its output kept (the last 8 kB, for failure messages). */
function startChild(command: string, args: string[]): ChildProcess & { output: () => string } {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.once('exit', () => started.delete(child));
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return Object.assign(child, { output: () => output });
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exitOf(child);
  clearTimeout(timer);
}

async function poll(
  what: string,
  child: ChildProcess & { output: () => string },
  probe: () => Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited before it was ready:\n${child.output()}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what} not ready within ${timeoutMs / 1000} s:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface PrivateServer {
  port: number;
  /** True between start() and stop()/kill(). */
  readonly running: boolean;
  /** Start the server again on the same port and data directory. */
  start: () => Promise<void>;
  /** An orderly stop (SIGTERM), resolved when the process has exited. */
  stop: () => Promise<void>;
  /** A crash (SIGKILL), resolved when the process has exited. */
  kill: () => Promise<void>;
  /** Stop it and delete its data directory. */
  destroy: () => Promise<void>;
}

/**
 * One server process on `port` with its own directory `dir`, started now: started again by
 * `start()` (same port and data), ready when its output shows `readyLine`.
 */
export async function startedServer(o: {
  label: string;
  command: string;
  args: string[];
  dir: string;
  port: number;
  readyLine: string;
  readyWithinMs: number;
}): Promise<PrivateServer> {
  let child: (ChildProcess & { output: () => string }) | undefined;
  const server: PrivateServer = {
    port: o.port,
    get running() {
      return !!child && child.exitCode === null && child.signalCode === null;
    },
    start: async () => {
      const c = startChild(o.command, o.args);
      child = c;
      await poll(o.label, c, () => Promise.resolve(c.output().includes(o.readyLine)), o.readyWithinMs);
    },
    stop: async () => child && stopChild(child, 'SIGTERM'),
    kill: async () => child && stopChild(child, 'SIGKILL'),
    destroy: async () => {
      if (child) await stopChild(child, 'SIGKILL');
      rmSync(o.dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

export interface PrivateMariaDb extends PrivateServer {
  /** `mysql://root@127.0.0.1:<port>/`: add a database name with `withDatabase`. */
  serverUrl: string;
}

/**
 * A MariaDB server with a fresh data directory (mariadb-install-db, root without a password),
 * small enough to start in about a second: 64 MB buffer pool, 8 MB redo log, no binary log
 * unless it is to be part of a replication pair.
 */
export async function startPrivateMariaDb(options: { replication?: { serverId: number } } = {}): Promise<PrivateMariaDb> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-faults-mariadb-'));
  const datadir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  const engine = ['--innodb-buffer-pool-size=64M', '--innodb-log-file-size=8M', '--skip-log-bin'];
  const install = spawnSync(
    executable('mariadb-install-db', 'mysql_install_db'),
    ['--no-defaults', `--datadir=${datadir}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...asRoot, ...engine],
    { encoding: 'utf8' },
  );
  if (install.status !== 0) throw new Error(`mariadb-install-db failed:\n${install.stdout}\n${install.stderr}`);

  const port = await freePort();
  const serverUrl = `mysql://root@127.0.0.1:${port}/`;
  const args = [
    '--no-defaults',
    ...asRoot,
    `--datadir=${datadir}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${join(dir, 'mariadb.sock')}`,
    `--pid-file=${join(dir, 'mariadb.pid')}`,
    '--skip-name-resolve',
    '--performance-schema=OFF',
    ...engine,
    // A replication pair (servers/replicated-mariadb.ts): a row binary log with GTIDs on each.
    ...(options.replication
      ? [`--server-id=${options.replication.serverId}`, '--log-bin=mariadb-bin', '--binlog-format=ROW', '--log-slave-updates']
      : []),
  ];
  const server = await startedServer({
    label: `private MariaDB on ${port}`,
    command: executable('mariadbd', 'mysqld'),
    args,
    dir,
    port,
    readyLine: 'ready for connections',
    readyWithinMs: 60_000,
  });
  return Object.assign(server, { serverUrl });
}

export interface PrivateRedis extends PrivateServer {
  url: string;
}

/**
 * A Redis server with its own directory. `appendonly: true` is the queue's production setting
 * (docker-compose): AOF with `appendfsync always`, so Redis answers a write only once it is on
 * disk and a killed server, started again, still holds every job it acknowledged. (With the
 * default `everysec`, a busy disk lets Redis answer writes it has not written yet, for up to
 * two seconds: a SIGKILL then lost the last jobs queued here while the machine was loaded.)
 */
export async function startPrivateRedis(options: { appendonly: boolean; replicaOf?: number }): Promise<PrivateRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'bo-faults-redis-'));
  const port = await freePort();
  const persistence = options.appendonly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    ...persistence,
    '--maxmemory-policy',
    'noeviction',
    // A replica of another private Redis (servers/redis-sentinel.ts). Redis 7 waits 5 s for more
    // replicas before a diskless full sync; a test's replica should hold the data at once.
    '--repl-diskless-sync-delay',
    '0',
    ...(options.replicaOf ? ['--replicaof', '127.0.0.1', String(options.replicaOf)] : []),
  ];
  const server = await startedServer({
    label: `private Redis on ${port}`,
    command: executable('redis-server'),
    args,
    dir,
    port,
    readyLine: 'Ready to accept connections',
    readyWithinMs: 30_000,
  });
  return Object.assign(server, { url: `redis://127.0.0.1:${port}/0` });
}
