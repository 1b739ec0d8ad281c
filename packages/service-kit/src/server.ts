import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Logger } from './logger.ts';

export interface RunningServer {
  server: Server;
  port: number;
  url: string;
  /** Stop accepting, let in-flight requests finish, then run the closers (pools, queues). */
  close: () => Promise<void>;
}

export type Closer = () => Promise<unknown>;

export async function startHttpServer(app: Express, port: number, closers: Closer[] = [], host = '0.0.0.0'): Promise<RunningServer> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(port, host, (err?: Error) => (err ? reject(err) : resolve(s)));
    s.once('error', reject);
  });
  // Keep-alive sockets outlive a deploy otherwise; the gateway's own timeout is longer than this.
  server.keepAliveTimeout = 65_000;
  const actualPort = (server.address() as AddressInfo).port;

  // A keep-alive client would hold server.close() open for keepAliveTimeout: while draining,
  // answers say `Connection: close` and each socket is closed as soon as its answer is out.
  let draining = false;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    inFlight.add(res);
    if (draining && !res.headersSent) res.setHeader('Connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      for (const res of inFlight) if (!res.headersSent) res.setHeader('Connection', 'close');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
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

/** Entry points: print a config error plainly and exit 1 instead of a stack trace. */
export async function runMain(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    console.error((err as Error).name === 'ConfigError' ? (err as Error).message : err);
    process.exit(1);
  }
}
