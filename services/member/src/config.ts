import { Type } from '@sinclair/typebox';
import { checkTimeZone, ConfigFragments, loadConfig } from '@bo/service-kit';
import { parseCidrList } from './client-address.ts';

export const memberConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.memberDatabase,
  ...ConfigFragments.databaseLimits,
  ...ConfigFragments.http,
  MEMBER_PORT: ConfigFragments.ports.MEMBER_PORT,
  INTERNAL_CIDRS: Type.String({
    default: '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7',
    description: 'comma-separated CIDRs of internal callers allowed to use the member service',
  }),
  TRUSTED_PROXIES: Type.String({ default: '', description: 'comma-separated CIDRs of proxies whose X-Forwarded-For is believed' }),
  MEMBER_ACCESS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description: 'when set, the Authorization header of each operation must carry it (not of /metrics, the API docs, /health, /ready)',
    }),
  ),
  IDEMPOTENCY_KEY_TTL_HOURS: Type.Integer({
    minimum: 24,
    maximum: 24 * 90,
    default: 24,
    description: 'hours an Idempotency-Key and its recorded outcome are kept (at least 24)',
  }),
  STAFF_LIMIT_LOCK_WAIT_SECONDS: Type.Integer({
    minimum: 1,
    maximum: 50,
    default: 5,
    description: 'innodb_lock_wait_timeout of a limit change; a change that waits longer is retried',
  }),
  STAFF_LIMIT_MAX_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 10,
    default: 3,
    description: 'attempts of a limit change that hits a deadlock or lock-wait timeout before answering 503',
  }),
};

function checkCidrs(c: { INTERNAL_CIDRS: string; TRUSTED_PROXIES: string }): string[] {
  const problems: string[] = [];
  for (const name of ['INTERNAL_CIDRS', 'TRUSTED_PROXIES'] as const) {
    try {
      parseCidrList(c[name]);
    } catch (err) {
      problems.push(`${name}: ${(err as Error).message}`);
    }
  }
  if (!c.INTERNAL_CIDRS.trim()) problems.push('INTERNAL_CIDRS must name at least one range');
  return problems;
}

export type MemberConfig = ReturnType<typeof loadMemberConfig>;

export const loadMemberConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(memberConfigSchema, env, (c) => [...checkTimeZone(c), ...checkCidrs(c)]);
