import type { Knex } from '@bo/db';
import type { Logger } from '@bo/service-kit';
import type { MemberConfig } from './config.ts';

/** Where the member service answers (internal callers only). */
export const MEMBER_PREFIX = '/api/member';

/** What the member components are given: the app builds them from it, tests pass their own. */
export interface MemberDeps {
  config: MemberConfig;
  logger: Logger;
  knex: Knex;
}
