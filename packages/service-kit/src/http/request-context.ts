import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { requestContext, type Logger } from '../logger.ts';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Accept a sane `X-Request-Id` or make one, echo it, and log each request once when it ends;
 * `finished` (the metrics) is told of it by the same listener, with the same duration.
 */
export function requestContextMiddleware(
  logger: Logger,
  finished?: (req: Request, res: Response, seconds: number) => void,
): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      finished?.(req, res, ms / 1000);
      const level = res.statusCode >= 500 && res.statusCode !== 900 ? 'error' : 'http';
      // winston formats a line (timestamp, JSON) before its transports drop it for its level:
      // at the usual warn level the 'http' line of every request would be built for nothing.
      if (!logger.isLevelEnabled(level)) return;
      logger.log(level, 'request', {
        requestId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
      });
    });
    requestContext.run({ requestId }, next);
  };
}
