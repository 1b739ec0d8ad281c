import { createKnex, type Knex } from '@bo/db';
import type { MemberConfig } from './config.ts';

/**
 * The member database pool. Its connections wait at most STAFF_LIMIT_LOCK_WAIT_SECONDS for a
 * row lock from the moment they open (a limit change that waits longer is retried), so a
 * change does not spend a round trip setting it. No statement limit: limit changes wait on row
 * locks under that bound instead.
 */
export const createMemberKnex = (config: MemberConfig): Knex =>
  createKnex(config.MEMBER_DATABASE_URL, {
    poolMax: config.DB_POOL_MAX,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    lockWaitSeconds: config.STAFF_LIMIT_LOCK_WAIT_SECONDS,
  });
