import { AsyncLocalStorage } from 'node:async_hooks';
import winston from 'winston';

export interface RequestContext {
  requestId: string;
}

/** Carries the request id to every log line written while a request is handled. */
export const requestContext = new AsyncLocalStorage<RequestContext>();

const withRequestId = winston.format((info) => {
  const ctx = requestContext.getStore();
  if (ctx && info.requestId === undefined) info.requestId = ctx.requestId;
  return info;
});

export type Logger = winston.Logger;

export function createLogger(service: string, level = 'info'): Logger {
  return winston.createLogger({
    level,
    defaultMeta: { service },
    format: winston.format.combine(
      withRequestId(),
      winston.format.timestamp(),
      winston.format.errors({ stack: true }),
      winston.format.json(),
    ),
    transports: [new winston.transports.Console()],
  });
}
