import type { Knex } from '@bo/db';
import type { RestockNoticeStatus } from '@bo/contracts';
import { countWaitingRestockRequests, topWaitingRestockGoods } from './data-access/goods-counts.ts';
import { DASHBOARD_LIST_SIZE, type DashboardScope } from './model.ts';

/** Requests still waiting for their notice (`noti_yn = 'N'`), and the goods most waited for. */
export async function restockNoticeStatus(knex: Knex, scope: DashboardScope, siteNo: string | undefined): Promise<RestockNoticeStatus> {
  const [totCnt, list] = await Promise.all([
    countWaitingRestockRequests(knex, scope.goods, siteNo),
    topWaitingRestockGoods(knex, scope.goods, siteNo, DASHBOARD_LIST_SIZE),
  ]);
  return { totCnt, list };
}
