import { createBackofficeApp, loadBackofficeConfig } from '@bo/backoffice';
import { createKnex, type Knex } from '@bo/db';
import { createLogger, startHttpServer } from '@bo/service-kit';
import { BENCH_JWT_SECRET } from '../context.ts';
import { captureQueries, type QueryScript } from './sql-capture.ts';

/**
 * The back-office app in this process, only to learn which SQL an operation sends (its knex
 * is ours, so every statement is seen). Timings come from the separate service process.
 */
export interface CaptureApp {
  baseUrl: string;
  knex: Knex;
  /** Send one request and return its response with the SQL it caused. */
  capture: (req: HttpCall) => Promise<{ status: number; body: unknown; script: QueryScript; statements: number }>;
  close: () => Promise<void>;
}

export interface HttpCall {
  method: 'GET' | 'POST';
  /** Path below `/api/bo`, with the query string for GET. */
  path: string;
  body?: string;
  auth: string;
}

export async function startCaptureApp(boDatabaseUrl: string): Promise<CaptureApp> {
  const config = loadBackofficeConfig({
    BO_DATABASE_URL: boDatabaseUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    NODE_ENV: 'production',
    LOG_LEVEL: 'error',
  });
  const knex = createKnex(boDatabaseUrl, { poolMax: 10 });
  const app = createBackofficeApp({ config, logger: createLogger('bench-capture', 'error'), knex });
  const server = await startHttpServer(app, 0, [() => knex.destroy()], '127.0.0.1');
  const baseUrl = `${server.url}/api/bo`;
  return {
    baseUrl,
    knex,
    capture: async (req) => {
      const { result, script, statements } = await captureQueries(knex, async () => {
        const res = await fetch(`${baseUrl}${req.path}`, {
          method: req.method,
          headers: { authorization: req.auth, 'content-type': 'application/json' },
          ...(req.body !== undefined ? { body: req.body } : {}),
        });
        const text = await res.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // Excel or empty bodies stay text.
        }
        return { status: res.status, body };
      });
      return { ...result, script, statements };
    },
    close: server.close,
  };
}
