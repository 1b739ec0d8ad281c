import type { RequestHandler } from 'express';
import { AppError } from '../app-error.ts';
import type { Logger } from '../logger.ts';
import { sendError, TIMED_OUT_LOCAL } from './error-handler.ts';

/**
 * The longest a request may go without its answer starting: past it the client gets 900 with
 * REQUEST_TIMEOUT (1504, httpStatus 504) instead of waiting on, and whatever the handler does
 * afterwards is dropped. An answer that has started (a streamed Excel download) is never cut
 * here: it ends when it is written, and a client that stops reading is cut by the socket's
 * idle limit (`startHttpServer`).
 */
export function requestTimeLimit(limitMs: number, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const timer = setTimeout(() => {
      if (res.headersSent) return;
      res.locals[TIMED_OUT_LOCAL] = true;
      logger.warn('request exceeded its time limit', { method: req.method, path: req.originalUrl.split('?')[0], limitMs });
      sendError(res, new AppError('REQUEST_TIMEOUT'));
    }, limitMs);
    // A response emits 'close' once: after 'finish', or when its connection closes first.
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
