import type { RequestHandler } from 'express';

/** A readiness probe: resolves when the dependency answers. */
export type Probe = () => Promise<unknown>;

const withTimeout = (p: Promise<unknown>, ms: number) =>
  Promise.race([p, new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref())]);

/** The answer of a readiness probe (`/ready`): each dependency UP, or DOWN with why. */
export interface Readiness {
  status: 'UP' | 'DOWN';
  checks: Record<string, { status: 'UP' | 'DOWN'; error?: string }>;
}

export const liveness: RequestHandler = (_req, res) => {
  res.json({ status: 'UP' });
};

/** 200 when every dependency answers within the timeout, else 503 naming what is down. */
export function readiness(probes: Record<string, Probe>, timeoutMs = 2000): RequestHandler {
  return async (_req, res) => {
    const checks: Readiness['checks'] = {};
    await Promise.all(
      Object.entries(probes).map(async ([name, probe]) => {
        try {
          await withTimeout(probe(), timeoutMs);
          checks[name] = { status: 'UP' };
        } catch (err) {
          checks[name] = { status: 'DOWN', error: (err as Error).message };
        }
      }),
    );
    const up = Object.values(checks).every((c) => c.status === 'UP');
    res.status(up ? 200 : 503).json({ status: up ? 'UP' : 'DOWN', checks } satisfies Readiness);
  };
}
