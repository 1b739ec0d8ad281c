import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { elapsedMs, summarise, type LatencySummary } from './percentiles.ts';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Stop after this many requests… */
  amount?: number;
  /** …but no later than this many seconds (a slow operation still gets at least one round). */
  maxSeconds?: number;
  /** …or after this many seconds. */
  durationSeconds?: number;
  /** Rewrites each request before it is sent (unique order numbers, random members). */
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
}

export interface LoadResult {
  latency: LatencySummary;
  /** Every response's latency in ms, for percentiles the load generator does not report (p95). */
  latencies: number[];
  statusCounts: Record<number, number>;
  /** Socket errors and timeouts. */
  errors: number;
  wallMs: number;
  requestsPerSecond: number;
}

/** Run autocannon and keep each response time: its own summary has p90/p97.5 but no p95. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const statusCounts: Record<number, number> = {};
  const start = process.hrtime.bigint();
  const instance = autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...spec.headers },
    ...(spec.body !== undefined ? { body: spec.body } : {}),
    connections: spec.connections,
    ...(spec.amount !== undefined ? { amount: spec.amount } : { duration: spec.durationSeconds ?? 5 }),
    timeout: 120,
    ...(spec.setupRequest ? { requests: [{ setupRequest: spec.setupRequest }] } : {}),
    // Called without a callback it is an event emitter that is also awaitable.
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  // Past maxSeconds, stop as soon as every connection has had at least one answer.
  let overTime = false;
  let stopped = false;
  const enough = () => !stopped && overTime && latencies.length >= spec.connections && (stopped = true);
  instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
    latencies.push(responseTime);
    statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    if (enough()) instance.stop();
  });
  const cap =
    spec.maxSeconds !== undefined && spec.amount !== undefined
      ? setTimeout(() => {
          overTime = true;
          if (enough()) instance.stop();
        }, spec.maxSeconds * 1000)
      : undefined;
  const result = await instance;
  clearTimeout(cap);
  const wallMs = elapsedMs(start);
  const latency = summarise(latencies);
  // Stopped past maxSeconds, the connections still waiting are closed, but the service finishes
  // their requests anyway (a running query is not cancelled): wait as long as the slowest answer
  // took, so the next measurement does not share the machine with them.
  if (stopped) await sleep(latency.max);
  return {
    latency,
    latencies,
    statusCounts,
    errors: result.errors + result.timeouts,
    wallMs,
    requestsPerSecond: (latencies.length / wallMs) * 1000,
  };
}

/** Responses outside 2xx, plus socket errors. */
export const failures = (r: LoadResult): number =>
  r.errors + Object.entries(r.statusCounts).reduce((n, [code, c]) => (Number(code) >= 200 && Number(code) < 300 ? n : n + c), 0);

export const statusText = (r: LoadResult): string =>
  Object.entries(r.statusCounts)
    .map(([code, c]) => `${c}×${code}`)
    .join(', ') + (r.errors ? `, ${r.errors} socket errors` : '');
