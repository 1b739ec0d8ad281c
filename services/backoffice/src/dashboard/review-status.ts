import { platformNow, type Knex } from '@bo/db';
import { REVIEW_STATES, type GoodsReviewStatus } from '@bo/contracts';
import { countReviews } from './data-access/goods-counts.ts';
import type { DashboardScope } from './model.ts';

const WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const RATINGS = { highMin: 4, lowMax: 2 };

/**
 * Reviews of the last 7 × 24 h: `now − 7 days <= reg_dtm <= now` in platform local time, both
 * ends included (a review exactly 7 days old still counts). `10` counts every review in the
 * window, `20` those rated 4 or more, `30` those rated 2 or less (3 is in neither).
 */
export async function reviewStatus(
  knex: Knex,
  scope: DashboardScope,
  siteNo: string | undefined,
  now: Date,
  timeZone: string,
): Promise<GoodsReviewStatus> {
  const window = { from: platformNow(timeZone, new Date(now.getTime() - WINDOW_MS)), to: platformNow(timeZone, now) };
  const counts = await countReviews(knex, scope.goods, siteNo, window, RATINGS);
  const countOf: Record<string, number> = { '10': counts.total, '20': counts.high, '30': counts.low };
  return REVIEW_STATES.map(({ revStateCd, revState }) => ({ revStateCd, revState, revCnt: countOf[revStateCd] ?? 0 }));
}
