import { createKnex, platformNow, platformToday, redact, type Knex } from '@bo/db';
import { buildDisplay } from './display.ts';
import { DOC_PAGE_COLUMNS, generateDocPages } from './doc-pages.ts';
import { generateQuestions, generateRestockRequests, generateReviews, QNA_COLUMNS, RESTOCK_COLUMNS, REVIEW_COLUMNS } from './engagement.ts';
import { buildGoods } from './goods.ts';
import { buildCatalog, insertMasters } from './masters.ts';
import { generateMembers, MBR_COLUMNS, STAFF_LIMIT_COLUMNS } from './members.ts';
import { EVT_COLUMNS, generateOrders, INFLOW_COLUMNS, ORD_COLUMNS } from './orders.ts';
import { EVENTS_PER_ORDER, resolvePlan, type Plan } from './plan.ts';
import { createRandom } from './random.ts';
import { detectLoadMethod, openSink, type LoadMethod, type RowSink } from './row-sink.ts';
import { withoutScatteredIndexes } from './secondary-indexes.ts';

/** Source tables of the bo database (docs/data-model.md §2), parents first. */
export const BO_SOURCE_TABLES = [
  'site',
  'entr',
  'brand',
  'brand_alias',
  'std_ctg',
  'std_ctg_att',
  'goods_noti_item',
  'cm_cd',
  'bo_user',
  'md_std_ctg',
  'goods',
  'disp_ctg_goods',
  'mkdp',
  'mkdp_divobj_goods',
  'ord',
  'ord_stat_evt',
  'goods_inflow_log',
  'goods_review',
  'restock_noti_req',
  'goods_qna',
  'goods_doc_page',
] as const;
export const MEMBER_TABLES = ['mbr', 'staff_dc_lim', 'staff_dc_lim_hist'] as const;

/** The big activity tables whose scattered secondary indexes are rebuilt after a bulk load. */
const BULK_TABLES = ['ord', 'ord_stat_evt', 'goods_inflow_log'];
/** From this many events on, rebuilding the scattered indexes beats maintaining them (measured on the 2-core machine). */
const BULK_EVENTS = 1_000_000;

export type SeedProgress =
  | { phase: 'start'; plan: Plan; method: LoadMethod }
  | { phase: 'step'; message: string }
  | { phase: 'activity'; day: number; days: number; rows: number };

export interface SeedOptions {
  boUrl: string;
  /** Members and staff limits go here; without it the member database is left alone. */
  memberUrl?: string;
  seed?: number;
  days?: number;
  goods?: number;
  eventsPerDay?: number;
  /** Total events over the period (used when eventsPerDay is not given). */
  events?: number;
  /** Last day `yyyy-MM-dd`, generated whole. Default: today in the platform zone, generated up to now. */
  endDate?: string;
  timeZone?: string;
  /** Page views per order event (default 3). */
  inflowRatio?: number;
  /** Do nothing when the bo database already has goods. */
  ifEmpty?: boolean;
  /** Empty every source table (and the member tables) first. */
  truncate?: boolean;
  loadMethod?: LoadMethod | 'auto';
  /** Drop the activity tables' scattered secondary indexes during the load and rebuild them: auto = from 1 M events on. */
  rebuildIndexes?: boolean | 'auto';
  onProgress?: (p: SeedProgress) => void;
}

export interface SeedResult {
  skipped: boolean;
  plan?: Plan;
  method?: LoadMethod;
  counts: Record<string, number>;
  /** Seconds per step (masters, goods, activity, engagement, members, indexes). */
  timings: Record<string, number>;
  seconds: number;
}

const withLocalInfile = (url: string) => {
  const u = new URL(url);
  u.searchParams.set('localInfile', 'true');
  return u.toString();
};

async function hasRows(knex: Knex, table: string): Promise<boolean> {
  const [rows] = (await knex.raw(`SELECT 1 AS x FROM \`${table}\` LIMIT 1`)) as [unknown[]];
  return rows.length > 0;
}

async function truncate(knex: Knex, tables: readonly string[]): Promise<void> {
  for (const t of tables) await knex.raw(`TRUNCATE TABLE \`${t}\``);
}

async function insertChunks(knex: Knex, table: string, rows: readonly object[], size = 500): Promise<void> {
  for (let i = 0; i < rows.length; i += size) await knex(table).insert(rows.slice(i, i + size));
}

async function closeAll(sinks: RowSink[]): Promise<void> {
  const results = await Promise.allSettled(sinks.map((s) => s.close()));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Loads a complete, deterministic data set: masters, goods, display, orders with their
 * status events, page views, reviews, restock requests, questions, document pages, and the
 * member database's members and staff limits. Same options ⇒ same rows.
 */
export async function seedDatabases(options: SeedOptions): Promise<SeedResult> {
  const began = Date.now();
  const progress = options.onProgress ?? (() => undefined);
  const bo = createKnex(withLocalInfile(options.boUrl), { poolMax: 6 });
  const member = options.memberUrl ? createKnex(withLocalInfile(options.memberUrl), { poolMax: 3 }) : undefined;
  const counts: Record<string, number> = {};
  const timings: Record<string, number> = {};
  let stepStart = Date.now();
  const lap = (step: string) => {
    timings[step] = (Date.now() - stepStart) / 1000;
    stepStart = Date.now();
  };
  try {
    if (options.ifEmpty && (await hasRows(bo, 'goods'))) return { skipped: true, counts, timings, seconds: 0 };
    if (options.truncate) {
      progress({ phase: 'step', message: 'emptying the source tables' });
      await truncate(bo, BO_SOURCE_TABLES);
      if (member) await truncate(member, MEMBER_TABLES);
    }
    for (const t of ['goods', 'ord', 'site']) {
      if (await hasRows(bo, t))
        throw new Error(`${redact(options.boUrl)} already has ${t} rows: use --truncate to replace them or --if-empty to skip`);
    }
    if (member && (await hasRows(member, 'mbr'))) throw new Error(`${redact(options.memberUrl!)} already has members: use --truncate`);

    const timeZone = options.timeZone ?? 'Asia/Seoul';
    const plan = resolvePlan({
      seed: options.seed ?? 42,
      days: options.days ?? 90,
      goods: options.goods ?? 2000,
      eventsPerDay: options.eventsPerDay,
      events: options.events,
      end: options.endDate ?? platformToday(timeZone),
      cutoff: options.endDate ? null : platformNow(timeZone),
      inflowRatio: options.inflowRatio,
    });
    const method = options.loadMethod && options.loadMethod !== 'auto' ? options.loadMethod : await detectLoadMethod(bo);
    const memberMethod = member ? (method === 'load-data' ? await detectLoadMethod(member) : 'insert') : method;
    progress({ phase: 'start', plan, method });

    progress({ phase: 'step', message: 'masters: sites, suppliers, brands, categories, codes, users' });
    const catalog = buildCatalog(plan.seed);
    await insertMasters(bo, catalog.masters);
    for (const [t, rows] of Object.entries(catalog.masters) as [string, object[]][]) counts[t] = rows.length;
    lap('masters');

    progress({ phase: 'step', message: `goods (${plan.goods}), display categories and promotions` });
    const goods = buildGoods(catalog, plan.goods, plan, createRandom(plan.seed).fork(10));
    await insertChunks(
      bo,
      'goods',
      goods.map((g) => g.row),
      300,
    );
    counts.goods = goods.length;
    const display = buildDisplay(plan, goods);
    for (const [t, rows] of Object.entries(display) as [string, object[]][]) {
      await insertChunks(bo, t, rows);
      counts[t] = rows.length;
    }
    lap('goods');

    const expectedEvents = plan.ordersPerDay * plan.days * EVENTS_PER_ORDER;
    const rebuild =
      options.rebuildIndexes === 'auto' || options.rebuildIndexes === undefined
        ? Math.round(expectedEvents) >= BULK_EVENTS
        : options.rebuildIndexes;
    const restoreIndexes = rebuild ? await withoutScatteredIndexes(bo, BULK_TABLES) : undefined;
    try {
      const activity = {
        ord: openSink(bo, method, 'ord', ORD_COLUMNS),
        evt: openSink(bo, method, 'ord_stat_evt', EVT_COLUMNS),
        inflow: openSink(bo, method, 'goods_inflow_log', INFLOW_COLUMNS),
      };
      let orders = 0;
      try {
        const sinks = Object.values(activity);
        const result = await generateOrders(plan, goods, activity, (day) =>
          progress({ phase: 'activity', day: day + 1, days: plan.days, rows: sinks.reduce((n, s) => n + s.rows, 0) }),
        );
        orders = result.orders;
      } finally {
        await closeAll(Object.values(activity));
      }
      counts.ord = activity.ord.rows;
      counts.ord_stat_evt = activity.evt.rows;
      counts.goods_inflow_log = activity.inflow.rows;
      lap('activity');

      progress({ phase: 'step', message: 'reviews, restock requests, questions, document pages' });
      const review = openSink(bo, method, 'goods_review', REVIEW_COLUMNS);
      const restock = openSink(bo, method, 'restock_noti_req', RESTOCK_COLUMNS);
      const qna = openSink(bo, method, 'goods_qna', QNA_COLUMNS);
      const docs = openSink(bo, method, 'goods_doc_page', DOC_PAGE_COLUMNS);
      try {
        counts.goods_review = await generateReviews(plan, goods, orders, review);
        counts.restock_noti_req = await generateRestockRequests(plan, goods, restock);
        counts.goods_qna = await generateQuestions(plan, goods, qna);
        counts.goods_doc_page = await generateDocPages(plan, goods, docs);
      } finally {
        await closeAll([review, restock, qna, docs]);
      }
      lap('engagement');

      if (member) {
        progress({ phase: 'step', message: `members (${plan.members}) and staff discount limits` });
        const mbr = openSink(member, memberMethod, 'mbr', MBR_COLUMNS);
        const staffLimit = openSink(member, memberMethod, 'staff_dc_lim', STAFF_LIMIT_COLUMNS);
        try {
          await generateMembers(plan, { mbr, staffLimit });
        } finally {
          await closeAll([mbr, staffLimit]);
        }
        counts.mbr = mbr.rows;
        counts.staff_dc_lim = staffLimit.rows;
        lap('members');
      }
    } finally {
      // The indexes come back even when the load failed or the caller's progress callback throws.
      if (restoreIndexes) {
        try {
          progress({ phase: 'step', message: `rebuilding the by-goods, by-order and by-member indexes of ${BULK_TABLES.join(', ')}` });
        } finally {
          await restoreIndexes();
          lap('indexes');
        }
      }
    }
    return { skipped: false, plan, method, counts, timings, seconds: (Date.now() - began) / 1000 };
  } finally {
    await bo.destroy();
    await member?.destroy();
  }
}
