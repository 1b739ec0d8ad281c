import http from 'node:http';
import type { HostileRequest } from './sample-request.ts';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as bytes read as UTF-8 (an Excel file reads as noise, never as a stack). */
  text: string;
}

/**
 * Send the request as written: the query text byte for byte, the body with exactly the headers
 * given. No answer within `hangMs` fails (a hang detector, far above any real answer: an input
 * that sends a loop over millions of days blocks the event loop for minutes).
 */
export function sendRaw(baseUrl: string, path: string, req: HostileRequest, hangMs = 60_000): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  const payload = req.body === undefined ? undefined : Buffer.from(req.body, 'utf8');
  return new Promise((resolve, reject) => {
    let answered = false;
    const r = http.request(
      {
        host: url.hostname,
        port: url.port,
        agent: false,
        method: req.method.toUpperCase(),
        path: req.query ? `${path}?${req.query}` : path,
        headers: { ...req.headers, ...(payload ? { 'content-length': String(payload.length) } : {}) },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    // The server may answer (413, 415) and close before reading a large body.
    r.on('error', (err: NodeJS.ErrnoException) => (err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err)));
    r.on('close', () => (answered ? undefined : reject(new Error('the connection closed without an answer'))));
    r.setTimeout(hangMs, () => r.destroy(new Error(`no answer within ${hangMs / 1000} s`)));
    r.end(payload);
  });
}
