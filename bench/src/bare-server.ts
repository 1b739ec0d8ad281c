/**
 * The references of the request-overhead row: a bare server that answers every request by
 * running the same SQL as the measured operation (captured from it) on a plain mysql2 pool and
 * returning the last result as JSON. No auth, validation, envelope or logging. `BARE_FRAMEWORK`
 * `node` (default) answers from `node:http` alone; `express` from an Express app with the one
 * route, served with the services' message classes (`expressMessageClasses`): the floor of any
 * service built on Express, which the design card names.
 * `BARE_PREPARED=1` sends the statements as prepared statements, as the services' compiled reads
 * do (the server parses each once per connection).
 * Run as its own process: BARE_DB_URL, BARE_PORT, BARE_SCRIPT_FILE (a captured query script).
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import express from 'express';
import { expressMessageClasses } from '@bo/service-kit';
import type { QueryScript } from './infra/sql-capture.ts';
import { createPool, runScript } from './infra/sql-replay.ts';

const script = JSON.parse(readFileSync(process.env.BARE_SCRIPT_FILE!, 'utf8')) as QueryScript;
const pool = createPool(process.env.BARE_DB_URL!, Number(process.env.BARE_POOL ?? 10));
const prepared = process.env.BARE_PREPARED === '1';

function read(res: ServerResponse): void {
  runScript(pool, script, prepared).then(
    (rows) => {
      const body = JSON.stringify(rows);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
    (err: Error) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(err.message);
    },
  );
}

function nodeHandler(req: IncomingMessage, res: ServerResponse): void {
  if (req.url === '/bare/health') {
    res.end('{"status":"UP"}');
    return;
  }
  read(res);
}

function expressApp(): express.Express {
  const app = express();
  app.get('/bare/health', (_req, res) => {
    res.json({ status: 'UP' });
  });
  app.get('/bare/read', (_req, res) => read(res));
  return app;
}

// The Express reference is served as the services are (startHttpServer): with the app's own
// request and response prototypes, without which Express alone costs a third of this read.
const app = process.env.BARE_FRAMEWORK === 'express' ? expressApp() : undefined;
const server = app ? createServer(expressMessageClasses(app), app) : createServer(nodeHandler);
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BARE_PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
