import type { ErrorRequestHandler, Response } from 'express';
import { DECLARED_FAILURE_STATUS, type ErrorCode, type EnvelopeOf } from '@bo/contracts';
import { AppError } from '../app-error.ts';
import type { Logger } from '../logger.ts';

/** Operations whose failures are the result envelope mark themselves with this local. */
export const ENVELOPE_LOCAL = 'envelopeResponse';

/** Set when the request time limit has answered for a handler that is still running. */
export const TIMED_OUT_LOCAL = 'requestTimedOut';

/** Seconds a client is asked to wait after the database refused work for overload or was unreachable. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 5;

/**
 * What Node and mysql2 put in `code` when the database cannot be reached or dropped the
 * connection. mysql2 marks each of them `fatal` (the connection is gone) and raises it as it is,
 * on the pool's connect or on the statement (knex adds only the SQL to the message); the `fatal`
 * mark keeps a client that hung up on a download (also EPIPE, ECONNRESET) out of this.
 */
const CONNECTION_FAILURE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
]);

/**
 * Server error numbers with the same meaning: shutting down (1053), this connection killed
 * (MariaDB 1927), and "gone away" / "lost connection" (2006, 2013), which a proxy in front of
 * the server may send as an error packet. Not lock-wait timeouts and deadlocks (1205, 1213):
 * those are contention of one operation, which the member service retries and maps itself.
 */
const CONNECTION_FAILURE_ERRNOS = new Set([1053, 1927, 2006, 2013]);

interface DatabaseRefusal {
  /** What the client reads. */
  message: string;
  /** What the warn line says about the cause. */
  reason: string;
}

const OVERLOADED = 'The database is overloaded; try again shortly';
const UNREACHABLE = 'The database is unavailable; try again shortly';

type DriverError = { name?: string; code?: unknown; errno?: unknown; fatal?: unknown; cause?: unknown };

function refusalOf(e: DriverError): DatabaseRefusal | undefined {
  if (e.name === 'KnexTimeoutError') return { message: OVERLOADED, reason: 'no database connection came free in time' };
  // MariaDB max_statement_time: 1969; MySQL max_execution_time: 3024.
  if (e.errno === 1969 || e.errno === 3024) return { message: OVERLOADED, reason: 'the database stopped the statement at its time limit' };
  if (e.errno === 1040) return { message: OVERLOADED, reason: 'the database has no connection left (1040 too many connections)' };
  if (e.fatal === true && typeof e.code === 'string' && CONNECTION_FAILURE_CODES.has(e.code))
    return { message: UNREACHABLE, reason: `the database is unreachable or dropped the connection (${e.code})` };
  if (typeof e.errno === 'number' && CONNECTION_FAILURE_ERRNOS.has(e.errno))
    return {
      message: UNREACHABLE,
      reason: `the database is unreachable or dropped the connection (${typeof e.code === 'string' ? e.code : e.errno})`,
    };
  return undefined;
}

/**
 * The database, not the request, is why it failed: overloaded (no pool connection came free in
 * time, a statement stopped at its time limit, no connection slot left) or unreachable (refused,
 * reset, lost, shutting down). A driver error wrapped as another error's `cause` counts too.
 */
function databaseRefusal(err: unknown): DatabaseRefusal | undefined {
  let e = err as DriverError | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const refusal = refusalOf(e);
    if (refusal) return refusal;
    e = e.cause as DriverError | undefined;
  }
  return undefined;
}

/** Map what body-parser, express-jwt and the database throw onto the catalogue. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; name?: string; code?: string; status?: number; inner?: { name?: string } };
  // BO_READ_WHEN_NO_REPLICA=unavailable: the read pool refused rather than read the primary.
  if (e?.name === 'ReadReplicaUnavailableError')
    return new AppError('READ_REPLICA_UNAVAILABLE', { cause: err, isOperational: true, retryAfterSeconds: OVERLOAD_RETRY_AFTER_SECONDS });
  const refusal = databaseRefusal(err);
  if (refusal)
    return new AppError('UNAVAILABLE', {
      message: refusal.message,
      cause: err,
      isOperational: true,
      retryAfterSeconds: OVERLOAD_RETRY_AFTER_SECONDS,
    });
  if (e?.type === 'entity.parse.failed') return new AppError('MALFORMED_JSON', { cause: err });
  if (e?.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', { cause: err });
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported')
    return new AppError('UNSUPPORTED_MEDIA_TYPE', { message: 'The request body must be UTF-8 JSON', cause: err });
  if (e?.name === 'UnauthorizedError') {
    if (e.code === 'credentials_required') return new AppError('UNAUTHENTICATED', { cause: err });
    if (e.inner?.name === 'TokenExpiredError') return new AppError('TOKEN_EXPIRED', { cause: err });
    if (e.code === 'credentials_bad_scheme' || e.code === 'credentials_bad_format')
      return new AppError('INVALID_TOKEN', { message: 'The Authorization header must be "Bearer <token>"', cause: err });
    return new AppError('INVALID_TOKEN', { cause: err });
  }
  return new AppError('INTERNAL', { cause: err, isOperational: false });
}

export function sendError(res: Response, appError: AppError): void {
  const body: ErrorCode = {
    code: appError.code,
    message: appError.message,
    httpStatus: appError.httpStatus,
    isProcess: false,
    ...(appError.errors ? { errors: appError.errors } : {}),
  };
  const status = appError.declared ? DECLARED_FAILURE_STATUS : appError.httpStatus;
  // A handler that failed before its body (a kept gzipped answer gone from Redis) may have
  // announced its encoding; the error body is plain JSON.
  res.removeHeader('Content-Encoding');
  if (appError.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(appError.retryAfterSeconds));
  if (res.locals[ENVELOPE_LOCAL]) {
    const envelope: EnvelopeOf<null> = {
      timestamp: new Date().toISOString(),
      code: body.code,
      message: body.message,
      httpStatus: body.httpStatus,
      isProcess: false,
      payload: null,
      error: true,
      errors: appError.errors ?? [],
    };
    res.status(status).json(envelope);
    return;
  }
  res.status(status).json(body);
}

/** The central error handler: one wire format, no stack traces, unknown errors logged. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, next) => {
    if (res.headersSent && res.locals[TIMED_OUT_LOCAL]) {
      // The client already has its 504; the handler only found out now.
      logger.warn('request failed after its time limit had answered', { err: String(err), path: req.path });
      return;
    }
    if (res.headersSent) {
      logger.error('error after the response started', { err: String(err), stack: (err as Error)?.stack });
      next(err);
      return;
    }
    const appError = toAppError(err);
    if (appError.isOperational) {
      const refusal = databaseRefusal(err);
      logger.warn('request refused', {
        code: appError.code,
        message: appError.message,
        path: req.path,
        errors: appError.errors,
        ...(refusal ? { reason: refusal.reason } : {}),
      });
    } else {
      const cause = (appError.cause ?? err) as Error;
      logger.error('unexpected error', { message: cause?.message, stack: cause?.stack, path: req.path });
    }
    sendError(res, appError);
  };
}
