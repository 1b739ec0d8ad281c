import { createPublicKey } from 'node:crypto';
import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { createAjv, toFieldErrors } from '@bo/contracts';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const ajv = createAjv({ coerce: true });

/** How a bad value is quoted in the error: secrets never reach a log, URLs lose their password. */
function shown(name: string, value: string | undefined): string {
  if (value === undefined) return 'is not set';
  if (/SECRET|PASSWORD|TOKEN|KEY/.test(name)) return 'value hidden';
  return `got ${JSON.stringify(value.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@'))}`;
}

/**
 * Read the environment once against a schema. Every problem is reported with the variable's
 * name, so a bad deployment stops at start with a message an operator can act on.
 */
export function loadConfig<T extends TProperties>(
  properties: T,
  env: NodeJS.ProcessEnv = process.env,
  extraCheck?: (c: Static<TObject<T>>) => string[],
): Static<TObject<T>> {
  const schema = Type.Object(properties);
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    const raw = env[key];
    if (raw !== undefined && raw !== '') values[key] = raw;
  }
  const validate = ajv.compile(schema);
  if (!validate(values)) {
    // toFieldErrors folds a literal union's errors into one "must be one of …".
    const problems = toFieldErrors(validate.errors ?? []).map(({ field, message }) => {
      const desc = (properties[field] as { description?: string } | undefined)?.description;
      return `${field} ${message} (${shown(field, env[field])})${desc ? `: ${desc}` : ''}`;
    });
    throw new ConfigError([...new Set(problems)]);
  }
  const config = values as Static<TObject<T>>;
  const extra = extraCheck?.(config) ?? [];
  if (extra.length) throw new ConfigError(extra);
  return config;
}

const Port = (def: number, description: string) => Type.Integer({ minimum: 1, maximum: 65535, default: def, description });
const Url = (def: string, description: string, protocols: string[]) =>
  Type.String({ default: def, pattern: `^(${protocols.join('|')})://`, description });

/** Fragments of configuration shared by the services; each service composes its own. */
export const ConfigFragments = {
  common: {
    NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('test'), Type.Literal('production')], {
      default: 'development',
      description: 'development, test or production',
    }),
    LOG_LEVEL: Type.Union(
      ['error', 'warn', 'info', 'http', 'debug'].map((l) => Type.Literal(l)),
      {
        default: 'info',
        description: 'winston log level',
      },
    ),
    PLATFORM_TIME_ZONE: Type.String({
      default: 'Asia/Seoul',
      minLength: 1,
      description: 'IANA time zone of the platform; every stored DATETIME is local time of this zone',
    }),
    SHUTDOWN_TIMEOUT_MS: Type.Integer({ minimum: 100, default: 10000, description: 'graceful shutdown limit' }),
  },
  boDatabase: {
    BO_DATABASE_URL: Url('mysql://root@127.0.0.1:3306/bo', 'bo database (source tables and aggregates)', ['mysql', 'mariadb']),
    DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10, description: 'connections per database pool' }),
  },
  memberDatabase: {
    MEMBER_DATABASE_URL: Url('mysql://root@127.0.0.1:3306/member', 'member database', ['mysql', 'mariadb']),
    DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10, description: 'connections per database pool' }),
  },
  redis: {
    REDIS_URL: Url(
      'redis://127.0.0.1:6379/0',
      'Redis: the BullMQ queues of the aggregation worker, the AI rate-limit counters of the back-office',
      ['redis', 'rediss'],
    ),
    REDIS_PREFIX: Type.String({ default: 'bo', minLength: 1, pattern: '^[A-Za-z0-9_.-]+$', description: 'key prefix of every Redis key' }),
    REDIS_SENTINELS: Type.String({
      default: '',
      pattern: '^([A-Za-z0-9_.-]+:[0-9]{1,5}(,[A-Za-z0-9_.-]+:[0-9]{1,5})*)?$',
      description:
        'comma-separated host:port of Redis Sentinels; when set, Redis is the master Sentinel names REDIS_SENTINEL_NAME (followed across a failover) and REDIS_URL gives only the database number and password',
    }),
    REDIS_SENTINEL_NAME: Type.String({
      default: 'bo-redis',
      minLength: 1,
      pattern: '^[A-Za-z0-9_.-]+$',
      description: 'the master name the Sentinels monitor (sentinel monitor <name> …)',
    }),
  },
  jwt: {
    JWT_SECRET: Type.Optional(Type.String({ minLength: 16, description: 'HS256 secret for back-office tokens' })),
    JWT_PUBLIC_KEY: Type.Optional(Type.String({ minLength: 64, description: 'RS256 public key (PEM) for back-office tokens' })),
    JWT_WORK_GROUPS: Type.String({
      default: 'BO_ADMIN,BO_MD,BO_ENTR',
      pattern: '^\\s*[A-Za-z0-9_]+\\s*(,\\s*[A-Za-z0-9_]+\\s*)*$',
      description:
        'comma-separated work groups (workGrpCd, exact case) whose tokens are served; a token of any other group answers 403. A group other than BO_ENTR sees every supplier unless its token carries entrNo',
    }),
    JWT_ISSUER: Type.Optional(Type.String({ minLength: 1, description: 'when set, a token must carry this issuer (iss), else 401' })),
    JWT_AUDIENCE: Type.Optional(Type.String({ minLength: 1, description: 'when set, a token must carry this audience (aud), else 401' })),
  },
  /** The HTTP services' request limit (`requestTimeLimit`, `serverTimeoutsFor`). */
  http: {
    REQUEST_TIMEOUT_MS: Type.Integer({
      minimum: 1000,
      maximum: 600000,
      default: 30000,
      description:
        'longest a request may go without its answer starting; past it 900/1504 (httpStatus 504). A streamed Excel download that has started is not cut',
    }),
  },
  /** Limits of the HTTP services' database pools. */
  databaseLimits: {
    DB_ACQUIRE_TIMEOUT_MS: Type.Integer({
      minimum: 100,
      maximum: 600000,
      default: 10000,
      description: 'longest a query waits for a free pool connection; past it 900/1503 (httpStatus 503) with Retry-After',
    }),
  },
  ports: {
    BO_PORT: Port(3001, 'back-office service port'),
    MEMBER_PORT: Port(3002, 'member service port'),
    WORKER_PORT: Port(3003, 'aggregation worker (queue dashboard) port'),
  },
};

export { DEV_JWT_SECRET } from './dev-secret.ts';

/** The PEM of JWT_PUBLIC_KEY; env files and compose often carry it on one line with `\n`. */
export const publicKeyPem = (value: string): string => value.replace(/\\n/g, '\n');

export function checkJwt(c: { NODE_ENV: string; JWT_SECRET?: string; JWT_PUBLIC_KEY?: string }): string[] {
  if (c.JWT_SECRET && c.JWT_PUBLIC_KEY) return ['set only one of JWT_SECRET (HS256) and JWT_PUBLIC_KEY (RS256)'];
  if (!c.JWT_SECRET && !c.JWT_PUBLIC_KEY && c.NODE_ENV === 'production') return ['JWT_SECRET or JWT_PUBLIC_KEY is required in production'];
  if (c.JWT_PUBLIC_KEY) {
    // Checked here so a bad key stops the start instead of answering every request 401.
    if (c.JWT_PUBLIC_KEY.includes('PRIVATE KEY')) return ['JWT_PUBLIC_KEY holds a private key; give the public key only'];
    try {
      if (createPublicKey(publicKeyPem(c.JWT_PUBLIC_KEY)).asymmetricKeyType !== 'rsa')
        return ['JWT_PUBLIC_KEY must be an RSA public key (RS256)'];
    } catch {
      return ['JWT_PUBLIC_KEY is not a PEM public key'];
    }
  }
  return [];
}

export function checkTimeZone(c: { PLATFORM_TIME_ZONE: string }): string[] {
  try {
    new Intl.DateTimeFormat('en', { timeZone: c.PLATFORM_TIME_ZONE });
    return [];
  } catch {
    return [`PLATFORM_TIME_ZONE is not a known IANA time zone (got ${JSON.stringify(c.PLATFORM_TIME_ZONE)})`];
  }
}
