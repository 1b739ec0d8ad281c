import type { Knex } from '@bo/db';
import type { OrderStatusRow } from '@bo/contracts';
import { conditionNames } from './data-access/condition-names.ts';
import type { SiteGoodsFilter } from './model.ts';

/** The request's conditions with their names, carried on every row of the period and hourly reports. */
export async function conditionEcho(knex: Knex, f: SiteGoodsFilter): Promise<Partial<OrderStatusRow>> {
  const names = await conditionNames(knex, f);
  const echo: Partial<OrderStatusRow> = {};
  if (f.siteNo) Object.assign(echo, { siteNo: f.siteNo, siteNm: names.siteNm });
  if (f.stdCtgNo) Object.assign(echo, { stdCtgNo: f.stdCtgNo, stdCtgNm: names.stdCtgNm });
  if (f.mdId) Object.assign(echo, { mdId: f.mdId, mdNm: names.mdNm });
  if (f.entrNo) Object.assign(echo, { entrNo: f.entrNo, entrNm: names.entrNm });
  if (f.brandNo) Object.assign(echo, { brandNm: names.brandNm });
  if (f.goodsNo) Object.assign(echo, { goodsNo: f.goodsNo, goodsNm: names.goodsNm, imgPath: names.imgPath });
  return echo;
}
