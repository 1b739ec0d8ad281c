/**
 * The reference of the request-overhead row: a bare `node:http` server that answers every
 * request by running the same SQL as the measured operation (captured from it) on a plain
 * mysql2 pool and returning the last result as JSON. No routing, auth, validation or logging.
 * Run as its own process: BARE_DB_URL, BARE_PORT, BARE_SCRIPT_FILE (a captured query script).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { QueryScript } from './infra/sql-capture.ts';
import { createPool, runScript } from './infra/sql-replay.ts';

const script = JSON.parse(readFileSync(process.env.BARE_SCRIPT_FILE!, 'utf8')) as QueryScript;
const pool = createPool(process.env.BARE_DB_URL!, Number(process.env.BARE_POOL ?? 10));

const server = createServer((req, res) => {
  if (req.url === '/bare/health') {
    res.end('{"status":"UP"}');
    return;
  }
  runScript(pool, script).then(
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
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.BARE_PORT), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
