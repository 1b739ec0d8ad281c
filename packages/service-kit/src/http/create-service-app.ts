import express, { Router, type Express, type RequestHandler } from 'express';
import type { ServiceName } from '@bo/contracts';
import { AppError } from '../app-error.ts';
import type { Logger } from '../logger.ts';
import { apiDocsRouter } from './api-docs.ts';
import { errorHandler } from './error-handler.ts';
import { liveness, readiness, type Probe } from './health.ts';
import { jsonBody } from './json-body.ts';
import { createMetrics } from './metrics.ts';
import { markEnvelopeOperations } from './operation.ts';
import { requestContextMiddleware } from './request-context.ts';

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
  /** Runs before every operation (bearer auth, internal-network guard). */
  guards: RequestHandler[];
  /** Mounts the operations on the router. */
  routes: (router: Router) => void;
}

/**
 * The Express app every service shares: request id, metrics, health, API docs, JSON body,
 * guards, the operations, 404 and the central error handler, in that order.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const { prefix, logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('query parser', 'simple');

  const metrics = createMetrics(options.name);
  app.use(requestContextMiddleware(logger));
  app.use(metrics.middleware);

  const open = Router();
  open.get('/health', liveness);
  open.get('/ready', readiness(options.probes));
  open.get('/metrics', metrics.handler);
  if (options.docs) open.use(apiDocsRouter(options.docs));
  app.use(prefix, open);

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
