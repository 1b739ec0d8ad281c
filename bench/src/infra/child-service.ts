import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A service run as its own process, as in production: the load generator then does not share
 * the event loop (or the CPU accounting) with the server, and the process's memory is its own.
 */
export interface ChildService {
  name: string;
  pid: number;
  /** Base URL including the prefix, e.g. `http://127.0.0.1:41234/api/bo`. */
  baseUrl: string;
  /** Peak resident set size so far (VmHWM), in MB. */
  peakRssMb: () => number;
  rssMb: () => number;
  stop: () => Promise<void>;
}

const running = new Set<ChildProcess>();
// A run that dies or is interrupted half-way must not leave servers behind.
const killAll = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killAll();
    process.exit(130);
  });
}

export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

function statusField(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function waitReady(url: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before it was ready: ${output().slice(-800)}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready at ${url} within ${timeoutMs / 1000} s: ${output().slice(-800)}`);
}

export interface SpawnSpec {
  name: string;
  /** Script run through tsx, relative to the repository root. */
  script: string;
  env: Record<string, string>;
  port: number;
  /** Path prefix of the service and its liveness path below it. */
  prefix: string;
  healthPath: string;
}

/** Start a TypeScript entry point as `node --import tsx` (no wrapper process, so the pid is the server's). */
export async function spawnService(spec: SpawnSpec): Promise<ChildService> {
  const script = join(REPO_ROOT, spec.script);
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: join(script, '..', '..'),
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...spec.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${spec.port}${spec.prefix}`;
  try {
    await waitReady(`${baseUrl}${spec.healthPath}`, child, () => stderr, 90_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${spec.name}: ${(err as Error).message}`, { cause: err });
  }
  return {
    name: spec.name,
    pid: child.pid!,
    baseUrl,
    peakRssMb: () => statusField(child.pid!, 'VmHWM'),
    rssMb: () => statusField(child.pid!, 'VmRSS'),
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
