/**
 * `pnpm dev:token [--user admin01] [--group BO_ADMIN] [--entr E0001] [--hours 12]`: a bearer token
 * for trying the back-office API locally, signed with JWT_SECRET (or the development secret).
 * (Not `pnpm token`: pnpm hands that name to npm's own `token` command.)
 */
import jwt from 'jsonwebtoken';
import { parseCommandLine, usageError } from '@bo/service-kit/command-line';
import { DEV_JWT_SECRET } from '@bo/service-kit/dev-secret';

const USAGE = `usage: pnpm dev:token [--user admin01] [--group BO_ADMIN] [--entr E0001] [--hours 12]
  --user    the token's subject (default admin01)
  --group   work group: BO_ADMIN, BO_MD or BO_ENTR (default BO_ADMIN)
  --entr    supplier number (BO_ENTR tokens need one)
  --hours   lifetime in hours (default 12)
Signed with JWT_SECRET, or the development secret when it is unset.`;

export function devToken(claims: { user: string; group: string; entr?: string | undefined }, hours = 12): string {
  const secret = process.env.JWT_SECRET ?? DEV_JWT_SECRET;
  const payload = { sub: claims.user, workGrpCd: claims.group, ...(claims.entr ? { entrNo: claims.entr } : {}) };
  return jwt.sign(payload, secret, { algorithm: 'HS256', expiresIn: hours * 3600 });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const values = parseCommandLine(USAGE, {
    user: { type: 'string', default: 'admin01' },
    group: { type: 'string', default: 'BO_ADMIN' },
    entr: { type: 'string' },
    hours: { type: 'string', default: '12' },
  });
  const hours = Number(values.hours);
  if (!(hours > 0)) usageError(`--hours must be a positive number (got "${values.hours}")`, USAGE);
  console.log(devToken({ user: values.user, group: values.group, entr: values.entr }, hours));
}
