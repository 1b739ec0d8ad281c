import type { Knex } from '@bo/db';
import type { RestockNoticeStatus } from '@bo/contracts';
import type { DashboardScope } from './dashboard-scope.ts';
import { DASHBOARD_LIST_SIZE } from './list-size.ts';
import { countWaitingRestockRequests, topWaitingRestockGoods } from './repository.ts';

/** Requests still waiting for their notice (`noti_yn = 'N'`), and the goods most waited for. */
export async function restockNoticeStatus(knex: Knex, scope: DashboardScope, siteNo: string | undefined): Promise<RestockNoticeStatus> {
  const [totCnt, list] = await Promise.all([
    countWaitingRestockRequests(knex, scope.goods, siteNo),
    topWaitingRestockGoods(knex, scope.goods, siteNo, DASHBOARD_LIST_SIZE),
  ]);
  return { totCnt, list };
}
