import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import type { RequestHandler } from 'express';
import { expressjwt, type Request as JwtRequest } from 'express-jwt';
import { WORK_GROUPS } from '@bo/contracts';
import { AppError } from '../app-error.ts';
import { DEV_JWT_SECRET, publicKeyPem } from '../config.ts';

/** Who is calling: read from the verified token, never from the query. */
export interface AuthPrincipal {
  userId: string;
  entrNo?: string;
  workGrpCd: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auth?: AuthPrincipal;
    }
  }
}

export interface JwtSettings {
  JWT_SECRET?: string | undefined;
  JWT_PUBLIC_KEY?: string | undefined;
}

/**
 * HS256 with a secret or RS256 with a public key; the algorithm list is pinned to exactly one.
 * The key is made a KeyObject once here: given text, jsonwebtoken builds one on every request,
 * first trying the text as a PEM public key (a secret fails that with a thrown error), which
 * was a third of the CPU of a cheap authenticated read.
 */
export function jwtVerification(settings: JwtSettings): { secret: KeyObject; algorithms: ['HS256'] | ['RS256'] } {
  if (settings.JWT_PUBLIC_KEY) return { secret: createPublicKey(publicKeyPem(settings.JWT_PUBLIC_KEY)), algorithms: ['RS256'] };
  return { secret: createSecretKey(Buffer.from(settings.JWT_SECRET ?? DEV_JWT_SECRET, 'utf8')), algorithms: ['HS256'] };
}

/**
 * Bearer authentication. express-jwt verifies signature, algorithm and expiry; then `exp`,
 * `sub` and `workGrpCd` must be present and `req.auth` becomes the typed principal.
 */
export function bearerAuth(settings: JwtSettings): RequestHandler[] {
  const { secret, algorithms } = jwtVerification(settings);
  const verify = expressjwt({ secret, algorithms, credentialsRequired: true, requestProperty: 'auth' });
  const toPrincipal: RequestHandler = (req, _res, next) => {
    const claims = (req as unknown as JwtRequest).auth as Record<string, unknown> | undefined;
    if (!claims || typeof claims.exp !== 'number') return next(new AppError('INVALID_TOKEN', { message: 'The access token must carry an expiry (exp)' }));
    if (typeof claims.sub !== 'string' || !claims.sub) return next(new AppError('INVALID_TOKEN', { message: 'The access token must carry the user id (sub)' }));
    if (typeof claims.workGrpCd !== 'string' || !claims.workGrpCd)
      return next(new AppError('INVALID_TOKEN', { message: 'The access token must carry the work group (workGrpCd)' }));
    // A token without a supplier sees every supplier: a supplier claim that is malformed, or a
    // supplier work group without one, is refused rather than read as "no supplier".
    if (claims.entrNo !== undefined && claims.entrNo !== null && typeof claims.entrNo !== 'string')
      return next(new AppError('INVALID_TOKEN', { message: 'The access token entrNo must be a supplier number (string)' }));
    const entrNo = typeof claims.entrNo === 'string' && claims.entrNo ? claims.entrNo : undefined;
    if (claims.workGrpCd === WORK_GROUPS.SUPPLIER && !entrNo)
      return next(new AppError('INVALID_TOKEN', { message: 'A supplier (BO_ENTR) token must carry its supplier (entrNo)' }));
    req.auth = { userId: claims.sub, workGrpCd: claims.workGrpCd, ...(entrNo ? { entrNo } : {}) };
    next();
  };
  return [verify as unknown as RequestHandler, toPrincipal];
}
