import type { Knex } from '@bo/db';
import type { OrderStatusRow } from '@bo/contracts';
import { conditionNames, type DayRange, type Grain, type Measures, type SiteGoodsFilter } from './repository.ts';
import { addMeasures, ZERO_MEASURES } from './status-measures.ts';
import { statusSums } from './status-sources.ts';

/** One bucket of the period and hourly reports: the event sums and the inflow count of the same bucket. */
export interface EventBucket {
  key: string;
  measures: Measures;
  infCnt: number;
}

/**
 * Every bucket of `keys`, in that order, zero where nothing happened: the database sums what
 * exists, the buckets without rows are filled here.
 */
export async function denseEventBuckets(
  knex: Knex,
  agrtGb: string,
  f: SiteGoodsFilter,
  range: DayRange,
  grain: Grain,
  keys: readonly string[],
): Promise<EventBucket[]> {
  const { events, views } = await statusSums(knex, agrtGb, f, range, grain);
  return keys.map((key) => ({ key, measures: events.get(key) ?? ZERO_MEASURES, infCnt: views.get(key) ?? 0 }));
}

export const totalOf = (buckets: readonly EventBucket[]): { measures: Measures; infCnt: number } => ({
  measures: buckets.reduce((sum, b) => addMeasures(sum, b.measures), ZERO_MEASURES),
  infCnt: buckets.reduce((sum, b) => sum + b.infCnt, 0),
});

/** The request's conditions with their names, carried on every row of the report. */
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
