import cors from 'cors';
import helmet from 'helmet';
import type { Request, RequestHandler, Response } from 'express';

/** helmet's configuration for an API that answers JSON and files only. */
export const apiHelmet = (): RequestHandler =>
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
  });

type HeaderWrite = [name: string, value: string | number | readonly string[]] | [name: string];

/**
 * The header writes a middleware makes on a response, recorded once on a stand-in response.
 * For headers that do not depend on the request, like helmet's with a fixed policy (no nonces),
 * replaying them is one loop instead of helmet's thirteen nested middleware calls per request.
 * A middleware that does anything else with the request or response fails here, at startup.
 */
function recordHeaderWrites(middleware: RequestHandler): HeaderWrite[] {
  const writes: HeaderWrite[] = [];
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => writes.push([name, value]),
    removeHeader: (name: string) => writes.push([name]),
  };
  let passed = false;
  void middleware({} as Request, res as unknown as Response, () => (passed = true));
  if (!passed) throw new Error('the security header middleware did not pass the request on synchronously');
  return writes;
}

/**
 * helmet's headers for an API that answers JSON and files only: nothing in a response may load,
 * frame or submit anything. The API docs page relaxes the policy for itself (`docsPagePolicy`).
 * helmet computes them; they are the same for every response, so they are computed once.
 */
export function securityHeaders(): RequestHandler {
  const writes = recordHeaderWrites(apiHelmet());
  return (_req, res, next) => {
    for (const [name, value] of writes) {
      if (value === undefined) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/**
 * helmet's default policy (scripts, styles, images and requests from the service itself; inline
 * styles), which the Swagger UI page needs: its scripts are files of the same origin.
 */
export const docsPagePolicy = (): RequestHandler => helmet.contentSecurityPolicy({ useDefaults: true });

/** Request headers a browser UI may send, and answer headers its scripts may read. */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key'];
const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Content-Disposition', 'Deprecation', 'Link'];

/**
 * CORS for exactly the listed origins (`https://bo.example.com`, no path). A preflight from one
 * of them is answered here, before authentication; any other origin gets no CORS header at all,
 * so its browser refuses to hand the answer to its scripts. Bearer tokens, not cookies: no
 * credentials mode.
 */
export function corsFor(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const handle = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'POST'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (req, res, next) => {
    // The answer differs by origin even when it carries no CORS header: caches must key on it.
    res.vary('Origin');
    handle(req, res, next);
  };
}

/** `CORS_ORIGINS` as a list; each entry must be a bare origin, as browsers send it. */
export function parseOrigins(list: string): string[] {
  const origins = list
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new Error(`"${origin}" is not an origin (scheme://host[:port])`);
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== origin)
      throw new Error(`"${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`);
  }
  return origins;
}
