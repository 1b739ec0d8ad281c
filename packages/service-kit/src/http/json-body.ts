import express, { type RequestHandler } from 'express';
import { AppError } from '../app-error.ts';

/**
 * JSON bodies up to 1 MB; anything larger is refused with PAYLOAD_TOO_LARGE by the error handler.
 * A body that cannot be decoded (`Content-Encoding: gzip` over bytes that are not gzip) or
 * whose length differs from its Content-Length is the client's fault like malformed JSON:
 * body-parser reports those as untyped errors, which would otherwise answer 500.
 */
export const jsonBody = (limit = '1mb'): RequestHandler => {
  const parse = express.json({ limit, strict: true });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      const e = err as { status?: number; type?: string } | undefined;
      if (e?.status === 400 && (e.type === undefined || e.type === 'request.size.invalid'))
        return next(
          new AppError('MALFORMED_JSON', {
            message: 'The request body could not be read as its Content-Encoding and Content-Length say',
            cause: err,
          }),
        );
      next(err);
    });
};
