import http from 'node:http';
import { elapsedMs, summarise, type LatencySummary } from './percentiles.ts';

export interface FirstByteSpec {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  clients: number;
  /** Stop after this many requests, or after `maxSeconds` once every client has had an answer. */
  amount: number;
  maxSeconds: number;
}

export interface FirstByteResult {
  /** Request sent → status line and headers received (the first bytes of the answer). */
  firstByte: LatencySummary;
  /** Answers other than 200, and socket errors. */
  failures: number;
}

/**
 * `clients` keep-alive connections sending the same request in turn, each timing when its
 * answer starts (and reading it to the end before the next). autocannon reports only the whole
 * response; a large answer (the goods list without a filter) is also judged by how soon its
 * first bytes arrive.
 */
export async function firstByteUnderLoad(spec: FirstByteSpec): Promise<FirstByteResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.clients });
  const first: number[] = [];
  let failures = 0;
  let sent = 0;
  const start = process.hrtime.bigint();
  const more = (answered: number) => sent < spec.amount && (answered === 0 || elapsedMs(start) < spec.maxSeconds * 1000);
  const once = () =>
    new Promise<void>((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.request(spec.url, { method: spec.method, headers: spec.headers, agent }, (res) => {
        first.push(elapsedMs(t0));
        if (res.statusCode !== 200) failures++;
        res.on('data', () => undefined);
        res.on('end', () => resolve());
        res.on('error', () => {
          failures++;
          resolve();
        });
      });
      req.on('error', () => {
        failures++;
        resolve();
      });
      req.end(spec.body);
    });
  const client = async () => {
    for (let answered = 0; more(answered); answered++) {
      sent++;
      await once();
    }
  };
  try {
    await Promise.all(Array.from({ length: spec.clients }, client));
  } finally {
    agent.destroy();
  }
  return { firstByte: summarise(first), failures };
}
