import type { RequestHandler } from 'express';
import type { MemberConfig } from './config.ts';

/** Placeholder: the member issue builds the CIDR / trusted-proxy / access-token guard. */
export function internalOnly(_config: MemberConfig): RequestHandler {
  return (_req, _res, next) => next();
}
