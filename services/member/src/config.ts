import { Type } from '@sinclair/typebox';
import { checkTimeZone, ConfigFragments, loadConfig } from '@bo/service-kit';

export const memberConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.memberDatabase,
  MEMBER_PORT: ConfigFragments.ports.MEMBER_PORT,
  INTERNAL_CIDRS: Type.String({
    default: '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7',
    description: 'comma-separated CIDRs of internal callers allowed to use the member service',
  }),
  TRUSTED_PROXIES: Type.String({ default: '', description: 'comma-separated CIDRs of proxies whose X-Forwarded-For is believed' }),
  MEMBER_ACCESS_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'when set, the Authorization header must carry it' })),
};

export type MemberConfig = ReturnType<typeof loadMemberConfig>;

export const loadMemberConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(memberConfigSchema, env, checkTimeZone);
