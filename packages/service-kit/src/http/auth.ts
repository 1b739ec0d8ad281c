import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import type { NextFunction, Request, RequestHandler } from 'express';
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
  /** Comma-separated work groups whose tokens are served; unset: the platform's three. */
  JWT_WORK_GROUPS?: string | undefined;
  JWT_ISSUER?: string | undefined;
  JWT_AUDIENCE?: string | undefined;
}

const KNOWN_WORK_GROUPS = Object.values(WORK_GROUPS).join(',');

/** The work groups a token may carry, exactly as written (no case folding: `bo_entr` is not `BO_ENTR`). */
export const allowedWorkGroups = (list = KNOWN_WORK_GROUPS): ReadonlySet<string> =>
  new Set(
    list
      .split(',')
      .map((g) => g.trim())
      .filter(Boolean),
  );

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

/** `Authorization: Bearer <token>` as express-jwt reads it: two parts, the scheme in any case. */
function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const parts = header.split(' ');
  return parts.length === 2 && /^Bearer$/i.test(parts[0]!) && parts[1] ? parts[1] : undefined;
}

interface VerifiedToken {
  principal: Readonly<AuthPrincipal>;
  exp: number;
  nbf: number | undefined;
}

/**
 * Tokens that passed every check below, by their text: a client sends the same token on every
 * call until it expires, and decoding it twice and checking its signature each time was a tenth
 * of the CPU of a cheap read. A kept token is used only while `nbf <= now < exp` in whole seconds,
 * jsonwebtoken's own rule, so it expires exactly as before; the key is fixed for the process, and
 * a token differing in any character is another entry. Bounded: when full, the oldest goes.
 */
export class VerifiedTokens {
  private readonly tokens = new Map<string, VerifiedToken>();
  constructor(private readonly max = 10_000) {}

  get(token: string, nowSeconds = Math.floor(Date.now() / 1000)): Readonly<AuthPrincipal> | undefined {
    const known = this.tokens.get(token);
    if (!known) return undefined;
    if (nowSeconds >= known.exp || (known.nbf !== undefined && nowSeconds < known.nbf)) {
      this.tokens.delete(token);
      return undefined;
    }
    return known.principal;
  }

  set(token: string, entry: VerifiedToken): void {
    if (this.tokens.size >= this.max) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(token, entry);
  }
}

/**
 * Bearer authentication. express-jwt verifies signature, algorithm, expiry and, when configured,
 * issuer and audience; then `exp`, `sub` and `workGrpCd` must be present and `req.auth` becomes
 * the typed principal. Authorization fails closed: a work group outside JWT_WORK_GROUPS answers
 * 403, whatever else the token says, because the scopes further on (supplier, MD categories)
 * are keyed on known groups, and an unknown one would otherwise pass with none of them. A token
 * that passed all of it before and has not expired yet is taken from `VerifiedTokens`.
 */
export function bearerAuth(settings: JwtSettings): RequestHandler[] {
  const { secret, algorithms } = jwtVerification(settings);
  const verify = expressjwt({
    secret,
    algorithms,
    credentialsRequired: true,
    requestProperty: 'auth',
    ...(settings.JWT_ISSUER ? { issuer: settings.JWT_ISSUER } : {}),
    ...(settings.JWT_AUDIENCE ? { audience: settings.JWT_AUDIENCE } : {}),
  }) as unknown as RequestHandler;
  const workGroups = allowedWorkGroups(settings.JWT_WORK_GROUPS);
  const forbidden = () => new AppError('FORBIDDEN', { message: "The token's work group (workGrpCd) may not use this service" });
  const verified = new VerifiedTokens();
  const toPrincipal = (req: Request, next: NextFunction, token: string | undefined) => {
    const claims = (req as unknown as JwtRequest).auth as Record<string, unknown> | undefined;
    if (!claims || typeof claims.exp !== 'number')
      return next(new AppError('INVALID_TOKEN', { message: 'The access token must carry an expiry (exp)' }));
    if (typeof claims.sub !== 'string' || !claims.sub)
      return next(new AppError('INVALID_TOKEN', { message: 'The access token must carry the user id (sub)' }));
    if (typeof claims.workGrpCd !== 'string' || !claims.workGrpCd)
      return next(new AppError('INVALID_TOKEN', { message: 'The access token must carry the work group (workGrpCd)' }));
    if (!workGroups.has(claims.workGrpCd)) return next(forbidden());
    // A token without a supplier sees every supplier: a supplier claim that is malformed, or a
    // supplier work group without one, is refused rather than read as "no supplier".
    if (claims.entrNo !== undefined && claims.entrNo !== null && typeof claims.entrNo !== 'string')
      return next(new AppError('INVALID_TOKEN', { message: 'The access token entrNo must be a supplier number (string)' }));
    const entrNo = typeof claims.entrNo === 'string' && claims.entrNo ? claims.entrNo : undefined;
    if (claims.workGrpCd === WORK_GROUPS.SUPPLIER && !entrNo)
      return next(new AppError('INVALID_TOKEN', { message: 'A supplier (BO_ENTR) token must carry its supplier (entrNo)' }));
    const principal = Object.freeze({ userId: claims.sub, workGrpCd: claims.workGrpCd, ...(entrNo ? { entrNo } : {}) });
    if (token) verified.set(token, { principal, exp: claims.exp, nbf: typeof claims.nbf === 'number' ? claims.nbf : undefined });
    req.auth = principal;
    next();
  };
  const authenticate: RequestHandler = (req, res, next) => {
    const token = bearerToken(req.headers.authorization);
    const known = token === undefined ? undefined : verified.get(token);
    if (known) {
      req.auth = known;
      return next();
    }
    verify(req, res, (err?: unknown) => (err ? next(err) : toPrincipal(req, next, token)));
  };
  return [authenticate];
}
