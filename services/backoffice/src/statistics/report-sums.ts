import type { AgrtGb } from '@bo/contracts';
import { ALL_GOODS_DIM, GOODS_DIMENSIONS, HOURLY_GOODS_DIMENSIONS, type GoodsDimension } from '@bo/aggregates';
import { addDays, type Knex } from '@bo/db';
import {
  builtPeriodDays,
  categoryAndBelow,
  goodsFirstPays,
  goodsMatching,
  GOODS_LIST_MAX,
  movedGoods,
  sumEventRollup,
  sumRawEvents,
  sumRawViews,
  sumViewRollup,
  type GoodsAttributes,
  type RawFilter,
  type RollupDim,
} from './data-access/period-sources.ts';
import { addMeasures, measuresOf, scaleMeasures, ZERO_MEASURES } from './measures.ts';
import type { BucketMeasures, BucketViews, DayRange, EventBucket, Grain, Measures, SiteGoodsFilter } from './model.ts';

/**
 * Where the sums of a period or hourly report come from: the worker's period rollups for built
 * days, corrected for goods whose attributes moved since, and raw events for the other days or
 * for conditions no rollup serves. The numbers equal a sum over raw events whatever the source;
 * docs/design/period-reports.md explains the choice.
 */

/** Beyond this many moved goods the raw read is the simpler exact answer (the moved goods go as literal lists). */
const MAX_MOVED_GOODS = GOODS_LIST_MAX;

/** The goods dimension a report's conditions ask for: `all`, one, or undefined when only raw rows can answer. */
function dimensionOf(q: SiteGoodsFilter, grain: Grain): GoodsDimension | typeof ALL_GOODS_DIM | undefined {
  if (q.goodsNo) return undefined;
  const asked = GOODS_DIMENSIONS.filter((d) => q[d.filter]);
  if (asked.length === 0) return ALL_GOODS_DIM;
  if (asked.length > 1 || (grain === 'hour' && !HOURLY_GOODS_DIMENSIONS.includes(asked[0]!))) return undefined;
  return asked[0];
}

/** The days of `range` in runs of consecutive built days and runs of consecutive other days. */
function splitByBuilt(range: DayRange, built: ReadonlySet<string>): { built: DayRange[]; raw: DayRange[] } {
  const out = { built: [] as DayRange[], raw: [] as DayRange[] };
  let start = range.fromDay;
  for (let day = range.fromDay; day < range.toDay;) {
    const next = addDays(day, 1);
    if (next === range.toDay || built.has(next) !== built.has(day)) {
      (built.has(day) ? out.built : out.raw).push({ fromDay: start, toDay: next });
      start = next;
    }
    day = next;
  }
  return out;
}

interface ReportSums {
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
async function reportSums(knex: Knex, agrtGb: AgrtGb, q: SiteGoodsFilter, range: DayRange, grain: Grain): Promise<ReportSums> {
  if (grain === 'month' && !(range.fromDay.endsWith('-01') && range.toDay.endsWith('-01')))
    throw new Error('a month grain reads whole months');
  const asked = dimensionOf(q, grain);
  const [stdCtgNos, built] = await Promise.all([
    q.stdCtgNo ? categoryAndBelow(knex, q.stdCtgNo) : undefined,
    // The hourly report's raw reads also need them (goodsFirstPays).
    asked || grain === 'hour' ? builtPeriodDays(knex, range) : new Set<string>(),
  ]);
  const attrs: GoodsAttributes = { goodsNo: q.goodsNo, entrNo: q.entrNo, brandNo: q.brandNo, mdId: q.mdId, stdCtgNos };
  /** The conditions of a raw read: the site and, with goods conditions, the goods meeting them now (a few as a list). */
  const rawFilter = async (): Promise<RawFilter> => {
    if (!hasAttributes(attrs)) return { siteNo: q.siteNo, ...(q.goodsNo ? { goodsNos: [q.goodsNo] } : {}) };
    const goodsNos = await goodsMatching(knex, attrs, GOODS_LIST_MAX);
    if (goodsNos.length <= GOODS_LIST_MAX) return { siteNo: q.siteNo, goodsNos };
    return { siteNo: q.siteNo, through: attrs, goodsFirst: await goodsFirstPays(knex, attrs, range, grain, built) };
  };
  const dim: RollupDim | undefined =
    asked === ALL_GOODS_DIM
      ? { dimCd: ALL_GOODS_DIM }
      : asked && { dimCd: asked.dimCd, column: asked.column, values: asked.filter === 'stdCtgNo' ? stdCtgNos! : [q[asked.filter]!] };
  const rawOnly = async (): Promise<ReportSums> => {
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

/**
 * Every bucket of `keys`, in that order, zero where nothing happened: the database sums what
 * exists, the buckets without rows are filled here.
 */
export async function reportBuckets(
  knex: Knex,
  agrtGb: AgrtGb,
  q: SiteGoodsFilter,
  range: DayRange,
  grain: Grain,
  keys: readonly string[],
): Promise<EventBucket[]> {
  const { events, views } = await reportSums(knex, agrtGb, q, range, grain);
  return keys.map((key) => ({ key, measures: events.get(key) ?? ZERO_MEASURES, infCnt: views.get(key) ?? 0 }));
}
