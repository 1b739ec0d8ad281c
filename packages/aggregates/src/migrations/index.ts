import { boSourceMigrations, type Migration } from '@bo/db';
import { aggregateTablesMigration } from './0101-aggregates.ts';
import { periodRollupsMigration } from './0102-period-rollups.ts';
import { monthlyRollupsMigration } from './0103-monthly-rollups.ts';
import { buildTablesMigration } from './0104-build-tables.ts';
import { allSiteRollupsMigration } from './0105-all-site-rollups.ts';
import { aiWindowSumsMigration } from './0106-ai-window-sums.ts';
import { hourlyDimRollupsMigration } from './0107-hourly-dim-rollups.ts';
import { cumulativeCategoryMigration } from './0108-cumulative-category.ts';
import { cumulativeGoodsMigration } from './0109-cumulative-goods.ts';
import { dimRollupsAllSitesMigration } from './0110-dim-rollups-all-sites.ts';
import { tenDayCategoryMigration } from './0111-ten-day-category.ts';
import { tenDayGoodsMigration } from './0112-ten-day-goods.ts';
import { runningSumsStaleMigration } from './0113-running-sums-stale.ts';
import { runLogRangeMigration } from './0114-run-log-range.ts';
import { runningDaysCategoryMigration } from './0115-running-days-category.ts';

/** The aggregate tables in the bo database, after the platform's source tables. */
export const aggregateMigrations: readonly Migration[] = [
  aggregateTablesMigration,
  periodRollupsMigration,
  monthlyRollupsMigration,
  buildTablesMigration,
  allSiteRollupsMigration,
  aiWindowSumsMigration,
  hourlyDimRollupsMigration,
  cumulativeCategoryMigration,
  cumulativeGoodsMigration,
  dimRollupsAllSitesMigration,
  tenDayCategoryMigration,
  tenDayGoodsMigration,
  runningSumsStaleMigration,
  runLogRangeMigration,
  runningDaysCategoryMigration,
];

/** Everything the bo database needs: the source tables, then the aggregates. */
export const boMigrations: readonly Migration[] = [...boSourceMigrations, ...aggregateMigrations];
