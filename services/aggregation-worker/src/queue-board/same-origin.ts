import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { AppError } from '@bo/service-kit';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request that a browser says came from another site. Basic auth alone
 * would let any page the signed-in operator visits post to the dashboard (the browser adds the
 * credentials itself). `Sec-Fetch-Site` decides when the browser sends it (all current ones do);
 * otherwise `Origin` must name this host. Requests with neither come from scripts, not from a
 * browser tricked into sending them.
 */
export const sameOriginOnly: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method) || !fromAnotherSite(req)) return next();
  next(new AppError('FORBIDDEN', { message: 'Queue dashboard changes must come from the dashboard itself' }));
};

function fromAnotherSite(req: Request): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  return origin !== undefined && !sameHost(origin, req.headers.host ?? '');
}

/** A proxy may drop the port from Host (the gateway sends nginx's `$host`): then the name must match. */
function sameHost(origin: string, host: string): boolean {
  try {
    const url = new URL(origin);
    return url.host === host || (!host.includes(':') && url.hostname === host);
  } catch {
    return false;
  }
}

/**
 * A form token for the rerun POST: an HMAC of the signed-in user under a secret of this process.
 * A page on another site cannot read the form, so it cannot send the token.
 */
export function formTokens(): { issue: (user: string) => string; check: (user: string, token: unknown) => boolean } {
  const secret = randomBytes(32);
  const issue = (user: string) => createHmac('sha256', secret).update(`rerun:${user}`).digest('base64url');
  return {
    issue,
    check: (user, token) => {
      if (typeof token !== 'string') return false;
      const expected = Buffer.from(issue(user));
      const given = Buffer.from(token);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
