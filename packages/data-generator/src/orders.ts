import { DEMO_CODES } from '@bo/contracts';
import { addDays, compactDay } from '@bo/db';
import type { GeneratedGoods } from './goods.ts';
import { memberNumber } from './members.ts';
import { EVENTS_PER_ORDER, lastSecondOfLastDay, type Plan } from './plan.ts';
import { aliasTable, createRandom, cumulative, drawCumulative } from './random.ts';
import type { RowSink } from './row-sink.ts';
import { SITES } from './masters.ts';
import { drawSecond, hms, OFFICE_HOURS, SHOPPING_HOURS } from './time-of-day.ts';

export const ORD_COLUMNS = ['ord_no', 'site_no', 'mbr_no', 'ord_dtm', 'pay_way_cd'] as const;
/** Column order of the generated lines (number and time first: they are known only when the day is written). */
export const EVT_COLUMNS = [
  'evt_no',
  'evt_dtm',
  'ord_no',
  'ord_goods_seq',
  'site_no',
  'goods_no',
  'agrt_gb_cd',
  'evt_gb_cd',
  'qty',
  'amt',
  'dc_amt_2nd',
  'dc_amt_3rd',
] as const;
export const INFLOW_COLUMNS = ['log_no', 'goods_no', 'site_no', 'inflow_dtm'] as const;

export interface ActivitySinks {
  ord: RowSink;
  evt: RowSink;
  inflow: RowSink;
}

/** Orders of days before the period whose cancellations and sales fall inside it. */
const WARM_UP_DAYS = 5;

const SITE_WEIGHTS = [45, 45, 10];
const PAY_CODES = Object.keys(DEMO_CODES.OM013!);
const PAY_WEIGHTS: Record<string, number> = { '10': 45, '20': 10, '30': 8, '40': 7, '50': 5, '60': 25 };
const LINE_WEIGHTS = [65, 25, 10];
const QTY_WEIGHTS = [80, 15, 3, 1, 1];
const P_CANCEL = 0.08;
const P_PARTIAL = 0.3;
const P_RETURN = 0.04;

/**
 * Demand of a day relative to the average: Mondays high and Saturdays low, paydays (25th)
 * and the first days of a month busy, a slow upward trend, some noise. Normalised so the
 * period's orders match the requested size.
 */
function dayFactors(plan: Plan, next: () => number): number[] {
  const weekday = [0.92, 1.08, 1.02, 1.0, 0.98, 0.95, 0.85]; // Sunday first
  const raw: number[] = [];
  for (let d = -WARM_UP_DAYS; d < plan.days; d++) {
    const day = addDays(plan.start, d);
    const dom = Number(day.slice(8, 10));
    const dow = new Date(`${day}T00:00:00Z`).getUTCDay();
    const event = dom <= 2 || dom === 25 ? 1.2 : 1;
    const trend = 0.9 + (0.2 * Math.max(0, d)) / Math.max(1, plan.days - 1);
    raw.push(weekday[dow]! * event * trend * (0.92 + 0.16 * next()));
  }
  const mean = raw.slice(WARM_UP_DAYS).reduce((a, b) => a + b, 0) / plan.days;
  return raw.map((f) => f / mean);
}

const isLastDayOfMonth = (day: string) => addDays(day, 1).slice(8, 10) === '01';

/**
 * Events waiting for their day: a sort key (second of day × 2^26 + arrival order, exact in a
 * double, so the sort is by time and stable) and the line without number and time.
 */
interface Bucket {
  keys: number[];
  rests: string[];
}
const ORDER_BITS = 2 ** 26;

/**
 * Orders, their status events and goods page views, day by day. Events are held until their
 * own day is written and sorted by time there, so `evt_no` rises with `evt_dtm` as on the
 * platform. Returns the number of orders written.
 */
export async function generateOrders(
  plan: Plan,
  goods: readonly GeneratedGoods[],
  sinks: ActivitySinks,
  onDay: (dayIndex: number) => void,
): Promise<{ orders: number }> {
  const random = createRandom(plan.seed).fork(20);
  const views = createRandom(plan.seed).fork(21);
  const next = random.next;
  const lastDayLimit = lastSecondOfLastDay(plan);

  const sellable = goods.filter((g) => g.sellableFrom !== Infinity);
  const sellDraw = aliasTable(sellable.map((g) => g.popularity));
  const sellNo = sellable.map((g) => g.row.goods_no);
  const sellFrom = sellable.map((g) => g.sellableFrom);
  const sellPrice = sellable.map((g) => g.row.sale_prc);
  const viewable = goods.filter((g) => g.row.disp_yn === 'Y' || g.sellableFrom !== Infinity);
  const viewDraw = aliasTable(viewable.map((g) => g.popularity));
  const siteCdf = cumulative(SITE_WEIGHTS);
  const siteNo = SITES.map((s) => s.site_no);
  // "goods_no<TAB>site_no" of every viewable goods and site, drawn together for page views.
  const viewPairs = viewable.flatMap((g) => siteNo.map((site) => `${g.row.goods_no}\t${site}`));
  const payCdf = cumulative(PAY_CODES.map((c) => PAY_WEIGHTS[c] ?? 5));
  const lineCdf = cumulative(LINE_WEIGHTS);
  const qtyCdf = cumulative(QTY_WEIGHTS);
  const factors = dayFactors(plan, next);

  const buckets = new Map<number, Bucket>();
  const emit = (day: number, sec: number, rest: string) => {
    if (sec >= 86_400) {
      day += Math.floor(sec / 86_400);
      sec %= 86_400;
    }
    if (day < 0 || day >= plan.days || (day === plan.days - 1 && sec > lastDayLimit)) return;
    let bucket = buckets.get(day);
    if (!bucket) buckets.set(day, (bucket = { keys: [], rests: [] }));
    bucket.keys.push(sec * ORDER_BITS + bucket.rests.length);
    bucket.rests.push(rest);
  };

  let evtNo = 1;
  let logNo = 1;
  let orders = 0;
  for (let d = -WARM_UP_DAYS; d < plan.days; d++) {
    const day = addDays(plan.start, d);
    const compact = compactDay(day);
    // Timestamps of this day, each built once: orders, events and page views share them.
    const stamps = new Array<string | undefined>(86_400);
    const at = (sec: number) => (stamps[sec] ??= `${day} ${hms(sec)}`);
    const limit = d === plan.days - 1 ? lastDayLimit : 86_399;
    const count = Math.max(1, Math.round(plan.ordersPerDay * factors[d + WARM_UP_DAYS]!));
    const secs = new Int32Array(count);
    for (let k = 0; k < count; k++) secs[k] = drawSecond(SHOPPING_HOURS, next);
    secs.sort();
    const forceMonthEnd = d >= 0 && d + 1 < plan.days && isLastDayOfMonth(day);

    for (let k = 0; k < count; k++) {
      const sec = secs[k]!;
      if (sec > limit) break;
      const ordNo = compact + String(k + 1).padStart(7, '0');
      const site = siteNo[drawCumulative(siteCdf, next())]!;
      const mbr = memberNumber(1 + Math.floor(next() * plan.members));
      // The first orders of the period use every payment method at least once.
      const pay = d === 0 && k < PAY_CODES.length ? PAY_CODES[k]! : PAY_CODES[drawCumulative(payCdf, next())]!;
      // Warm-up orders are written too: their cancellations and sales inside the period refer to them.
      const w = sinks.ord.write(`${ordNo}\t${site}\t${mbr}\t${at(sec)}\t${pay}\n`);
      if (w) await w;
      orders++;
      const lines = 1 + drawCumulative(lineCdf, next());
      for (let seq = 1; seq <= lines; seq++) {
        let gi = sellDraw.draw(next);
        for (let tries = 0; sellFrom[gi]! > d && tries < 4; tries++) gi = sellDraw.draw(next);
        if (sellFrom[gi]! > d) continue;
        const goodsNo = sellNo[gi]!;
        const price = sellPrice[gi]!;
        const qty = 1 + drawCumulative(qtyCdf, next());
        const amt = price * qty;
        const dc2 = next() < 0.25 ? Math.round((amt * (0.05 + 0.1 * next())) / 10) * 10 : 0;
        const dc3 = next() < 0.1 ? Math.round((amt * (0.03 + 0.04 * next())) / 10) * 10 : 0;
        const base = `${ordNo}\t${seq}\t${site}\t${goodsNo}\t`;
        emit(d, sec, `${base}01\t10\t${qty}\t${amt}\t${dc2}\t${dc3}`);

        // Forced cases make sure small sets still hold: a cancellation on a later day, one
        // across a month end, a return.
        const forcedLaterCancel = d === 0 && k === 1 && seq === 1;
        const forcedMonthEndCancel = forceMonthEnd && k === 0 && seq === 1;
        const forcedReturn = d === 0 && k === 0 && seq === 1;
        let remaining = qty;
        if (forcedLaterCancel || forcedMonthEndCancel || (!forcedReturn && next() < P_CANCEL)) {
          const cq = qty > 1 && next() < P_PARTIAL ? 1 + Math.floor(next() * (qty - 1)) : qty;
          let cDay: number;
          let cSec: number;
          if (forcedMonthEndCancel) {
            cDay = d + 1;
            cSec = drawSecond(SHOPPING_HOURS, next);
          } else if (!forcedLaterCancel && next() < 0.3) {
            cDay = d;
            cSec = sec + 600 + Math.floor(next() * 6 * 3600);
          } else {
            cDay = d + 1 + Math.floor(next() * 5);
            cSec = drawSecond(SHOPPING_HOURS, next);
          }
          const c2 = Math.floor((dc2 * cq) / qty);
          const c3 = Math.floor((dc3 * cq) / qty);
          emit(cDay, cSec, `${base}01\t20\t${cq}\t${price * cq}\t${c2}\t${c3}`);
          remaining -= cq;
        }
        if (remaining > 0) {
          const sDay = d + 1 + Math.floor(next() * 4);
          const s2 = Math.floor((dc2 * remaining) / qty);
          const s3 = Math.floor((dc3 * remaining) / qty);
          emit(sDay, drawSecond(OFFICE_HOURS, next), `${base}02\t10\t${remaining}\t${price * remaining}\t${s2}\t${s3}`);
          if (forcedReturn || next() < P_RETURN) {
            const rq = remaining > 1 && next() < P_PARTIAL ? 1 + Math.floor(next() * (remaining - 1)) : remaining;
            const rDay = sDay + 2 + Math.floor(next() * 9);
            emit(
              rDay,
              drawSecond(OFFICE_HOURS, next),
              `${base}02\t20\t${rq}\t${price * rq}\t${Math.floor((s2 * rq) / remaining)}\t${Math.floor((s3 * rq) / remaining)}`,
            );
          }
        }
      }
    }
    if (d < 0) continue;

    const bucket = buckets.get(d);
    buckets.delete(d);
    if (bucket) {
      const keys = Float64Array.from(bucket.keys).sort();
      for (const key of keys) {
        const w = sinks.evt.write(`${evtNo++}\t${at(Math.floor(key / ORDER_BITS))}\t${bucket.rests[key % ORDER_BITS]}\n`);
        if (w) await w;
      }
    }

    const viewCount = Math.round(plan.ordersPerDay * factors[d + WARM_UP_DAYS]! * EVENTS_PER_ORDER * plan.inflowRatio);
    const viewSecs = new Int32Array(viewCount);
    for (let k = 0; k < viewCount; k++) viewSecs[k] = drawSecond(SHOPPING_HOURS, views.next);
    viewSecs.sort();
    for (let k = 0; k < viewCount; k++) {
      const sec = viewSecs[k]!;
      if (sec > limit) break;
      const pair = viewPairs[viewDraw.draw(views.next) * siteNo.length + drawCumulative(siteCdf, views.next())];
      const w = sinks.inflow.write(`${logNo++}\t${pair}\t${at(sec)}\n`);
      if (w) await w;
    }
    onDay(d);
  }
  return { orders };
}
