import type { Knex } from '@bo/db';
import { CODE_GROUPS, SALE_STATUSES, type SaleStockStatus } from '@bo/contracts';
import { codeNames, countGoodsBySaleStatus } from './data-access/goods-counts.ts';
import type { DashboardScope } from './model.ts';

const LOW_STOCK = '00';
const ON_SALE = '10';

/**
 * Goods per sale status, every dashboard status present even at 0. `00` (low stock) counts
 * stock-managed goods on sale whose stock is at or below the safety stock; they also stay in
 * `10`. Sold-out or unapproved goods are never "low stock": the warning is about goods that can
 * still be bought. Names come from common-code group SALE_STAT, else the built-in names.
 */
export async function saleStockStatus(knex: Knex, scope: DashboardScope): Promise<SaleStockStatus> {
  const [rows, names] = await Promise.all([countGoodsBySaleStatus(knex, scope.goods), codeNames(knex, CODE_GROUPS.SALE_STATUS)]);
  const byStatus = new Map(rows.map((r) => [r.saleStatCd, r]));
  const countOf = (saleStatCd: string) =>
    saleStatCd === LOW_STOCK ? (byStatus.get(ON_SALE)?.lowStockCnt ?? 0) : (byStatus.get(saleStatCd)?.cnt ?? 0);
  return {
    goodsStatuses: SALE_STATUSES.map(({ saleStatCd, saleStatCdNm }) => ({
      saleStatCd,
      saleStatCdNm: names.get(saleStatCd) ?? saleStatCdNm,
      cnt: countOf(saleStatCd),
    })),
    mdMatchedStdCtgCount: scope.mappedCategoryCount,
  };
}
