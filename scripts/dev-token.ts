/**
 * `pnpm token [--user admin01] [--group BO_ADMIN] [--entr E0001] [--hours 12]`: a bearer token
 * for trying the back-office API locally, signed with JWT_SECRET (or the development secret).
 */
import jwt from 'jsonwebtoken';
import { parseArgs } from 'node:util';
import { DEV_JWT_SECRET } from '@bo/service-kit';

export function devToken(claims: { user: string; group: string; entr?: string | undefined }, hours = 12): string {
  const secret = process.env.JWT_SECRET ?? DEV_JWT_SECRET;
  const payload = { sub: claims.user, workGrpCd: claims.group, ...(claims.entr ? { entrNo: claims.entr } : {}) };
  return jwt.sign(payload, secret, { algorithm: 'HS256', expiresIn: hours * 3600 });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      user: { type: 'string', default: 'admin01' },
      group: { type: 'string', default: 'BO_ADMIN' },
      entr: { type: 'string' },
      hours: { type: 'string', default: '12' },
    },
  });
  console.log(devToken({ user: values.user, group: values.group, entr: values.entr }, Number(values.hours)));
}
