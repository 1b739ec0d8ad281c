import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Express } from 'express';
import { expressMessageClasses } from './http/express-messages.ts';
import type { Logger } from './logger.ts';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stop accepting, let in-flight requests finish, then run the closers (pools, queues). */
  close: () => Promise<void>;
}

export type Closer = () => Promise<unknown>;

/**
 * The socket limits of the HTTP server, each chosen rather than left to Node's defaults.
 * None of them limits how long an answer takes to write (a streamed download).
 */
export interface ServerTimeouts {
  /** All request headers must arrive within this (slowloris). Node: `headersTimeout`. */
  headersTimeoutMs: number;
  /** The whole request, body included (at most 1 MB), must arrive within this. Node: `requestTimeout`. */
  receiveTimeoutMs: number;
  /**
   * An idle keep-alive connection is closed after this. Longer than the gateway's upstream
   * keep-alive (nginx: 60 s), so the gateway, not the service, closes idle connections and never
   * sends a request on a socket the service is closing.
   */
  keepAliveTimeoutMs: number;
  /**
   * A socket with no byte read or written for this long is destroyed: a client that stopped
   * reading a download. Must be longer than the request time limit, so a request waiting on
   * the database gets its 504 answer rather than a cut connection. 0: none.
   */
  idleSocketTimeoutMs: number;
  /** How often Node checks the headers and receive limits (so their precision). */
  checkIntervalMs: number;
}

/** The socket limits for a service whose requests are limited to `requestTimeoutMs` (`requestTimeLimit`). */
export const serverTimeoutsFor = (requestTimeoutMs: number): ServerTimeouts => ({
  headersTimeoutMs: 10_000,
  receiveTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  idleSocketTimeoutMs: requestTimeoutMs + 10_000,
  checkIntervalMs: 1_000,
});

/** For processes without a request time limit (the worker's ops pages): the same, no idle cut. */
const DEFAULT_TIMEOUTS: ServerTimeouts = { ...serverTimeoutsFor(0), idleSocketTimeoutMs: 0 };

export async function startHttpServer(
  app: Express,
  port: number,
  closers: Closer[] = [],
  host = '0.0.0.0',
  timeouts: Partial<ServerTimeouts> = {},
): Promise<RunningServer> {
  const t = { ...DEFAULT_TIMEOUTS, ...timeouts };
  const server = createServer(
    {
      headersTimeout: t.headersTimeoutMs,
      requestTimeout: t.receiveTimeoutMs,
      keepAliveTimeout: t.keepAliveTimeoutMs,
      connectionsCheckingInterval: t.checkIntervalMs,
      ...expressMessageClasses(app),
    },
    app,
  );
  server.setTimeout(t.idleSocketTimeoutMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;

  // server.close() waits for every connection, and Node closes only idle keep-alive ones for us
  // (closeIdleConnections); one that never sent a request, or sent only part of its headers,
  // counts as busy, and close() stops the header checks that would have cut it. So while
  // draining, answers say `Connection: close`, and every socket without a request in flight is
  // destroyed: at close() and whenever an answer ends.
  let draining = false;
  const sockets = new Set<Socket>();
  const inFlight = new Map<ServerResponse, Socket>();
  const closeIdleSockets = () => {
    const busy = new Set(inFlight.values());
    for (const socket of sockets) if (!busy.has(socket)) socket.destroy();
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(res, req.socket);
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) setImmediate(closeIdleSockets);
    });
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      for (const res of inFlight.keys()) if (!res.headersSent) res.setHeader('Connection', 'close');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        closeIdleSockets();
      });
      for (const closer of closers) await closer();
    })());
  return { server, port: actualPort, url: `http://127.0.0.1:${actualPort}`, close };
}

/**
 * SIGTERM/SIGINT: finish in-flight work and exit 0; if that takes longer than the limit,
 * cut the remaining connections and exit 1.
 */
export function installGracefulShutdown(logger: Logger, close: () => Promise<void>, timeoutMs = 10_000): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const timer = setTimeout(() => {
      logger.error('shutdown took too long; exiting', { timeoutMs });
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    close()
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      })
      .catch((err: unknown) => {
        logger.error('error while shutting down', { message: (err as Error).message });
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
