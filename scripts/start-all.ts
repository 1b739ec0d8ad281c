/**
 * `pnpm start`: the whole main job on one machine. Checks MySQL/MariaDB and Redis, migrates
 * both databases, loads the demo data set when the bo database has no goods, starts the three
 * processes and prints where to look. Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { addDays, createKnex, platformToday, redact } from '@bo/db';
import { seedDemo } from '@bo/data-generator';
import { databaseUrls, migrateAll } from './migrations.ts';
import { devToken } from './dev-token.ts';

const root = join(import.meta.dirname, '..');
const env: NodeJS.ProcessEnv = {
  NODE_ENV: 'development',
  QUEUE_DASHBOARD_USER: 'ops',
  QUEUE_DASHBOARD_PASSWORD: 'ops-local',
  ...process.env,
};
const ports = { bo: Number(env.BO_PORT ?? 3001), member: Number(env.MEMBER_PORT ?? 3002), worker: Number(env.WORKER_PORT ?? 3003) };
const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';

const step = (text: string) => console.log(`\n▶ ${text}`);

async function checkDependencies(): Promise<void> {
  step('checking MySQL/MariaDB and Redis');
  const { bo } = databaseUrls();
  const server = createKnex(bo.replace(/\/[^/]*$/, '/'), { poolMax: 1 });
  try {
    await server.raw('SELECT 1');
  } catch (err) {
    throw new Error(
      `cannot reach MySQL/MariaDB at ${redact(bo)} (${(err as Error).message}).\n` +
        '  Start it, e.g.: start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd',
      { cause: err },
    );
  } finally {
    await server.destroy();
  }
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    throw new Error(
      `cannot reach Redis at ${redisUrl} (${(err as Error).message}).\n` +
        '  Start it, e.g.: redis-server --daemonize yes --bind 127.0.0.1 --port 6379',
      { cause: err },
    );
  } finally {
    redis.disconnect();
  }
}

function startProcess(name: string, dir: string): ChildProcess {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['src/main.ts'], {
    cwd: join(root, dir),
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`\n✖ ${name} exited (${signal ?? code}); stopping the others`);
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

function runAggregateCli(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const cli = spawn(join(root, 'node_modules/.bin/tsx'), ['src/cli/aggregate.ts', ...args], {
      cwd: join(root, 'services/aggregation-worker'),
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    cli.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`aggregate ${args.join(' ')} exited ${code}`))));
  });
}

let stopping = false;
const children: ChildProcess[] = [];
async function stopAll(code: number): Promise<never> {
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  await checkDependencies();
  step('migrating the bo and member databases');
  await migrateAll('latest');
  step('loading the demo data set if the bo database has no goods');
  const urls = databaseUrls();
  const seeded = await seedDemo({
    boUrl: urls.bo,
    memberUrl: urls.member,
    ifEmpty: true,
    onProgress: (p) => {
      if (p.phase === 'step') console.log(`  ${p.message}`);
      else if (p.phase === 'activity' && (p.day % 10 === 0 || p.day === p.days))
        console.log(`  activity: day ${p.day}/${p.days}, ${p.rows.toLocaleString()} rows`);
    },
  });
  console.log(seeded.skipped ? '  the bo database already has goods: nothing loaded' : `  loaded in ${seeded.seconds.toFixed(1)} s`);
  step('starting the back-office service, the member service and the aggregation worker');
  children.push(startProcess('backoffice', 'services/backoffice'));
  children.push(startProcess('member', 'services/member'));
  children.push(startProcess('aggregation-worker', 'services/aggregation-worker'));
  await Promise.all([
    waitForHealth('backoffice', `http://127.0.0.1:${ports.bo}/api/bo/health`),
    waitForHealth('member', `http://127.0.0.1:${ports.member}/api/member/health`),
    waitForHealth('aggregation-worker', `http://127.0.0.1:${ports.worker}/health`),
  ]);
  const token = devToken({ user: 'admin01', group: 'BO_ADMIN' });
  console.log(`
✔ all three processes are up

  Back-office API docs   http://localhost:${ports.bo}/api/bo/swagger-ui   (OpenAPI: /api/bo/v3/api-docs)
  Member API docs        http://localhost:${ports.member}/api/member/swagger-ui   (internal callers only)
  Queue dashboard        http://localhost:${ports.worker}/admin/queues   (user ${env.QUEUE_DASHBOARD_USER}, password ${env.NODE_ENV === 'development' && !process.env.QUEUE_DASHBOARD_PASSWORD ? env.QUEUE_DASHBOARD_PASSWORD : 'from QUEUE_DASHBOARD_PASSWORD'})

  A BO_ADMIN token for trying the API (12 h${env.JWT_SECRET ? '' : ', development secret'}):
  curl -H "Authorization: Bearer ${token}" \\
    "http://localhost:${ports.bo}/api/bo/v2/dashboard/goods/sale-stock-status"

  Ctrl-C stops everything.`);
  if (!seeded.skipped && seeded.plan) {
    // The statistics lists read only the aggregates; build them for the freshly loaded days
    // through the worker's own queue (visible on the dashboard) instead of waiting for 09:00.
    const today = platformToday(env.PLATFORM_TIME_ZONE ?? 'Asia/Seoul');
    step(`building the aggregates of the demo days (${seeded.plan.start} … ${today}) through the queue`);
    await runAggregateCli(['--kind', 'all', '--from', seeded.plan.start, '--to', addDays(today, -1)]);
    await runAggregateCli(['--kind', 'inflow', '--from', today, '--to', today]);
    console.log('\n✔ demo aggregates built; the services keep running (Ctrl-C stops everything)');
  }
} catch (err) {
  console.error(`\n✖ ${(err as Error).message}`);
  await stopAll(1);
}
