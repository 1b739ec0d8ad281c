/**
 * `pnpm start`: the whole main job on one machine. Checks MySQL/MariaDB and Redis, migrates
 * both databases, loads the demo data set when the bo database has no goods, starts the three
 * processes, builds the demo aggregates, and prints where to look last. Ctrl-C stops everything.
 * The processes' JSON logs go to `.logs/<process>.log` (or to the terminal with `--verbose`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join, relative, resolve } from 'node:path';
import cliProgress from 'cli-progress';
import { Redis } from 'ioredis';
import { addDays, createKnex, platformToday, redact } from '@bo/db';
import { DEMO_SIZE, seedDatabases, type SeedProgress } from '@bo/data-generator';
import { parseCommandLine, usageError } from '@bo/service-kit';
import { databaseUrls, migrateAll } from './migrations.ts';
import { devToken } from './dev-token.ts';

const USAGE = `usage: pnpm start [--verbose] [--logs .logs] [--demo-days ${DEMO_SIZE.days}] [--demo-events ${DEMO_SIZE.events}]
  --verbose       the processes' JSON logs in the terminal instead of in files
  --logs          folder of the log files (default .logs)
  --demo-days     days of demo data loaded into an empty bo database (default ${DEMO_SIZE.days})
  --demo-events   order events of the demo data (default ${DEMO_SIZE.events})`;

const root = join(import.meta.dirname, '..');
const args = parseCommandLine(USAGE, {
  verbose: { type: 'boolean', default: false },
  logs: { type: 'string', default: '.logs' },
  'demo-days': { type: 'string', default: String(DEMO_SIZE.days) },
  'demo-events': { type: 'string', default: String(DEMO_SIZE.events) },
});
const wholeNumber = (name: string, text: string): number => {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 ? n : usageError(`--${name} must be a whole number ≥ 1 (got "${text}")`, USAGE);
};
const demo = { days: wholeNumber('demo-days', args['demo-days']), events: wholeNumber('demo-events', args['demo-events']) };
// pnpm runs scripts from the workspace root; INIT_CWD is where the user typed the command.
const logDir = resolve(process.env.INIT_CWD ?? root, args.logs);

const env: NodeJS.ProcessEnv = {
  NODE_ENV: 'development',
  QUEUE_DASHBOARD_USER: 'ops',
  QUEUE_DASHBOARD_PASSWORD: 'ops-local',
  ...process.env,
};
const ports = { bo: Number(env.BO_PORT ?? 3001), member: Number(env.MEMBER_PORT ?? 3002), worker: Number(env.WORKER_PORT ?? 3003) };
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';

const step = (text: string) => console.log(`▶ ${text}`);
/** A bar on a terminal; nothing when the output is a file or a pipe (the step lines say enough). */
const progressBar = (format: string) =>
  new cliProgress.SingleBar({ format, hideCursor: true, clearOnComplete: true }, cliProgress.Presets.shades_classic);

/** Resolves when nothing listens on the port (a listen on all interfaces succeeds). */
const portFree = (port: number) =>
  new Promise<boolean>((resolveFree) => {
    const probe = createServer()
      .once('error', () => resolveFree(false))
      .once('listening', () => probe.close(() => resolveFree(true)));
    probe.listen(port);
  });

async function checkPorts(): Promise<void> {
  for (const [variable, port] of [
    ['BO_PORT', ports.bo],
    ['MEMBER_PORT', ports.member],
    ['WORKER_PORT', ports.worker],
  ] as const) {
    if (!(await portFree(port)))
      throw new Error(
        `port ${port} (${variable}) is in use: stop what listens there (see \`ss -ltnp 'sport = :${port}'\`), ` +
          `or start on other ports, e.g. ${variable}=${port + 100} pnpm start`,
      );
  }
}

/** Whether something accepts connections at the URL's host and port (before a driver logs its own stack). */
const listening = (url: string, defaultPort: number) =>
  new Promise<boolean>((resolveListening) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port || defaultPort), hostname.replace(/^\[|\]$/g, ''));
    socket.setTimeout(5000);
    const answer = (up: boolean) => {
      socket.destroy();
      resolveListening(up);
    };
    socket.once('connect', () => answer(true));
    socket.once('error', () => answer(false));
    socket.once('timeout', () => answer(false));
  });

async function checkDependencies(): Promise<void> {
  step('checking the ports, MySQL/MariaDB and Redis');
  await checkPorts();
  const { bo } = databaseUrls();
  const mariadbHint = '  Start it, e.g.: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd';
  if (!(await listening(bo, 3306))) throw new Error(`cannot reach MySQL/MariaDB at ${redact(bo)} (nothing listens there).\n${mariadbHint}`);
  const redisHint = '  Start it, e.g.: redis-server --daemonize yes --bind 127.0.0.1 --port 6379';
  if (!(await listening(redisUrl, 6379))) throw new Error(`cannot reach Redis at ${redisUrl} (nothing listens there).\n${redisHint}`);
  const server = createKnex(bo.replace(/\/[^/]*$/, '/'), { poolMax: 1 });
  try {
    await server.raw('SELECT 1');
  } catch (err) {
    throw new Error(`cannot reach MySQL/MariaDB at ${redact(bo)} (${(err as Error).message}).\n` + mariadbHint, { cause: err });
  } finally {
    await server.destroy();
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined); // reported once below, not as an unhandled event
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(`cannot reach Redis at ${redisUrl} (${(err as Error).message}).\n` + redisHint, { cause: err });
  } finally {
    redis.disconnect();
  }
}

/** Where a process's output goes: the terminal with --verbose, else `<logs>/<name>.log`. */
const output = args.verbose ? 'inherit' : 'pipe';
function toLogFile(name: string, child: ChildProcess): void {
  if (args.verbose) return;
  const file = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  child.stdout?.pipe(file);
  child.stderr?.pipe(file);
}
const logFileOf = (name: string) => {
  const path = relative(process.env.INIT_CWD ?? root, join(logDir, `${name}.log`));
  return path.startsWith('..') ? join(logDir, `${name}.log`) : path;
};

function startProcess(name: string, dir: string): ChildProcess {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: join(root, dir),
    env,
    stdio: ['ignore', output, output],
  });
  toLogFile(name, child);
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`\n✖ ${name} exited (${signal ?? code}); stopping the others${args.verbose ? '' : ` (its log: ${logFileOf(name)})`}`);
      void stopAll(1);
    }
  });
  return child;
}

async function waitForHealth(name: string, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${name} did not become healthy at ${url} within ${timeoutMs / 1000} s`);
}

/** `pnpm aggregate` through the worker's own queue; its bar (on a terminal) shows the jobs done. */
function runAggregateCli(cliArgs: string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const cli = spawn(join(root, 'node_modules/.bin/tsx'), ['src/cli/aggregate.ts', ...cliArgs], {
      cwd: join(root, 'services/aggregation-worker'),
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    cli.on('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`aggregate ${cliArgs.join(' ')} exited ${code}`))));
  });
}

async function loadDemo() {
  step('loading the demo data set if the bo database has no goods');
  const urls = databaseUrls();
  const bar = progressBar('  demo data [{bar}] day {value}/{total} | {rows} rows');
  const onProgress = (p: SeedProgress) => {
    if (p.phase === 'activity') {
      if (!bar.isActive) bar.start(p.days, 0, { rows: 0 });
      bar.update(p.day, { rows: p.rows.toLocaleString() });
    } else if (p.phase === 'step' && !bar.isActive && args.verbose) console.log(`  ${p.message}`);
  };
  try {
    return await seedDatabases({ ...DEMO_SIZE, ...demo, boUrl: urls.bo, memberUrl: urls.member, ifEmpty: true, onProgress });
  } finally {
    bar.stop();
  }
}

/**
 * The first day of the order events when no aggregate day was ever built (the data is there,
 * its build is not: the start that loaded it was stopped first); undefined otherwise.
 */
async function unbuiltEventsStart(): Promise<string | undefined> {
  const knex = createKnex(databaseUrls().bo, { poolMax: 1 });
  try {
    if (await knex('agg_built_day').first('kind')) return undefined;
    const [rows] = (await knex.raw("SELECT DATE_FORMAT(MIN(evt_dtm), '%Y-%m-%d') AS first FROM ord_stat_evt")) as [
      { first: string | null }[],
    ];
    return rows[0]?.first ?? undefined;
  } finally {
    await knex.destroy();
  }
}

let stopping = false;
const children: ChildProcess[] = [];
async function stopAll(code: number): Promise<never> {
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r)))));
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/**
 * The launchers between the shell and this script (pnpm, the sh it runs scripts in, tsx), read
 * from /proc. pnpm does not pass a SIGTERM on to its script (`kill <pnpm>`, `timeout pnpm start`):
 * it just ends, and the services would keep running without anyone to stop them.
 */
function launchers(): number[] {
  const chain: number[] = [];
  for (let pid = process.ppid; pid > 1 && chain.length < 6;) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      break; // not Linux, or gone already
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (!['node', 'sh', 'pnpm', 'tsx', 'npm'].includes(comm)) break;
    chain.push(pid);
    pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  }
  return chain;
}
const alive = (pid: number) => existsSync(`/proc/${pid}`);
const launchedBy = launchers();
setInterval(() => {
  if (!stopping && !launchedBy.every(alive)) {
    console.log('\nthe pnpm process that started this has ended: stopping everything');
    void stopAll(0);
  }
}, 1000).unref();

try {
  await checkDependencies();
  step('migrating the bo and member databases');
  await migrateAll('latest');
  const seeded = await loadDemo();
  console.log(seeded.skipped ? '  the bo database already has goods: nothing loaded' : `  loaded in ${seeded.seconds.toFixed(1)} s`);
  step('starting the back-office service, the member service and the aggregation worker');
  if (!args.verbose) {
    mkdirSync(logDir, { recursive: true });
    console.log(
      `  their JSON logs: ${['backoffice', 'member', 'aggregation-worker'].map(logFileOf).join(', ')} (--verbose shows them here)`,
    );
  }
  children.push(startProcess('backoffice', 'services/backoffice'));
  children.push(startProcess('member', 'services/member'));
  children.push(startProcess('aggregation-worker', 'services/aggregation-worker'));
  await Promise.all([
    waitForHealth('backoffice', `http://127.0.0.1:${ports.bo}/api/bo/health`),
    waitForHealth('member', `http://127.0.0.1:${ports.member}/api/member/health`),
    waitForHealth('aggregation-worker', `http://127.0.0.1:${ports.worker}/health`),
  ]);
  // A first start stopped before its build would otherwise leave every report empty for good.
  const firstDay = seeded.skipped ? await unbuiltEventsStart() : seeded.plan?.start;
  if (firstDay) {
    // The statistics lists read only the aggregates; build them for the loaded days through the
    // worker's own queue (visible on the dashboard) instead of waiting for 09:00.
    const today = platformToday(env.PLATFORM_TIME_ZONE ?? 'Asia/Seoul');
    step(`building the aggregates of the demo days (${firstDay} … ${today}) through the queue`);
    if (firstDay < today) await runAggregateCli(['--kind', 'all', '--from', firstDay, '--to', addDays(today, -1)]);
    await runAggregateCli(['--kind', 'inflow', '--from', today, '--to', today]);
  }
  const token = devToken({ user: 'admin01', group: 'BO_ADMIN' });
  const dashboardPassword =
    env.NODE_ENV === 'development' && !process.env.QUEUE_DASHBOARD_PASSWORD
      ? env.QUEUE_DASHBOARD_PASSWORD
      : 'from QUEUE_DASHBOARD_PASSWORD';
  console.log(`
✔ all three processes are up${firstDay ? ' and the demo aggregates are built' : ''}

  Back-office API docs   http://localhost:${ports.bo}/api/bo/swagger-ui   (OpenAPI: /api/bo/v3/api-docs)
  Member API docs        http://localhost:${ports.member}/api/member/swagger-ui   (internal callers only)
  Queue dashboard        http://localhost:${ports.worker}/admin/queues   (user ${env.QUEUE_DASHBOARD_USER}, password ${dashboardPassword})

  A BO_ADMIN token for trying the API (12 h${env.JWT_SECRET ? '' : ', development secret'}; README "Quick tour" has more calls):
  TOKEN=${token}
  curl -H "Authorization: Bearer $TOKEN" "http://localhost:${ports.bo}/api/bo/v2/dashboard/goods/sale-stock-status"

  Ctrl-C stops everything.`);
} catch (err) {
  console.error(`\n✖ ${(err as Error).message}`);
  await stopAll(1);
}
