import type { IRoute, Request, RequestHandler, Response } from 'express';
import client from 'prom-client';
import { OPERATION_PATH_LOCAL } from './operation.ts';

/** Prometheus metrics of one app: its own registry, so several apps can live in one test process. */
export function createMetrics(service: string) {
  const registry = new client.Registry();
  registry.setDefaultLabels({ service });
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  /** Counts a finished request and its latency, under its route pattern (never the raw path: it would explode the label set). */
  const record = (req: Request, res: Response, seconds: number): void => {
    const matched = (res.locals[OPERATION_PATH_LOCAL] as string | undefined) ?? (req.route as IRoute | undefined)?.path; // Express types `req.route` as any
    const route = matched ? `${req.baseUrl}${String(matched)}` : 'unmatched';
    const labels = { method: req.method, route, status: String(res.statusCode) };
    requests.inc(labels);
    latency.observe(labels, seconds);
  };

  const handler: RequestHandler = async (_req, res, next) => {
    try {
      res.setHeader('Content-Type', registry.contentType);
      res.end(await registry.metrics());
    } catch (err) {
      next(err);
    }
  };

  return { registry, record, handler };
}
