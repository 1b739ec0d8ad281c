import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '@bo/service-kit';
import { clientAddress, inRanges, parseCidrList } from './client-address.ts';
import type { MemberConfig } from './config.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Compares digests so neither the length nor the matching prefix of the token leaks through
 * timing; the configured token's digest is made once.
 */
function carriesToken(authorization: string | undefined, tokenDigest: Buffer): boolean {
  if (!authorization) return false;
  const presented = authorization.replace(/^Bearer\s+/i, '').trim();
  return timingSafeEqual(digest(presented), tokenDigest);
}

/**
 * Spec 4.5 rule 6 and section 5: only internal servers may reach the member service. The
 * caller's address (see `clientAddress`) must lie in INTERNAL_CIDRS, for everything but
 * `/health` and `/ready` (probes): the operations, and also the metrics and the API docs, which
 * describe the service to whoever can read them. A refusal answers a real 403 with the
 * ErrorCode body.
 */
export function internalOnly(config: MemberConfig): RequestHandler {
  const internal = parseCidrList(config.INTERNAL_CIDRS);
  const trusted = parseCidrList(config.TRUSTED_PROXIES);
  return (req, _res, next) => {
    const caller = clientAddress(req.socket.remoteAddress, req.get('x-forwarded-for'), trusted);
    if (!caller || !inRanges(caller, internal)) return next(new AppError('NOT_INTERNAL'));
    next();
  };
}

/**
 * Spec section 5: the operations' Authorization header carries the access token. When
 * MEMBER_ACCESS_TOKEN is set it must carry that token (`Bearer <token>` or the bare token), else
 * a real 403. Operations only: a browser opening the Swagger UI or a metrics scraper on the
 * internal network sends no such header.
 */
export function accessTokenRequired(config: MemberConfig): RequestHandler {
  const tokenDigest = config.MEMBER_ACCESS_TOKEN ? digest(config.MEMBER_ACCESS_TOKEN) : undefined;
  return (req, _res, next) => {
    if (tokenDigest && !carriesToken(req.get('authorization'), tokenDigest))
      return next(new AppError('FORBIDDEN', { message: 'The Authorization header must carry the member access token' }));
    next();
  };
}
