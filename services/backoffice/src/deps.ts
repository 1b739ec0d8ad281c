import type { Redis } from 'ioredis';
import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import type { BackofficeConfig } from './config.ts';

/** Where the back-office service answers (behind the gateway's `/api/bo`). */
export const BO_PREFIX = '/api/bo';

/** What the back-office components are given: the app builds them from it, tests pass their own. */
export interface BackofficeDeps {
  config: BackofficeConfig;
  logger: Logger;
  /** The bo database: source tables (read-only) and the worker's aggregates. */
  knex: Knex;
  /**
   * Holds the AI rate-limit counters and the aggregate-list answer cache (a fail-fast client:
   * `createRedis(…, { failFast: true })`). Without it the AI operations are not rate limited and
   * every list is computed; `main.ts` gives one whenever AI_RATE_LIMIT_PER_MINUTE or
   * STATISTICS_ANSWER_CACHE_SECONDS is above 0.
   */
  redis?: Redis;
  /** The current instant; defaults to the system clock. Tests fix it to put rows exactly on a time-window boundary. */
  clock?: () => Date;
}
