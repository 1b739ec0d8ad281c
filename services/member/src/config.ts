import { Type } from '@sinclair/typebox';
import { checkTimeZone, ConfigFragments, loadConfig } from '@bo/service-kit';
import { parseCidrList } from './client-address.ts';

/** Every loopback and private range: right on a developer's machine, far too wide behind a production proxy. */
const ALL_PRIVATE_RANGES = '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';

export const memberConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.memberDatabase,
  ...ConfigFragments.databaseLimits,
  ...ConfigFragments.http,
  MEMBER_PORT: ConfigFragments.ports.MEMBER_PORT,
  INTERNAL_CIDRS: Type.String({
    default: ALL_PRIVATE_RANGES,
    description:
      "comma-separated CIDRs of internal callers allowed to use the member service; in production it must be set to the callers' own ranges (the default, every private range, is refused)",
  }),
  TRUSTED_PROXIES: Type.String({ default: '', description: 'comma-separated CIDRs of proxies whose X-Forwarded-For is believed' }),
  MEMBER_ACCESS_TOKEN: Type.Optional(
    Type.String({
      minLength: 16,
      description:
        'when set, the Authorization header of each operation must carry it (not of /metrics, the API docs, /health, /ready); required in production',
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

const sameRanges = (a: string, b: string) => {
  const norm = (text: string) =>
    parseCidrList(text)
      .map(([addr, bits]) => `${addr.toNormalizedString()}/${bits}`)
      .sort()
      .join(',');
  return norm(a) === norm(b);
};

/**
 * A proxy on a private address that was not listed in TRUSTED_PROXIES makes every outside caller
 * look internal under the default ranges; without an access token nothing else stands in the way.
 * In production both must therefore be chosen by the operator.
 */
function checkProduction(c: { NODE_ENV: string; INTERNAL_CIDRS: string; MEMBER_ACCESS_TOKEN?: string }): string[] {
  if (c.NODE_ENV !== 'production') return [];
  const problems: string[] = [];
  if (!c.MEMBER_ACCESS_TOKEN) problems.push('MEMBER_ACCESS_TOKEN is required in production');
  try {
    if (sameRanges(c.INTERNAL_CIDRS, ALL_PRIVATE_RANGES))
      problems.push("INTERNAL_CIDRS must name the internal callers' own ranges in production, not every private range (the default)");
  } catch {
    // A malformed list is reported by checkCidrs.
  }
  return problems;
}

export type MemberConfig = ReturnType<typeof loadMemberConfig>;

export const loadMemberConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(memberConfigSchema, env, (c) => [...checkTimeZone(c), ...checkCidrs(c), ...checkProduction(c)]);
