import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { exitOf, freePort } from './child-process.ts';

/**
 * The real service processes, started as `pnpm start` starts them (`node --import tsx
 * src/main.ts`, configured only through env), so a fault meets the production code path:
 * the real pools, the real shutdown handler, the real process exit.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export type ServiceName = 'backoffice' | 'member' | 'aggregation-worker';

const SERVICES: Record<ServiceName, { portVar: string; prefix: string }> = {
  backoffice: { portVar: 'BO_PORT', prefix: '/api/bo' },
  member: { portVar: 'MEMBER_PORT', prefix: '/api/member' },
  'aggregation-worker': { portVar: 'WORKER_PORT', prefix: '' },
};

export interface ServiceProcess {
  name: ServiceName;
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port><prefix>` */
  baseUrl: string;
  child: ChildProcess;
  output: () => string;
  /** Resolves once the process has printed `text` (a log message). */
  printed: (text: string) => Promise<void>;
  /** True while the process has neither exited nor been killed. */
  alive: () => boolean;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (test clean-up). */
  kill: () => void;
}

const started = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

export async function startService(name: ServiceName, env: Record<string, string>): Promise<ServiceProcess> {
  const { portVar, prefix } = SERVICES[name];
  const port = await freePort();
  const cwd = `${REPO_ROOT}services/${name}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', [portVar]: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  child.once('exit', () => started.delete(child));
  let output = '';
  const waiters: { text: string; resolve: () => void }[] = [];
  const append = (d: Buffer) => {
    output += d.toString();
    for (const w of waiters.filter((x) => output.includes(x.text))) w.resolve();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = exitOf(child);
  const service: ServiceProcess = {
    name,
    pid: child.pid!,
    port,
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    child,
    output: () => output,
    printed: (text) => (output.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve }))),
    alive: () => child.exitCode === null && child.signalCode === null,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!service.alive()) throw new Error(`${name} exited before it answered /health:\n${output.slice(-3000)}`);
    const res = await fetch(`${service.baseUrl}/health`).catch(() => undefined);
    if (res?.ok) return service;
    if (Date.now() > deadline) {
      service.kill();
      throw new Error(`${name} did not answer /health within 90 s:\n${output.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Answer {
  /** 0 when no answer came (refused, reset, or no answer within the limit). */
  status: number;
  body: unknown;
  ms: number;
  /** The Retry-After header of the answer, if any. */
  retryAfter?: string;
  error?: string;
}

/**
 * One request that gives up after `limitMs`, so a hanging service shows as a slow answer
 * instead of hanging the test.
 */
export async function timedRequest(url: string, init: RequestInit = {}, limitMs = 30_000): Promise<Answer> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(limitMs) });
    const type = res.headers.get('content-type') ?? '';
    const body: unknown = type.includes('json') ? await res.json() : { bytes: (await res.arrayBuffer()).byteLength, contentType: type };
    const retryAfter = res.headers.get('retry-after');
    return { status: res.status, body, ms: performance.now() - t0, ...(retryAfter === null ? {} : { retryAfter }) };
  } catch (err) {
    const e = err as Error & { cause?: Error };
    return { status: 0, body: undefined, ms: performance.now() - t0, error: e.cause?.message ?? e.message };
  }
}

/** The error code a refused TCP connection gives, or undefined when it connects. */
export function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}
