import type { Migration } from '../migrate.ts';
import { mastersMigration } from './bo/0001-masters.ts';
import { activityMigration } from './bo/0002-activity.ts';
import { eventPartitionsMigration } from './bo/0003-event-partitions.ts';
import { reviewWindowIndexMigration } from './bo/0004-review-window-index.ts';
import { coveringGoodsEventIndexMigration } from './bo/0005-covering-goods-event-index.ts';
import { goodsLabelIndexMigration } from './bo/0006-goods-label-index.ts';
import { staffLimitMigration } from './member/0001-staff-limit.ts';

/** Source tables of the bo database. The worker adds its aggregate tables to this list. */
export const boSourceMigrations: readonly Migration[] = [
  mastersMigration,
  activityMigration,
  eventPartitionsMigration,
  reviewWindowIndexMigration,
  coveringGoodsEventIndexMigration,
  goodsLabelIndexMigration,
];

export const memberBaseMigrations: readonly Migration[] = [staffLimitMigration];
