import express, { Router, type Express, type RequestHandler } from 'express';
import type { ServiceName } from '@bo/contracts';
import { AppError } from '../app-error.ts';
import type { Logger } from '../logger.ts';
import { mountApiDocs } from './api-docs.ts';
import { errorHandler } from './error-handler.ts';
import { liveness, readiness, type Probe } from './health.ts';
import { jsonBody } from './json-body.ts';
import { createMetrics } from './metrics.ts';
import { markEnvelopeOperations } from './operation.ts';
import { requestContextMiddleware } from './request-context.ts';
import { requestTimeLimit } from './request-time-limit.ts';
import { corsFor, securityHeaders } from './security.ts';

/** What a service facing browsers and other servers adds: headers, CORS, a time limit. */
export interface HardeningOptions {
  /** The longest a request may go without its answer starting (`requestTimeLimit`). */
  requestTimeoutMs: number;
  /** Browser origins allowed to call the API; none (the default): CORS stays off. */
  corsOrigins?: readonly string[];
}

export interface ServiceAppOptions {
  /** Metrics label and log name. */
  name: string;
  /** The service whose OpenAPI document and Swagger UI are served under the prefix. */
  docs?: ServiceName;
  /** `/api/bo` or `/api/member`. */
  prefix: string;
  logger: Logger;
  /** Dependencies `/ready` checks. */
  probes: Record<string, Probe>;
  /**
   * Run before everything under the prefix except `/health` and `/ready` (metrics, API docs,
   * operations, unknown paths): who may reach the service at all, such as the member service's
   * internal-network guard. The probes stay open to orchestrators and load balancers.
   */
  networkGuards?: RequestHandler[];
  /** Runs before every operation (bearer auth, the member access token). */
  guards: RequestHandler[];
  /** Mounts the operations on the router. */
  routes: (router: Router) => void;
  /** helmet headers, CORS and the request time limit; the worker's ops pages go without. */
  hardening?: HardeningOptions;
}

/**
 * The Express app every service shares: request id, metrics, security headers, CORS, the
 * request time limit, health and readiness, network guards, metrics and API docs, guards, JSON
 * body, the operations, 404 and the central error handler, in that order. CORS comes before the
 * guards so that a browser's preflight (which carries no token) is answered.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const { prefix, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');
  // Every answer is computed for its request: an ETag only hashed each body (2 % of a cheap read's
  // CPU) for a revalidation no client of this API makes.
  app.set('etag', false);

  const metrics = createMetrics(options.name);
  app.use(requestContextMiddleware(logger, metrics.record));
  if (options.hardening) {
    app.use(securityHeaders());
    if (options.hardening.corsOrigins?.length) app.use(corsFor(options.hardening.corsOrigins));
    app.use(requestTimeLimit(options.hardening.requestTimeoutMs, logger));
  }

  // Each on its own full path on the app: an operation request passes them by a path match,
  // where a router of their own would be walked and left through a setImmediate every time.
  // `/` (the worker) must give `/health`, not `//health`.
  const base = prefix.replace(/\/+$/, '');
  app.get(`${base}/health`, liveness);
  app.get(`${base}/ready`, readiness(options.probes));
  if (options.networkGuards?.length) app.use(prefix, ...options.networkGuards);
  app.get(`${base}/metrics`, metrics.handler);
  if (options.docs) mountApiDocs(app, base, options.docs);

  const api = Router();
  if (options.guards.length) api.use(...options.guards);
  if (options.docs) api.use(markEnvelopeOperations(options.docs));
  api.use(jsonBody());
  options.routes(api);
  app.use(prefix, api);

  app.use((req, _res, next) => next(new AppError('NOT_FOUND', { message: `No operation at ${req.method} ${req.path}`, declared: false })));
  app.use(errorHandler(logger));
  return app;
}
