import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  generateSourceData,
  insertSourceData,
  type EvtRow,
  type SourceData,
  expectedDaily,
  storedRows,
  type AggRow,
  type DailyKindName,
} from '@bo/testing';
import { aggregateMigrations, boMigrations } from '@bo/aggregates';
import { eachDay, eachMonth } from '@bo/db';
import { rebuildAggregate, refreshRunningSums } from '../src/aggregation/rebuild.ts';
import { reconcileMonths } from '../src/aggregation/reconcile.ts';

const DAYS = ['2026-04-28', '2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02'];
const MONTHS = ['2026-04-01', '2026-05-01'];
const DAILY: DailyKindName[] = ['category', 'payway', 'goods', 'entr'];
const MONTHLY_TABLE: Record<DailyKindName, string> = {
  category: 'agg_ctg_monthly',
  payway: 'agg_payway_monthly',
  goods: 'agg_goods_monthly',
  entr: 'agg_entr_monthly',
};
/** The lists with every-site rows (the goods list has none). */
const ALL_SITES: DailyKindName[] = ['category', 'payway', 'entr'];
const MEASURES = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];

const sortRows = (rows: AggRow[]) => rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/**
 * A month's roll-up recomputed from the events: the expected daily rows of its built days
 * (themselves summed in plain JS from the events), added up per (agrtGb, site, key), with the
 * number of days each key had rows on.
 */
function expectedMonthly(data: SourceData, kind: DailyKindName, month: string, built: readonly string[]): AggRow[] {
  const groups = new Map<string, AggRow>();
  for (const day of built.filter((d) => d.slice(0, 7) === month.slice(0, 7))) {
    for (const row of expectedDaily(data, kind, day)) {
      const { agrt_dt: _day, ...head } = Object.fromEntries(Object.entries(row).filter(([c]) => !MEASURES.includes(c)));
      const key = JSON.stringify(head);
      const sum = groups.get(key) ?? { ...head, agrt_mon: month, ...Object.fromEntries(MEASURES.map((c) => [c, 0])), day_cnt: 0 };
      for (const c of MEASURES) sum[c] = (sum[c] as number) + (row[c] as number);
      sum.day_cnt = (sum.day_cnt as number) + 1;
      groups.set(key, sum);
    }
  }
  return sortRows([...groups.values()]);
}

/** Rows in one order whatever the order of their columns. */
const sortCanonical = (rows: AggRow[]) => {
  const canonical = (r: AggRow) =>
    JSON.stringify(
      Object.keys(r)
        .sort()
        .map((k) => [k, r[k]]),
    );
  return rows.sort((a, b) => canonical(a).localeCompare(canonical(b)));
};

/** Rows `rows` summed per their non-measure columns except `drop`, each sum counting its rows in `day_cnt` when asked. */
function sumWithout(rows: AggRow[], drop: string[], extra: Record<string, string>, counted: boolean): AggRow[] {
  const groups = new Map<string, AggRow>();
  for (const row of rows) {
    const head = Object.fromEntries(Object.entries(row).filter(([c]) => !MEASURES.includes(c) && !drop.includes(c)));
    const key = JSON.stringify(head);
    const zero: AggRow = { ...head, ...extra, ...Object.fromEntries(MEASURES.map((c) => [c, 0])), ...(counted ? { day_cnt: 0 } : {}) };
    const sum = groups.get(key) ?? zero;
    for (const c of MEASURES) sum[c] = (sum[c] as number) + (row[c] as number);
    if (counted) sum.day_cnt = (sum.day_cnt as number) + 1;
    groups.set(key, sum);
  }
  return sortCanonical([...groups.values()]);
}

/** The every-site rows recomputed from the events: each built day's expected rows without the site, and those per month. */
function expectedAllSites(data: SourceData, kind: DailyKindName, month: string, built: readonly string[]) {
  const days = built.filter((d) => d.slice(0, 7) === month.slice(0, 7));
  const daily = days.flatMap((day) => sumWithout(expectedDaily(data, kind, day), ['site_no'], {}, false));
  return { daily: sortCanonical(daily), monthly: sumWithout(daily, ['agrt_dt'], { agrt_mon: month }, true) };
}

/** Stored rows with dates as text and numbers as numbers, in the expectation's column order. */
const normalised = (rows: AggRow[], dateColumn: string, counted: boolean): AggRow[] =>
  sortCanonical(
    rows.map((r) => {
      const head = Object.fromEntries(Object.entries(r).filter(([c]) => !MEASURES.includes(c) && c !== 'day_cnt' && c !== dateColumn));
      const dated = dateColumn === 'agrt_dt' ? { agrt_dt: String(r.agrt_dt), ...head } : { ...head, [dateColumn]: String(r[dateColumn]) };
      return {
        ...dated,
        ...Object.fromEntries(MEASURES.map((c) => [c, Number(r[c])])),
        ...(counted ? { day_cnt: Number(r.day_cnt) } : {}),
      };
    }),
  );

async function storedAllSites(db: TestDatabase, kind: DailyKindName, month: string) {
  const table = MONTHLY_TABLE[kind].replace('_monthly', '');
  const daily = (await db
    .knex(`${table}_daily_all`)
    .where('agrt_dt', '>=', month)
    .andWhere('agrt_dt', '<', db.knex.raw('? + INTERVAL 1 MONTH', [month]))) as AggRow[];
  const monthly = (await db.knex(`${table}_monthly_all`).where({ agrt_mon: month })) as AggRow[];
  return { daily: normalised(daily, 'agrt_dt', false), monthly: normalised(monthly, 'agrt_mon', true) };
}

/** The lists with running sums, their table and key columns (attributes included). */
const RUNNING: Partial<Record<DailyKindName, { table: string; keys: string[] }>> = {
  category: { table: 'agg_ctg_cum_all', keys: ['std_ctg_no', 'md_id'] },
  goods: { table: 'agg_goods_cum_all', keys: ['goods_no', 'entr_no'] },
};

/**
 * A list's monthly sums of every site recomputed from the events, with `day_cnt` counting the
 * daily rows summed: the every-site rows where the list has them (one a day per key), else the
 * per-site ones.
 */
function expectedMonthAllSites(data: SourceData, kind: DailyKindName, month: string, built: readonly string[]): AggRow[] {
  if (ALL_SITES.includes(kind)) return expectedAllSites(data, kind, month, built).monthly;
  const days = built.filter((d) => d.slice(0, 7) === month.slice(0, 7));
  return sumWithout(
    days.flatMap((day) => expectedDaily(data, kind, day)),
    ['site_no', 'agrt_dt'],
    { agrt_mon: month },
    true,
  );
}

/**
 * Each step's rows (with their `day_cnt`) added up per key (agrtGb and `keys`) through that step,
 * every key seen by then listed at every step, under `column` = `stored(step)`.
 */
function addedUp(
  steps: readonly string[],
  rowsOf: (step: string) => AggRow[],
  keys: readonly string[],
  column: string,
  stored: (step: string) => string,
): AggRow[] {
  const running = new Map<string, AggRow>();
  const out: AggRow[] = [];
  for (const step of steps) {
    for (const row of rowsOf(step)) {
      const key = JSON.stringify([row.agrt_gb_cd, ...keys.map((k) => row[k])]);
      const sum = running.get(key) ?? { ...row, ...Object.fromEntries([...MEASURES, 'day_cnt'].map((c) => [c, 0])) };
      for (const c of [...MEASURES, 'day_cnt']) sum[c] = (sum[c] as number) + (row[c] as number);
      running.set(key, sum);
    }
    out.push(...[...running.values()].map((r) => ({ ...r, [column]: stored(step) })));
  }
  return sortCanonical(out);
}

/**
 * A list's running sums recomputed from the events: for every calendar month from the first
 * built one to the last, each key's monthly sums of every site (above) added up through it.
 */
function expectedRunning(data: SourceData, kind: DailyKindName, built: readonly string[]): AggRow[] {
  const months = built.map((d) => d.slice(0, 7)).sort();
  return addedUp(
    eachMonth(months[0]!, months[months.length - 1]!),
    (m) => expectedMonthAllSites(data, kind, `${m}-01`, built),
    RUNNING[kind]!.keys,
    'agrt_mon',
    (m) => `${m}-01`,
  );
}

/**
 * The category list's running sums by day recomputed from the events: for every calendar day from
 * the first built day with rows to the last, each key's every-site daily sums (one row a day per
 * key, counted once) added up through it.
 */
function expectedRunningDays(data: SourceData, built: readonly string[]): AggRow[] {
  const rowsOf = (day: string): AggRow[] =>
    built.includes(day) ? sumWithout(expectedDaily(data, 'category', day), ['site_no'], {}, false).map((r) => ({ ...r, day_cnt: 1 })) : [];
  const withRows = [...built].sort().filter((d) => rowsOf(d).length > 0);
  if (!withRows.length) return [];
  return addedUp(eachDay(withRows[0]!, withRows[withRows.length - 1]!), rowsOf, RUNNING.category!.keys, 'agrt_dt', (d) => d);
}

/** The stored running sums by day of the category list (refreshed by `storedRunning` first). */
const storedRunningDays = async (db: TestDatabase): Promise<AggRow[]> =>
  normalised(await db.knex<AggRow>('agg_ctg_cum_day_all'), 'agrt_dt', true);

/**
 * The stored running sums once refreshed, as the worker does when its queue is idle (the builds
 * only mark them stale); a key taken out again may keep a row of zeros (no day), which lists skip.
 */
async function storedRunning(db: TestDatabase, kind: DailyKindName): Promise<AggRow[]> {
  await refreshRunningSums(db.knex);
  expect(await db.knex('agg_cum_stale'), 'no stale mark left').to.deep.equal([]);
  const rows = normalised(await db.knex<AggRow>(RUNNING[kind]!.table), 'agrt_mon', true);
  const empty = rows.filter((r) => r.day_cnt === 0);
  expect(
    empty.filter((r) => MEASURES.some((c) => r[c] !== 0)),
    'rows without days hold zeros',
  ).to.deep.equal([]);
  return rows.filter((r) => r.day_cnt !== 0);
}

async function storedMonthly(db: TestDatabase, kind: DailyKindName, month: string): Promise<AggRow[]> {
  const rows = (await db.knex(MONTHLY_TABLE[kind]).where({ agrt_mon: month })) as AggRow[];
  // Same column set and order as the expectation, whatever the table's column order.
  return sortRows(
    rows.map((r) => {
      const { agrt_mon, day_cnt, ...rest } = r;
      const head = Object.fromEntries(Object.entries(rest).filter(([c]) => !MEASURES.includes(c)));
      return {
        ...head,
        agrt_mon: String(agrt_mon),
        ...Object.fromEntries(MEASURES.map((c) => [c, Number(r[c])])),
        day_cnt: Number(day_cnt),
      };
    }),
  );
}

/** `yyyy-MM-dd` of the first day of the ten days holding `day`, written out here (1–10, 11–20, 21 to the end). */
const tenDaysOf = (day: string): string => {
  const d = Number(day.slice(8));
  return `${day.slice(0, 8)}${d <= 10 ? '01' : d <= 20 ? '11' : '21'}`;
};

/**
 * A list's ten-day rows recomputed from the events: each built day's expected rows without the
 * site, summed per ten days. The category list sums its every-site rows (a key's day counts once
 * however many sites sold it); the goods list, which has none, its per-site rows (each counts).
 */
function expectedTenDays(data: SourceData, kind: TenDayKind, built: readonly string[]): AggRow[] {
  const spans = [...new Set(built.map(tenDaysOf))];
  const daysRows = (day: string) =>
    kind === 'category' ? sumWithout(expectedDaily(data, kind, day), ['site_no'], {}, false) : expectedDaily(data, kind, day);
  return sortCanonical(
    spans.flatMap((span) =>
      sumWithout(built.filter((d) => tenDaysOf(d) === span).flatMap(daysRows), ['agrt_dt', 'site_no'], { agrt_tdy: span }, true),
    ),
  );
}

type TenDayKind = 'category' | 'goods';
const TEN_DAY_TABLE: Record<TenDayKind, string> = { category: 'agg_ctg_tenday_all', goods: 'agg_goods_tenday_all' };
/** The stored ten-day rows; a key taken out again keeps no row (dropped when its count reaches 0). */
const storedTenDays = async (db: TestDatabase, kind: TenDayKind): Promise<AggRow[]> =>
  normalised(await db.knex<AggRow>(TEN_DAY_TABLE[kind]), 'agrt_tdy', true);
const TEN_DAY_MIGRATION: Record<TenDayKind, string> = { category: '0111-ten-day-category', goods: '0112-ten-day-goods' };

/** Builds `day` of the two lists with running sums. */
async function buildRunningLists(db: TestDatabase, day: string): Promise<void> {
  for (const kind of ['category', 'goods'] as const) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
}

describe('monthly roll-ups of the list aggregates', () => {
  let db: TestDatabase;
  let data: SourceData;

  const build = (kind: DailyKindName, day: string) => rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
  const expectMonthsRight = async (built: readonly string[]) => {
    for (const kind of DAILY) {
      for (const month of MONTHS) {
        const expected = expectedMonthly(data, kind, month, built);
        expect(await storedMonthly(db, kind, month), `${kind} ${month}`).to.deep.equal(expected);
        if (!ALL_SITES.includes(kind)) continue;
        const all = await storedAllSites(db, kind, month);
        const allExpected = expectedAllSites(data, kind, month, built);
        expect(all.daily, `${kind} ${month} every-site days`).to.deep.equal(allExpected.daily);
        expect(all.monthly, `${kind} ${month} every-site month`).to.deep.equal(allExpected.monthly);
      }
    }
    for (const kind of ['category', 'goods'] as const)
      expect(await storedRunning(db, kind), `${kind} running sums`).to.deep.equal(expectedRunning(data, kind, built));
    expect(await storedRunningDays(db), 'category running sums by day').to.deep.equal(expectedRunningDays(data, built));
    for (const kind of ['category', 'goods'] as const)
      expect(await storedTenDays(db, kind), `${kind} ten days`).to.deep.equal(expectedTenDays(data, kind, built));
  };

  before(async () => {
    db = await createTestDatabase('agg_month', boMigrations);
    data = generateSourceData(20260430, DAYS, { goods: 14, orders: 90, inflows: 0 });
    await insertSourceData(db.knex, data);
  });
  after(async () => db?.drop());

  it('when each day across the month end is built, then every month row equals its days recomputed from the events', async () => {
    for (const [i, day] of DAYS.entries()) {
      for (const kind of DAILY) await build(kind, day);
      await expectMonthsRight(DAYS.slice(0, i + 1));
    }
    expect(
      expectedMonthly(data, 'goods', MONTHS[0]!, DAYS).some((r) => (r.day_cnt as number) > 1),
      'keys with several days',
    ).to.equal(true);
  });

  it('when a built day gets late events and is rebuilt, then its month follows and no day is counted twice', async () => {
    const o = data.ords[0]!;
    const g = data.goods[data.goods.length - 1]!;
    const late: EvtRow[] = [
      {
        ord_no: o.ord_no,
        ord_goods_seq: 8,
        site_no: o.site_no,
        goods_no: g.goods_no,
        agrt_gb_cd: '01',
        evt_gb_cd: '10',
        evt_dtm: '2026-04-29 12:00:00',
        qty: 3,
        amt: 91000,
        dc_amt_2nd: 700,
        dc_amt_3rd: 300,
      },
      {
        ord_no: o.ord_no,
        ord_goods_seq: 8,
        site_no: o.site_no,
        goods_no: g.goods_no,
        agrt_gb_cd: '01',
        evt_gb_cd: '20',
        evt_dtm: '2026-04-29 23:59:59',
        qty: 1,
        amt: 30000,
        dc_amt_2nd: 200,
        dc_amt_3rd: 100,
      },
    ];
    await db.knex('ord_stat_evt').insert(late);
    data.events.push(...late);
    for (const kind of DAILY) await build(kind, '2026-04-29');
    await expectMonthsRight(DAYS);
  });

  it('when a rebuilt day no longer has a key, then the key leaves the month unless another day still has it', async () => {
    const day = '2026-05-02';
    const o = data.ords[1]!;
    // One event on a site no other event has: its keys exist on this day only.
    const lone: EvtRow = {
      ord_no: o.ord_no,
      ord_goods_seq: 9,
      site_no: '30',
      goods_no: data.goods[0]!.goods_no,
      agrt_gb_cd: '02',
      evt_gb_cd: '10',
      evt_dtm: `${day} 09:00:00`,
      qty: 1,
      amt: 5000,
      dc_amt_2nd: 0,
      dc_amt_3rd: 0,
    };
    await db.knex('ord_stat_evt').insert(lone);
    data.events.push(lone);
    for (const kind of DAILY) await build(kind, day);
    await expectMonthsRight(DAYS);
    const siteRows = () => db.knex('agg_goods_monthly').where({ agrt_mon: '2026-05-01', site_no: '30' }).count({ n: '*' }).first();
    expect(await siteRows()).to.deep.equal({ n: 1 });

    await db.knex('ord_stat_evt').where({ site_no: '30' }).delete();
    data.events = data.events.filter((e) => e !== lone);
    for (const kind of DAILY) await build(kind, day);
    await expectMonthsRight(DAYS);
    expect(await siteRows()).to.deep.equal({ n: 0 });
  });

  it('when the days of one month are built at once by parallel workers, twice each, then none deadlocks and each day counts once', async () => {
    await Promise.all(DAYS.flatMap((day) => DAILY.flatMap((kind) => [1, 2].map(() => build(kind, day)))));
    await expectMonthsRight(DAYS);
  });

  it('when a roll-up or a daily table was changed by hand, then the nightly check rolls the month up again from the daily rows', async () => {
    expect(await reconcileMonths(db.knex, DAYS), 'nothing to do while they agree').to.deep.equal([]);
    await db
      .knex('agg_goods_monthly')
      .where({ agrt_mon: '2026-04-01' })
      .limit(1)
      .update({ ord_amt: db.knex.raw('ord_amt + 1000') });
    await db.knex('agg_entr_monthly').where({ agrt_mon: '2026-05-01' }).limit(1).delete();
    const fixed = await reconcileMonths(db.knex, DAYS);
    expect(fixed.map((f) => `${f.kind} ${f.month}`).sort()).to.deep.equal(['entr 2026-05-01', 'goods 2026-04-01']);
    await expectMonthsRight(DAYS);

    // A daily row changed by hand: the month is rolled up from it, and rebuilding the day then
    // takes out exactly what the month holds for it.
    await db
      .knex('agg_ctg_daily')
      .where({ agrt_dt: '2026-04-30' })
      .limit(1)
      .update({ cncl_amt: db.knex.raw('cncl_amt + 500') });
    expect((await reconcileMonths(db.knex, ['2026-04-30'])).map((f) => f.kind)).to.deep.equal(['category']);
    await build('category', '2026-04-30');
    await expectMonthsRight(DAYS);

    // The running sums changed by hand (April's, which May's step is measured from): found from
    // either month, and rewritten from the monthly rows.
    await db
      .knex('agg_ctg_cum_all')
      .where({ agrt_mon: '2026-04-01' })
      .limit(1)
      .update({ ord_qty: db.knex.raw('ord_qty + 2') });
    expect((await reconcileMonths(db.knex, ['2026-05-02'])).map((f) => `${f.kind} ${f.month}`)).to.deep.equal(['category 2026-05-01']);
    await expectMonthsRight(DAYS);

    // The running sums by day changed by hand (one day's row of a key), or one taken out: found
    // from the day's month, and rewritten from the daily rows.
    await db
      .knex('agg_ctg_cum_day_all')
      .where({ agrt_dt: '2026-04-29' })
      .limit(1)
      .update({ dc_amt_2nd: db.knex.raw('dc_amt_2nd + 3') });
    expect((await reconcileMonths(db.knex, ['2026-04-29'])).map((f) => `${f.kind} ${f.month}`)).to.deep.equal(['category 2026-04-01']);
    await expectMonthsRight(DAYS);
    await db.knex('agg_ctg_cum_day_all').where({ agrt_dt: '2026-05-01' }).limit(1).delete();
    expect((await reconcileMonths(db.knex, ['2026-05-02'])).map((f) => `${f.kind} ${f.month}`)).to.deep.equal(['category 2026-05-01']);
    await expectMonthsRight(DAYS);
    expect(await reconcileMonths(db.knex, DAYS), 'all agree again').to.deep.equal([]);
  });
});

describe('running sums of the category and goods lists, built out of order and across empty months', () => {
  let db: TestDatabase;
  let data: SourceData;
  const SPREAD = ['2026-01-15', '2026-02-10', '2026-02-11', '2026-05-03', '2026-05-04'];

  before(async () => {
    db = await createTestDatabase('agg_running', boMigrations);
    data = generateSourceData(20260511, SPREAD, { goods: 12, orders: 70, inflows: 0 });
    await insertSourceData(db.knex, data);
  });
  after(async () => db?.drop());

  const build = (day: string) => buildRunningLists(db, day);
  const expectRunningRight = async (built: readonly string[], why: string) => {
    for (const kind of ['category', 'goods'] as const)
      expect(await storedRunning(db, kind), `${kind} ${why}`).to.deep.equal(expectedRunning(data, kind, built));
    expect(await storedRunningDays(db), `category by day ${why}`).to.deep.equal(expectedRunningDays(data, built));
  };
  const months = async () =>
    ((await db.knex('agg_goods_cum_all').distinct(db.knex.raw("DATE_FORMAT(agrt_mon, '%Y-%m') AS m")).orderBy('m')) as { m: string }[]).map(
      (r) => r.m,
    );

  it('when days are built after a gap, before the first month and again, then every month from the first to the last holds the sums through it', async () => {
    const built: string[] = [];
    for (const day of ['2026-02-10', '2026-05-03', '2026-01-15', '2026-02-10', '2026-05-04', '2026-02-11']) {
      await build(day);
      if (!built.includes(day)) built.push(day);
      await expectRunningRight(built, `after ${day}`);
    }
    // March and April have no day of their own, yet a range ending in them reads their sums.
    expect(await months()).to.deep.equal(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05']);
  });

  it('when days of different months are rebuilt at once, twice each, then none deadlocks and the sums count each day once', async () => {
    await Promise.all(SPREAD.flatMap((day) => [build(day), build(day)]));
    await expectRunningRight(SPREAD, 'after parallel builds');
  });
});

describe('running sums whose two agrtGbs end in different months', () => {
  let db: TestDatabase;
  let data: SourceData;
  const [FEB_A, FEB_B, MAR] = ['2026-02-10', '2026-02-11', '2026-03-05'];
  const dayOf = (e: EvtRow) => e.evt_dtm.slice(0, 10);

  before(async () => {
    db = await createTestDatabase('agg_running_gb', boMigrations);
    data = generateSourceData(20260212, [FEB_A, FEB_B, MAR], { goods: 10, orders: 60, inflows: 0 });
    // February's first day has sales ('02') only and March orders ('01') only.
    data.events = data.events.filter((e) => !(dayOf(e) === FEB_A && e.agrt_gb_cd === '01') && !(dayOf(e) === MAR && e.agrt_gb_cd === '02'));
    await insertSourceData(db.knex, data);
  });
  after(async () => db?.drop());

  const build = (day: string) => buildRunningLists(db, day);

  it('when the sales sums stop a month before the order sums, then a later day of the earlier month still reaches the last month', async () => {
    await build(FEB_A);
    // Its sales are withdrawn and the day rebuilt: February keeps sales rows of zeros, which are not carried into March.
    await db.knex('ord_stat_evt').where('evt_dtm', '>=', `${FEB_A} 00:00:00`).andWhere('evt_dtm', '<', `${FEB_B} 00:00:00`).delete();
    data.events = data.events.filter((e) => dayOf(e) !== FEB_A);
    await build(FEB_A);
    await build(MAR);
    for (const kind of ['category', 'goods'] as const)
      expect(await storedRunning(db, kind), kind).to.deep.equal(expectedRunning(data, kind, [FEB_A, MAR]));
    // Its sales must reach March's sums too, the last month of either agrtGb.
    await build(FEB_B);
    for (const kind of ['category', 'goods'] as const)
      expect(await storedRunning(db, kind), kind).to.deep.equal(expectedRunning(data, kind, [FEB_A, MAR, FEB_B]));
  });
});

for (const kind of ['category', 'goods'] as const)
  describe(`ten-day rows of the ${kind} list`, () => {
    let db: TestDatabase;
    let data: SourceData;
    // Both sides of each cut: the 10th and 11th, the 20th and 21st, a month's last day and the next month's first.
    const CUTS = ['2026-02-10', '2026-02-11', '2026-02-20', '2026-02-21', '2026-02-28', '2026-03-01'];
    const build = (day: string) => rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
    const expectTenDaysRight = async (built: readonly string[], why: string) =>
      expect(await storedTenDays(db, kind), why).to.deep.equal(expectedTenDays(data, kind, built));

    before(async () => {
      db = await createTestDatabase(`agg_tenday_${kind}`, boMigrations);
      data = generateSourceData(20260221, CUTS, { goods: 12, orders: 80, inflows: 0 });
      await insertSourceData(db.knex, data);
    });
    after(async () => db?.drop());

    it('when days on both sides of every cut are built, in any order, then each ten days holds the sums of its days recomputed from the events', async () => {
      const built: string[] = [];
      for (const day of ['2026-02-20', '2026-02-10', '2026-03-01', '2026-02-21', '2026-02-11', '2026-02-28']) {
        await build(day);
        built.push(day);
        await expectTenDaysRight(built, `after ${day}`);
      }
      const spans = (await storedTenDays(db, kind)).map((r) => r.agrt_tdy);
      expect([...new Set(spans)].sort()).to.deep.equal(['2026-02-01', '2026-02-11', '2026-02-21', '2026-03-01']);
      expect(
        expectedTenDays(data, kind, CUTS).some((r) => (r.day_cnt as number) > 1),
        'keys with several days in one ten days',
      ).to.equal(true);
      if (kind === 'goods')
        expect(
          CUTS.some(
            (day) =>
              new Set(expectedDaily(data, kind, day).map((r) => `${r.agrt_gb_cd} ${r.goods_no}`)).size <
              expectedDaily(data, kind, day).length,
          ),
          'a goods sold on two sites in one day',
        ).to.equal(true);
    });

    it('when a day gets late events, loses a key, or is built by parallel workers, then its ten days follow and count it once', async () => {
      const o = data.ords[0]!;
      const late: EvtRow = {
        ord_no: o.ord_no,
        ord_goods_seq: 9,
        site_no: '30',
        goods_no: data.goods[0]!.goods_no,
        agrt_gb_cd: '02',
        evt_gb_cd: '10',
        evt_dtm: '2026-02-11 10:00:00',
        qty: 2,
        amt: 42000,
        dc_amt_2nd: 100,
        dc_amt_3rd: 50,
      };
      await db.knex('ord_stat_evt').insert(late);
      data.events.push(late);
      await build('2026-02-11');
      await expectTenDaysRight(CUTS, 'after late events');
      await db.knex('ord_stat_evt').where({ site_no: '30' }).delete();
      data.events = data.events.filter((e) => e !== late);
      await Promise.all(CUTS.flatMap((day) => [build(day), build(day)]));
      await expectTenDaysRight(CUTS, 'after the key left and parallel builds');
    });

    it('when a ten-day row was changed by hand, then the nightly check rolls its month up again, and the migration backfill writes the same rows', async () => {
      expect(await reconcileMonths(db.knex, CUTS), 'nothing to do while they agree').to.deep.equal([]);
      await db
        .knex(TEN_DAY_TABLE[kind])
        .where({ agrt_tdy: '2026-02-11' })
        .limit(1)
        .update({ ord_amt: db.knex.raw('ord_amt + 1000') });
      expect((await reconcileMonths(db.knex, ['2026-02-28'])).map((f) => `${f.kind} ${f.month}`)).to.deep.equal([`${kind} 2026-02-01`]);
      await expectTenDaysRight(CUTS, 'after the nightly check');

      const migration = aggregateMigrations.find((m) => m.name === TEN_DAY_MIGRATION[kind])!;
      await migration.up(db.knex);
      await expectTenDaysRight(CUTS, 'after the backfill');
    });
  });

describe('list roll-ups built as ranges of days, each month in one job (bulk mode)', () => {
  let db: TestDatabase;
  let data: SourceData;
  // Both ten-day cuts of April, its month end, and a month that is built in part.
  const APRIL = { first: '2026-04-10', last: '2026-04-30' };
  const MAY = { first: '2026-05-01', last: '2026-05-02' };
  // The days events are generated on (cancellations and sales follow a day or two later), and every day the ranges build.
  const EVENT_DAYS = ['2026-04-10', '2026-04-11', '2026-04-20', '2026-04-21', '2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02'];
  const RANGE_DAYS = eachDay(APRIL.first, MAY.last);

  const buildRange = (kind: DailyKindName, span: { first: string; last: string }) =>
    rebuildAggregate(db.knex, { kind, day: span.first, toDay: span.last, requestedBy: 'cli' });
  const buildDay = (kind: DailyKindName, day: string) => rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
  const expectListsRight = async (built: readonly string[], why: string) => {
    for (const kind of DAILY) {
      for (const month of MONTHS) {
        expect(await storedMonthly(db, kind, month), `${kind} ${month} ${why}`).to.deep.equal(expectedMonthly(data, kind, month, built));
        if (!ALL_SITES.includes(kind)) continue;
        expect(await storedAllSites(db, kind, month), `${kind} ${month} every site ${why}`).to.deep.equal(
          expectedAllSites(data, kind, month, built),
        );
      }
      for (const day of built)
        expect(await storedRows(db.knex, kind, day), `${kind} ${day} ${why}`).to.deep.equal(expectedDaily(data, kind, day));
    }
    for (const kind of ['category', 'goods'] as const) {
      expect(await storedRunning(db, kind), `${kind} running sums ${why}`).to.deep.equal(expectedRunning(data, kind, built));
      expect(await storedTenDays(db, kind), `${kind} ten days ${why}`).to.deep.equal(expectedTenDays(data, kind, built));
    }
    expect(await storedRunningDays(db), `category running sums by day ${why}`).to.deep.equal(expectedRunningDays(data, built));
  };

  before(async () => {
    db = await createTestDatabase('agg_month_range', boMigrations);
    data = generateSourceData(20260427, EVENT_DAYS, { goods: 14, orders: 100, inflows: 0 });
    await insertSourceData(db.knex, data);
  });
  after(async () => db?.drop());

  it('when each month of the range is built in one job, then every daily, monthly, every-site, ten-day and running row equals its days recomputed from the events', async () => {
    // The 10th first, by day: the range then adds its days to a month (and ten days) that has
    // another, across the cut of the 20th and 21st.
    for (const kind of DAILY) await buildDay(kind, '2026-04-10');
    for (const kind of DAILY) {
      const april = await buildRange(kind, { first: '2026-04-11', last: APRIL.last });
      const may = await buildRange(kind, MAY);
      expect(april).to.include({ kind, day: '2026-04-11', toDay: APRIL.last });
      // The rows a range reports are the days' rows, as day builds report them.
      const perDay = (days: string[]) => days.reduce((n, day) => n + expectedDaily(data, kind, day).length, 0);
      expect(april.rows + may.rows, `${kind} rows`).to.equal(perDay(RANGE_DAYS.slice(1)));
    }
    await expectListsRight(RANGE_DAYS, 'after the ranges');
    const status = (await db.knex('agg_built_day').where({ kind: 'goods' }).orderBy('agrt_dt')) as { agrt_dt: string; row_cnt: number }[];
    expect(status.map((s) => [String(s.agrt_dt), Number(s.row_cnt)])).to.deep.equal(
      RANGE_DAYS.map((day) => [day, expectedDaily(data, 'goods', day).length]),
    );
    const log: { agrt_dt: string; to_dt: string; outcome: string }[] = await db
      .knex('agg_run_log')
      .where({ kind: 'goods' })
      .whereNotNull('to_dt')
      .select('agrt_dt', 'to_dt', 'outcome');
    expect(log.map((r) => [String(r.agrt_dt), String(r.to_dt), r.outcome]).sort()).to.deep.equal([
      ['2026-04-11', APRIL.last, 'done'],
      [MAY.first, MAY.last, 'done'],
    ]);
  });

  it('when a range is rerun after events arrived late on one day and a key lost its only events on another, then each month follows and nothing is counted twice', async () => {
    // Typed by hand: a late cancellation of a sold goods, and a site no other event uses.
    const o = data.ords[2]!;
    const late: EvtRow[] = [
      {
        ord_no: o.ord_no,
        ord_goods_seq: 41,
        site_no: o.site_no,
        goods_no: data.goods[3]!.goods_no,
        agrt_gb_cd: '02',
        evt_gb_cd: '20',
        evt_dtm: '2026-04-29 23:59:59',
        qty: 2,
        amt: 18000,
        dc_amt_2nd: 1000,
        dc_amt_3rd: 0,
      },
      {
        ord_no: o.ord_no,
        ord_goods_seq: 42,
        site_no: '31',
        goods_no: data.goods[5]!.goods_no,
        agrt_gb_cd: '01',
        evt_gb_cd: '10',
        evt_dtm: '2026-04-30 00:00:00',
        qty: 1,
        amt: 7700,
        dc_amt_2nd: 0,
        dc_amt_3rd: 70,
      },
    ];
    await db.knex('ord_stat_evt').insert(late);
    data.events.push(...late);
    for (const kind of DAILY) await buildRange(kind, APRIL);
    await expectListsRight(RANGE_DAYS, 'after the late events');
    const siteRows = () => db.knex('agg_goods_monthly').where({ agrt_mon: '2026-04-01', site_no: '31' }).count({ n: '*' }).first();
    expect(await siteRows()).to.deep.equal({ n: 1 });

    await db.knex('ord_stat_evt').where({ site_no: '31' }).delete();
    data.events = data.events.filter((e) => e.site_no !== '31');
    for (const kind of DAILY) await buildRange(kind, APRIL);
    await expectListsRight(RANGE_DAYS, 'after the key left');
    expect(await siteRows(), 'the key without days left the month').to.deep.equal({ n: 0 });
  });

  it('when the migration that adds the running sums by day runs on days already built, then its backfill equals the recomputation', async () => {
    await db.knex.raw('DROP TABLE agg_ctg_cum_day_all');
    await aggregateMigrations.find((m) => m.name === '0115-running-days-category')!.up(db.knex);
    const backfilled = normalised(await db.knex<AggRow>('agg_ctg_cum_day_all'), 'agrt_dt', true);
    expect(backfilled.length, 'rows backfilled').to.be.greaterThan(0);
    expect(backfilled).to.deep.equal(expectedRunningDays(data, RANGE_DAYS));
  });

  it('when ranges and single days of the same month are built at once by parallel workers, then none deadlocks and each day counts once', async () => {
    await Promise.all(
      DAILY.flatMap((kind) => [
        buildRange(kind, APRIL),
        buildDay(kind, '2026-04-29'),
        buildRange(kind, APRIL),
        buildDay(kind, '2026-04-30'),
        buildRange(kind, MAY),
      ]),
    );
    await expectListsRight(RANGE_DAYS, 'after parallel builds');
    expect(await reconcileMonths(db.knex, RANGE_DAYS), 'the nightly check agrees').to.deep.equal([]);
  });

  for (const [label, job, message] of [
    ['a last day in the next month', { day: '2026-04-30', toDay: '2026-05-01' }, /toDay must be a day of 2026-04/],
    ['a last day before the first', { day: '2026-04-29', toDay: '2026-04-28' }, /toDay must be a day of 2026-04/],
    ['a last day that is no date', { day: '2026-04-28', toDay: '2026-04-31' }, /toDay must be a real yyyy-MM-dd date/],
    ['an hour', { day: '2026-04-28', toDay: '2026-04-29', hour: 3 }, /a range of days is built whole/],
  ] as const)
    it(`when a range is asked with ${label}, then it is refused before anything is written`, async () => {
      const before = await db.knex('agg_run_log').count({ n: '*' }).first();
      let error: Error | undefined;
      await rebuildAggregate(db.knex, { kind: job.hour === undefined ? 'goods' : 'inflow', requestedBy: 'cli', ...job }).catch(
        (e: Error) => (error = e),
      );
      expect(error?.message).to.match(message);
      expect(await db.knex('agg_run_log').count({ n: '*' }).first()).to.deep.equal(before);
    });
});
