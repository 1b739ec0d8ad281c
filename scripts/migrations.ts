import { boSourceMigrations, memberBaseMigrations, type Migration } from '@bo/db';
import { aggregateMigrations } from '@bo/aggregation-worker/migrations';
import { memberServiceMigrations } from '@bo/member/migrations';

/** Everything the bo database needs: the platform's source tables, then the worker's aggregates. */
export const boMigrations: readonly Migration[] = [...boSourceMigrations, ...aggregateMigrations];

/** Everything the member database needs. */
export const memberMigrations: readonly Migration[] = [...memberBaseMigrations, ...memberServiceMigrations];
