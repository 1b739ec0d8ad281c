import { ALL_GOODS_DIM, GOODS_DIMENSIONS } from '@bo/contracts';
import { addDays, type Knex } from '@bo/db';
import type { BucketMeasures, DayRange, Grain, Measures, SiteGoodsFilter } from './repository.ts';
import {
  builtPeriodDays,
  categoryAndBelow,
  goodsMatching,
  GOODS_LIST_MAX,
  movedGoods,
  sumEventRollup,
  sumRawEvents,
  sumRawViews,
  sumViewRollup,
  type BucketViews,
  type GoodsAttributes,
  type RawFilter,
  type RollupDim,
} from './status-repository.ts';
import { addMeasures, measuresOf, scaleMeasures, ZERO_MEASURES } from './status-measures.ts';

/**
 * Where the sums of a period or hourly status report come from. The numbers are those of a sum
 * over the raw events (DATA-MODEL.md section 3, goods filters through the goods' current
 * attributes); the cost no longer grows with the events of the range:
 *
 * - days the worker has built (kind `period`) come from its rollups, the other days (today, a day
 *   not built yet) from raw events, so the answer does not depend on how far the worker got;
 * - without goods conditions, the rollup per hour and site (hourly reports) or per day and site;
 *   with one goods condition (category with everything below it, supplier, brand or MD; a site
 *   besides), the rollup per day and that attribute, plus or minus the raw events of the few
 *   goods whose attributes changed since the rollups filed them (`movedGoods`);
 * - a goods number, two goods conditions at once, or a goods condition on the hourly report:
 *   raw rows only, of the goods meeting the conditions now, read by goods number and date.
 *
 * Page views follow the same choice over the inflow rollups, which every inflow build keeps equal
 * to the goods-level hourly inflow aggregate (so they need no built-day split).
 * A built day whose events arrive late shows them once the worker rebuilds it (the hourly
 * late-data check, the nightly reconciliation), as the aggregate lists do.
 */

/** Beyond this many moved goods the raw read is the simpler exact answer (the moved goods go as literal lists). */
const MAX_MOVED_GOODS = GOODS_LIST_MAX;

/** The goods dimension a report's conditions ask for: `all`, one, or undefined when only raw rows can answer. */
function dimensionOf(q: SiteGoodsFilter, grain: Grain): (typeof GOODS_DIMENSIONS)[number] | typeof ALL_GOODS_DIM | undefined {
  if (q.goodsNo) return undefined;
  const asked = GOODS_DIMENSIONS.filter((d) => q[d.filter]);
  if (asked.length === 0) return ALL_GOODS_DIM;
  if (asked.length > 1 || grain === 'hour') return undefined;
  return asked[0];
}

/** The days of `range` in runs of consecutive built days and runs of consecutive other days. */
function splitByBuilt(range: DayRange, built: ReadonlySet<string>): { built: DayRange[]; raw: DayRange[] } {
  const out = { built: [] as DayRange[], raw: [] as DayRange[] };
  let start = range.fromDay;
  for (let day = range.fromDay; day < range.toDay; ) {
    const next = addDays(day, 1);
    if (next === range.toDay || built.has(next) !== built.has(day)) {
      (built.has(day) ? out.built : out.raw).push({ fromDay: start, toDay: next });
      start = next;
    }
    day = next;
  }
  return out;
}

export interface StatusSums {
  events: Map<string, Measures>;
  views: Map<string, number>;
}

type Signed<T> = { rows: PromiseLike<T[]>; sign: 1 | -1 };

/** Send the query now (a knex builder runs when first awaited); a read dropped unawaited fails quietly. */
function started<T>(q: PromiseLike<T[]>): Promise<T[]> {
  const p = Promise.resolve(q);
  p.catch(() => undefined);
  return p;
}

async function sumEvents(parts: Signed<BucketMeasures>[]): Promise<Map<string, Measures>> {
  const out = new Map<string, Measures>();
  const results = await Promise.all(parts.map((p) => p.rows));
  results.forEach((rows, i) => {
    for (const r of rows) out.set(r.bucket, addMeasures(out.get(r.bucket) ?? ZERO_MEASURES, scaleMeasures(measuresOf(r), parts[i]!.sign)));
  });
  return out;
}

async function sumViews(parts: Signed<BucketViews>[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const results = await Promise.all(parts.map((p) => p.rows));
  results.forEach((rows, i) => {
    for (const r of rows) out.set(r.bucket, (out.get(r.bucket) ?? 0) + parts[i]!.sign * Number(r.infCnt));
  });
  return out;
}

const hasAttributes = (f: GoodsAttributes) => Boolean(f.entrNo || f.brandNo || f.mdId || f.stdCtgNos);

/** The event sums and page views of one agrtGb per bucket of `grain` over `range`. */
export async function statusSums(knex: Knex, agrtGb: string, q: SiteGoodsFilter, range: DayRange, grain: Grain): Promise<StatusSums> {
  if (grain === 'month' && !(range.fromDay.endsWith('-01') && range.toDay.endsWith('-01'))) throw new Error('a month grain reads whole months');
  const asked = dimensionOf(q, grain);
  const [stdCtgNos, built] = await Promise.all([
    q.stdCtgNo ? categoryAndBelow(knex, q.stdCtgNo) : undefined,
    asked ? builtPeriodDays(knex, range) : new Set<string>(),
  ]);
  const attrs: GoodsAttributes = { goodsNo: q.goodsNo, entrNo: q.entrNo, brandNo: q.brandNo, mdId: q.mdId, stdCtgNos };
  /** The conditions of a raw read: the site and, with goods conditions, the goods meeting them now (a few as a list). */
  const rawFilter = async (): Promise<RawFilter> => {
    if (!hasAttributes(attrs)) return { siteNo: q.siteNo, ...(q.goodsNo ? { goodsNos: [q.goodsNo] } : {}) };
    const goodsNos = await goodsMatching(knex, attrs, GOODS_LIST_MAX);
    return goodsNos.length > GOODS_LIST_MAX ? { siteNo: q.siteNo, through: attrs } : { siteNo: q.siteNo, goodsNos };
  };
  const dim: RollupDim | undefined =
    asked === ALL_GOODS_DIM
      ? { dimCd: ALL_GOODS_DIM }
      : asked && { dimCd: asked.dimCd, column: asked.column, values: asked.filter === 'stdCtgNo' ? stdCtgNos! : [q[asked.filter]!] };
  const rawOnly = async (): Promise<StatusSums> => {
    const f = await rawFilter();
    const [events, views] = await Promise.all([
      sumEvents([{ rows: sumRawEvents(knex, agrtGb, f, [range], grain), sign: 1 }]),
      sumViews([{ rows: sumRawViews(knex, f, range, grain), sign: 1 }]),
    ]);
    return { events, views };
  };
  if (!dim) return rawOnly();

  const runs = splitByBuilt(range, built);
  const eventParts: Signed<BucketMeasures>[] = [];
  // Sent before the moved goods are known: they do not depend on them. The monthly rollup holds
  // exactly the built days of each month, so whole months need no split.
  const rollupRanges = grain === 'month' ? [range] : runs.built;
  if (runs.built.length) eventParts.push({ rows: started(sumEventRollup(knex, agrtGb, dim, q.siteNo, rollupRanges, grain)), sign: 1 });
  const viewParts: Signed<BucketViews>[] = [{ rows: started(sumViewRollup(knex, dim, q.siteNo, range, grain)), sign: 1 }];
  const [f, moved] = await Promise.all([
    runs.raw.length ? rawFilter() : undefined,
    'values' in dim ? movedGoods(knex, dim, MAX_MOVED_GOODS) : { in: [], out: [] },
  ]);
  if (!moved) return rawOnly();
  if (f) eventParts.push({ rows: sumRawEvents(knex, agrtGb, f, runs.raw, grain), sign: 1 });
  for (const [goodsNos, sign] of [
    [moved.in, 1],
    [moved.out, -1],
  ] as const) {
    if (!goodsNos.length) continue;
    const only = { siteNo: q.siteNo, goodsNos };
    if (runs.built.length) eventParts.push({ rows: sumRawEvents(knex, agrtGb, only, runs.built, grain), sign });
    viewParts.push({ rows: sumRawViews(knex, only, range, grain), sign });
  }
  const [events, views] = await Promise.all([sumEvents(eventParts), sumViews(viewParts)]);
  return { events, views };
}
