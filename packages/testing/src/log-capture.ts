import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, type Logger } from '@bo/service-kit';

export type LogLine = Record<string, unknown> & { level: string; message: string; requestId?: string };

export interface CapturedLogs {
  logger: Logger;
  /** Every JSON line the logger wrote, parsed. */
  lines: LogLine[];
  /** The lines written while handling the request with this id. */
  of: (requestId: string) => LogLine[];
}

/** The service logger with its console transport swapped for one the test reads back. */
export function captureLogs(service = 'test', level = 'http'): CapturedLogs {
  const lines: LogLine[] = [];
  const logger = createLogger(service, level);
  logger.clear();
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
          done();
        },
      }),
    }),
  );
  return { logger, lines, of: (requestId) => lines.filter((l) => l.requestId === requestId) };
}
