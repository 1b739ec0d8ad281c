import type { Request, RequestHandler, Response, Router } from 'express';
import { compileValidator, createAjv, operationsOf, type EnvelopeOf, type OperationSpec, type ServiceName } from '@bo/contracts';
import type { TObject } from '@sinclair/typebox';
import { AppError, validationError } from '../app-error.ts';
import type { AuthPrincipal } from './auth.ts';
import { ENVELOPE_LOCAL } from './error-handler.ts';
import { jsonChunks } from './json-chunks.ts';

const queryAjv = createAjv({ coerce: true });
const bodyAjv = createAjv({ coerce: false });

export interface OperationInput<Q, B> {
  query: Q;
  body: B;
  /** The verified caller (bearer operations). */
  auth: AuthPrincipal | undefined;
  req: Request;
  res: Response;
}

/** What a handler returns: the success body, or nothing when it wrote the response itself (Excel). */
export type OperationHandler<Q, B> = (input: OperationInput<Q, B>) => Promise<unknown>;

/**
 * Query text as the schema wants it: empty parameters are absent (UIs send `?stdCtgNo=`),
 * list fields accept repeated parameters and comma- or newline-separated values.
 */
function normaliseQuery(schema: TObject, raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const prop = schema.properties[key] as { type?: string } | undefined;
    if (prop?.type === 'array') {
      const parts = (Array.isArray(value) ? value : [value])
        .flatMap((v) => String(v).split(/[,\n\r]+/))
        .map((v) => v.trim())
        .filter(Boolean);
      if (parts.length) out[key] = parts;
    } else if (value !== '' && !(Array.isArray(value) && value.every((v) => v === ''))) {
      out[key] = value;
    }
  }
  return out;
}

/**
 * What `res.json` writes for an operation's answer, without Express's per-call work on headers
 * (a MIME lookup and a charset parse each time: 2 % of a cheap read's CPU). No ETag is made
 * (`etag` is off) and none is compared, so no answer is a 304; Node drops the body of a HEAD.
 * A Content-Type the handler set stays.
 */
function sendJson(res: Response, value: unknown): void {
  if (!res.hasHeader('Content-Type')) res.setHeader('Content-Type', 'application/json; charset=utf-8');
  // Content-Length is set here, not left to Node: Node leaves it out of the head of a HEAD answer.
  const chunks = value === undefined ? undefined : jsonChunks(value);
  if (!chunks) {
    const body = value === undefined ? '' : JSON.stringify(value);
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.end(body);
    return;
  }
  res.setHeader(
    'Content-Length',
    chunks.reduce((n, c) => n + c.length, 0),
  );
  // Corked, the pieces leave in one write; end() uncorks.
  res.cork();
  for (const chunk of chunks) res.write(chunk);
  res.end();
}

/** Where a request for an operation is looked up: its method (HEAD as GET) and path as Express matches them. */
const operationKey = (method: string, path: string): string => {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method === 'HEAD' ? 'GET' : method} ${trimmed.toLowerCase()}`;
};

/** The operation path a request was served by, for the metrics' route label (`req.route` is Express's own routes'). */
export const OPERATION_PATH_LOCAL = 'operationPath';

interface MountedOperation {
  path: string;
  handle: RequestHandler;
}

const operationTables = new WeakMap<Router, Map<string, MountedOperation>>();

/**
 * The operations of a router, found by one lookup of method and path: the router's own walk
 * tried each route's pattern in turn (4 % of a cheap read's CPU with 28 operations). Paths
 * match as Express's routes do, case-insensitive and with an optional trailing slash; the
 * lookup layer sits where the router's first operation is mounted.
 */
function operationTableOf(router: Router): Map<string, MountedOperation> {
  let table = operationTables.get(router);
  if (!table) {
    const operations = (table = new Map<string, MountedOperation>());
    router.use((req, res, next) => {
      const found = operations.get(operationKey(req.method, req.path));
      if (!found) return next();
      res.locals[OPERATION_PATH_LOCAL] = found.path;
      found.handle(req, res, next);
    });
    operationTables.set(router, table);
  }
  return table;
}

/** `before` handlers run first, in order; an error from one goes to the error handler, the operation does not run. */
function chain(before: readonly RequestHandler[], last: RequestHandler): RequestHandler {
  return before.reduceRight<RequestHandler>(
    (then, handler) => (req, res, next) =>
      handler(req, res, (err?: unknown) => {
        if (err) next(err);
        else then(req, res, next);
      }),
    last,
  );
}

export interface MountOptions {
  /** Handlers run ahead of the operation, after the router's guards (a per-operation rate limit). */
  before?: readonly RequestHandler[];
}

/** Mount one spec operation: validation from contracts, envelope and deprecation handling, one error path. */
export function mountOperation<Q = unknown, B = unknown>(
  router: Router,
  op: OperationSpec,
  handler: OperationHandler<Q, B>,
  options: MountOptions = {},
): void {
  // The lookup compares whole paths: a pattern (`:id`, `*`) would never match and the operation would answer 404.
  if (/[:*(){}?]/.test(op.path)) throw new Error(`mountOperation: ${op.path} is a pattern; operations are looked up by their literal path`);
  const checkQuery = op.query ? compileValidator<Q>(queryAjv, op.query) : undefined;
  const checkBody = op.body ? compileValidator<B>(bodyAjv, op.body) : undefined;

  const run: RequestHandler = async (req, res, next) => {
    try {
      if (op.envelope) res.locals[ENVELOPE_LOCAL] = true;
      if (op.deprecated) {
        res.setHeader('Deprecation', 'true');
        res.setHeader('Link', `<${req.baseUrl}${op.deprecated.successor}>; rel="successor-version"`);
      }
      let query = {} as Q;
      if (checkQuery && op.query) {
        const result = checkQuery(normaliseQuery(op.query, req.query));
        if (!result.ok) throw validationError(result.errors);
        query = result.value;
      }
      let body = undefined as B;
      if (checkBody) {
        if (!req.is('application/json')) throw new AppError('UNSUPPORTED_MEDIA_TYPE');
        if (req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))
          throw validationError([{ field: '(body)', message: 'must be a JSON object' }]);
        const result = checkBody(req.body);
        if (!result.ok) throw validationError(result.errors);
        body = result.value;
      }
      const result = await handler({ query, body, auth: req.auth, req, res });
      if (res.headersSent || res.writableEnded) return;
      if (op.response === 'empty') {
        res.status(200).end();
      } else if (op.envelope) {
        const envelope: EnvelopeOf<unknown> = {
          timestamp: new Date().toISOString(),
          code: '0000',
          message: 'OK',
          isProcess: true,
          payload: result ?? null,
          error: false,
          errors: [],
        };
        sendJson(res, envelope);
      } else {
        sendJson(res, result);
      }
    } catch (err) {
      next(err);
    }
  };
  const table = operationTableOf(router);
  const key = operationKey(op.method.toUpperCase(), op.path);
  if (table.has(key)) throw new Error(`mountOperation: ${op.method.toUpperCase()} ${op.path} is mounted twice`);
  table.set(key, { path: op.path, handle: options.before?.length ? chain(options.before, run) : run });
}

/**
 * Envelope operations answer every declared failure in the envelope, also those found before
 * the operation runs (malformed or oversized JSON): mark them ahead of body parsing.
 */
export function markEnvelopeOperations(service: ServiceName): RequestHandler {
  const envelope = new Set(
    operationsOf(service)
      .filter((o) => o.envelope)
      .map((o) => `${o.method.toUpperCase()} ${o.path}`),
  );
  return (req, res, next) => {
    if (envelope.has(`${req.method} ${req.path}`)) res.locals[ENVELOPE_LOCAL] = true;
    next();
  };
}
