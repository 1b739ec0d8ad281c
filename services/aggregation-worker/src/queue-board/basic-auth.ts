import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@bo/service-kit';

/** Equal-length digests, so the comparison takes the same time whatever was sent. */
const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const same = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * HTTP basic auth for the ops pages. Both parts are always compared (no early exit on a wrong
 * user) and a refusal asks the browser for credentials.
 */
export function basicAuth(credentials: { user: string; password: string }, realm = 'aggregation queues'): RequestHandler {
  return (req, res, next) => {
    const [scheme, encoded] = (req.headers.authorization ?? '').split(' ');
    const decoded = scheme?.toLowerCase() === 'basic' && encoded ? Buffer.from(encoded, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const userOk = same(colon < 0 ? '' : decoded.slice(0, colon), credentials.user);
    const passwordOk = same(colon < 0 ? '' : decoded.slice(colon + 1), credentials.password);
    if (colon >= 0 && userOk && passwordOk) return next();
    res.setHeader('WWW-Authenticate', `Basic realm="${realm}", charset="UTF-8"`);
    next(new AppError('UNAUTHENTICATED', { message: 'Queue dashboard credentials are required' }));
  };
}
