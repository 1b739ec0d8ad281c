import jwt from 'jsonwebtoken';
import { createLogger, type Logger } from '../logger.ts';

export { handMadeJwt, hs256, nowSeconds, rs256, rsaKeyPair } from './tokens.ts';

/** The HS256 secret test apps are configured with. */
export const TEST_JWT_SECRET = 'test-secret-0123456789-abcdefghij';

export interface TokenClaims {
  sub: string;
  workGrpCd: string;
  entrNo?: string;
}

/** A bearer header value for a test user, valid for an hour unless told otherwise. */
export function bearer(claims: TokenClaims, options: { secret?: string; expiresIn?: number } = {}): string {
  const token = jwt.sign(claims, options.secret ?? TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: options.expiresIn ?? 3600 });
  return `Bearer ${token}`;
}

export const ADMIN = { sub: 'admin01', workGrpCd: 'BO_ADMIN' } as const;

/** A logger that keeps quiet unless a test fails badly; LOG_LEVEL overrides it. */
export const testLogger = (service = 'test'): Logger => createLogger(service, process.env.TEST_LOG_LEVEL ?? 'error');

export * from './hostile-input.ts';
