import type { ErrorRequestHandler, Response } from 'express';
import { DECLARED_FAILURE_STATUS, type ErrorCode, type EnvelopeOf } from '@bo/contracts';
import { AppError } from '../app-error.ts';
import type { Logger } from '../logger.ts';

/** Operations whose failures are the result envelope mark themselves with this local. */
export const ENVELOPE_LOCAL = 'envelopeResponse';

/** Set when the request time limit has answered for a handler that is still running. */
export const TIMED_OUT_LOCAL = 'requestTimedOut';

/** Seconds a client is asked to wait after the database refused work for overload. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 5;

/**
 * The database is overloaded, not the request wrong: no pool connection came free in time
 * (knex's KnexTimeoutError) or the server stopped a statement at its time limit (MariaDB
 * `max_statement_time`: 1969; MySQL `max_execution_time`: 3024).
 */
function databaseOverload(err: unknown): string | undefined {
  const e = err as { name?: string; errno?: number } | undefined;
  if (e?.name === 'KnexTimeoutError') return 'no database connection came free in time';
  if (e?.errno === 1969 || e?.errno === 3024) return 'the database stopped the statement at its time limit';
  return undefined;
}

/** Map what body-parser, express-jwt and the database throw onto the catalogue. */
function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; name?: string; code?: string; status?: number; inner?: { name?: string } };
  if (databaseOverload(err))
    return new AppError('UNAVAILABLE', {
      message: 'The database is overloaded; try again shortly',
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
      const overload = databaseOverload(err);
      logger.warn('request refused', {
        code: appError.code,
        message: appError.message,
        path: req.path,
        errors: appError.errors,
        ...(overload ? { reason: overload } : {}),
      });
    } else {
      const cause = (appError.cause ?? err) as Error;
      logger.error('unexpected error', { message: cause?.message, stack: cause?.stack, path: req.path });
    }
    sendError(res, appError);
  };
}
