import { expect } from 'chai';
import {
  createTestDatabase,
  type TestDatabase,
  generateSourceData,
  insertSourceData,
  type EvtRow,
  type SourceData,
  expectedInflow,
  expectedInflowRollups,
  expectedPeriod,
  monthsOf,
  storedInflowRollups,
  storedMonths,
  storedPeriod,
  storedRows,
  type FiledAs,
} from '@bo/testing';
import { aggregateMigrations, boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '../src/aggregation/rebuild.ts';
import { reconcileDays } from '../src/aggregation/reconcile.ts';
import { replacePeriodDays } from '../src/aggregation/data-access/period-rollups.ts';

const DAYS = ['2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02'];

describe('period rollups: kind period and the inflow rollups', () => {
  let db: TestDatabase;
  let data: SourceData;
  /** The attributes the snapshot files each goods under (the goods as first seen). */
  let filedAs: FiledAs;

  const build = (kind: 'period' | 'inflow', day: string, hour?: number) =>
    rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli', ...(hour !== undefined ? { hour } : {}) });
  const expectedMonths = () => monthsOf(DAYS.flatMap((day) => expectedPeriod(data, day, filedAs).dims));
  const expectedAllSiteMonths = () => monthsOf(DAYS.flatMap((day) => expectedPeriod(data, day, filedAs).dimsAllSites));

  before(async () => {
    db = await createTestDatabase('agg_period', boMigrations);
    data = generateSourceData(20260430, DAYS);
    await insertSourceData(db.knex, data);
    filedAs = new Map(data.goods.map((g) => [g.goods_no, { ...g }]));
  });
  after(async () => db?.drop());

  it('when period is built for each day across the month end, then the hourly and dimension rows equal the sums of the events, and each month sums its days', async () => {
    for (const day of DAYS) {
      const res = await build('period', day);
      const expected = expectedPeriod(data, day, filedAs);
      expect(expected.hourly.length, `events on ${day}`).to.be.greaterThan(0);
      expect(await storedPeriod(db.knex, day), day).to.deep.equal(expected);
      expect(res.rows).to.equal(expected.hourly.length + expected.dims.length + expected.dimHourly.length);
    }
    const dims = new Set(DAYS.flatMap((day) => expectedPeriod(data, day).dims.map((r) => r.dim_cd)));
    expect([...dims].sort(), 'every dimension has rows').to.deep.equal(['all', 'brand', 'ctg', 'entr', 'md']);
    expect(await storedMonths(db.knex, 'events')).to.deep.equal(expectedMonths());
    expect(await storedMonths(db.knex, 'events-all-sites')).to.deep.equal(expectedAllSiteMonths());
    const sites = new Set(DAYS.flatMap((day) => expectedPeriod(data, day).dims.map((r) => r.site_no)));
    expect(sites.size, 'the every-site rows sum more than one site').to.be.greaterThan(1);
    const status = await db.knex('agg_built_day').where({ kind: 'period' }).pluck('agrt_dt');
    expect(status.sort()).to.deep.equal(DAYS);
  });

  it('when a built day is rebuilt after its events changed, then its month takes the old rows out and the new in, and a key left without days leaves the month', async () => {
    const day = DAYS[1]!;
    const goods = { goods_no: 'GNEW', entr_no: 'E999', std_ctg_no: 'C999', md_id: 'md.new', brand_no: 'B9' };
    await db.knex('goods').insert({ ...goods, goods_nm: 'new goods', sale_stat_cd: '10', goods_reg_dtm: '2026-04-01 00:00:00' });
    data.goods.push(goods);
    filedAs.set(goods.goods_no, goods);
    const event: EvtRow = {
      ord_no: data.ords[0]!.ord_no,
      ord_goods_seq: 99,
      site_no: '10',
      goods_no: 'GNEW',
      agrt_gb_cd: '01',
      evt_gb_cd: '10',
      evt_dtm: `${day} 12:00:00`,
      qty: 3,
      amt: 9000,
      dc_amt_2nd: 300,
      dc_amt_3rd: 0,
    };
    await db.knex('ord_stat_evt').insert(event);
    data.events.push(event);
    await build('period', day);
    expect(await storedPeriod(db.knex, day)).to.deep.equal(expectedPeriod(data, day, filedAs));
    const months = await storedMonths(db.knex, 'events');
    expect(months).to.deep.equal(expectedMonths());
    expect(months.filter((r) => r.dim_val === 'C999').map((r) => r.day_cnt)).to.deep.equal([1]);

    await db.knex('ord_stat_evt').where({ goods_no: 'GNEW' }).delete();
    data.events.splice(data.events.indexOf(event), 1);
    await build('period', day);
    expect(await storedPeriod(db.knex, day)).to.deep.equal(expectedPeriod(data, day, filedAs));
    const after = await storedMonths(db.knex, 'events');
    expect(after).to.deep.equal(expectedMonths());
    expect(await storedMonths(db.knex, 'events-all-sites')).to.deep.equal(expectedAllSiteMonths());
    expect(
      after.filter((r) => ['C999', 'E999', 'B9', 'md.new'].includes(String(r.dim_val))),
      'no row of a key without days',
    ).to.deep.equal([]);
  });

  it('when a day has sales and a cancellation of a goods the master no longer holds, then they count under every goods only, as the hours do', async () => {
    const day = DAYS[2]!;
    // Taken off the catalogue after it sold: no goods row, so no snapshot row and no dimension.
    const sale = (seq: number, evtGb: '10' | '20', time: string, qty: number, amt: number): EvtRow => ({
      ord_no: data.ords[1]!.ord_no,
      ord_goods_seq: seq,
      site_no: '20',
      goods_no: 'GGONE',
      agrt_gb_cd: '02',
      evt_gb_cd: evtGb,
      evt_dtm: `${day} ${time}`,
      qty,
      amt,
      dc_amt_2nd: 0,
      dc_amt_3rd: 150,
    });
    const events = [sale(97, '10', '00:00:00', 2, 12000), sale(98, '20', '23:59:59', 1, 6000)];
    await db.knex('ord_stat_evt').insert(events);
    data.events.push(...events);
    await build('period', day);
    expect(await storedPeriod(db.knex, day)).to.deep.equal(expectedPeriod(data, day, filedAs));
    expect(await storedMonths(db.knex, 'events')).to.deep.equal(expectedMonths());
    expect(await storedMonths(db.knex, 'events-all-sites')).to.deep.equal(expectedAllSiteMonths());
  });

  it('when goods change attributes after they were first filed, then later builds file them as before, and a goods first seen later as it is then', async () => {
    const moved = data.goods.find((g) => g.md_id && g.brand_no)!;
    await db
      .knex('goods')
      .where({ goods_no: moved.goods_no })
      .update({ std_ctg_no: 'C777', entr_no: 'E777', brand_no: null, md_id: 'md.other' });
    Object.assign(moved, { std_ctg_no: 'C777', entr_no: 'E777', brand_no: null, md_id: 'md.other' });
    const late = { goods_no: 'GLATE', entr_no: 'E003', std_ctg_no: 'C200', md_id: null, brand_no: 'B1' };
    await db.knex('goods').insert({ ...late, goods_nm: 'late goods', sale_stat_cd: '10', goods_reg_dtm: '2026-05-01 00:00:00' });
    data.goods.push(late);
    filedAs.set(late.goods_no, late);
    const day = DAYS[2]!;
    const events: EvtRow[] = [moved.goods_no, late.goods_no].map((goodsNo, i) => ({
      ord_no: data.ords[1]!.ord_no,
      ord_goods_seq: 80 + i,
      site_no: '20',
      goods_no: goodsNo,
      agrt_gb_cd: '02',
      evt_gb_cd: '10',
      evt_dtm: `${day} 08:15:00`,
      qty: 1,
      amt: 4000,
      dc_amt_2nd: 0,
      dc_amt_3rd: 100,
    }));
    await db.knex('ord_stat_evt').insert(events);
    data.events.push(...events);
    await build('period', day);

    const stored = await storedPeriod(db.knex, day);
    expect(stored).to.deep.equal(expectedPeriod(data, day, filedAs));
    expect(
      stored.dims.some((r) => r.dim_val === 'C777'),
      'not under the new category',
    ).to.equal(false);
    expect(
      stored.dims.some((r) => r.dim_cd === 'brand' && r.dim_val === 'B1' && r.agrt_gb_cd === '02'),
      'the late goods under its brand',
    ).to.equal(true);
    expect(await db.knex('agg_goods_dim').where({ goods_no: moved.goods_no }).first('std_ctg_no', 'entr_no')).to.deep.equal({
      std_ctg_no: filedAs.get(moved.goods_no)!.std_ctg_no,
      entr_no: filedAs.get(moved.goods_no)!.entr_no,
    });
    expect(await storedMonths(db.knex, 'events')).to.deep.equal(expectedMonths());
  });

  it('when inflow is built per day and then one hour again, then the site and dimension rollups equal the page views, and each month sums its days', async () => {
    for (const day of DAYS) {
      await build('inflow', day);
      expect(await storedInflowRollups(db.knex, day), day).to.deep.equal(expectedInflowRollups(data, day, filedAs));
    }
    const view = { goods_no: 'GLATE', site_no: '10', inflow_dtm: `${DAYS[1]} 00:30:00` };
    await db.knex('goods_inflow_log').insert(view);
    data.inflows.push(view);
    await build('inflow', DAYS[1]!, 0);
    expect(await storedInflowRollups(db.knex, DAYS[1]!)).to.deep.equal(expectedInflowRollups(data, DAYS[1]!, filedAs));
    expect(await storedMonths(db.knex, 'inflow')).to.deep.equal(
      monthsOf(DAYS.flatMap((day) => expectedInflowRollups(data, day, filedAs).dims)),
    );
    expect(await storedMonths(db.knex, 'inflow-all-sites')).to.deep.equal(
      monthsOf(DAYS.flatMap((day) => expectedInflowRollups(data, day, filedAs).dimsAllSites)),
    );
  });

  it('when every period and inflow day is built at once, twice each, then none deadlocks and every rollup is right', async () => {
    await Promise.all(DAYS.flatMap((day) => (['period', 'inflow'] as const).flatMap((kind) => [1, 2].map(() => build(kind, day)))));
    for (const day of DAYS) {
      expect(await storedPeriod(db.knex, day), day).to.deep.equal(expectedPeriod(data, day, filedAs));
      expect(await storedInflowRollups(db.knex, day), day).to.deep.equal(expectedInflowRollups(data, day, filedAs));
    }
    expect(await storedMonths(db.knex, 'events')).to.deep.equal(expectedMonths());
    expect(await storedMonths(db.knex, 'inflow')).to.deep.equal(
      monthsOf(DAYS.flatMap((day) => expectedInflowRollups(data, day, filedAs).dims)),
    );
  });

  it('when a period day no longer equals its events, then the reconciliation finds that day, and its rebuild agrees again', async () => {
    expect(await reconcileDays(db.knex, DAYS)).to.deep.equal([]);
    const day = DAYS[3]!;
    await db
      .knex('agg_dim_daily')
      .where({ agrt_dt: day, dim_cd: 'ctg' })
      .limit(1)
      .update({ ord_qty: db.knex.raw('ord_qty + 1') });
    expect((await reconcileDays(db.knex, DAYS)).map((m) => [m.kind, m.day])).to.deep.equal([['period', day]]);
    await build('period', day);
    await db.knex('agg_site_hourly').where({ agrt_dt: DAYS[0] }).limit(1).delete();
    expect((await reconcileDays(db.knex, DAYS)).map((m) => [m.kind, m.day])).to.deep.equal([['period', DAYS[0]]]);
    await build('period', DAYS[0]!);
    expect(await reconcileDays(db.knex, DAYS)).to.deep.equal([]);
    // An hourly category row lost: the daily rows still agree, the hourly ones no longer do.
    await db.knex('agg_dim_hourly').where({ agrt_dt: DAYS[1], dim_cd: 'ctg' }).limit(1).delete();
    expect((await reconcileDays(db.knex, DAYS)).map((m) => [m.kind, m.day])).to.deep.equal([['period', DAYS[1]]]);
    await build('period', DAYS[1]!);
    expect(await reconcileDays(db.knex, DAYS)).to.deep.equal([]);
    // The every-site rows, daily and hourly: the per-site ones still agree.
    for (const [table, day] of [
      ['agg_dim_daily_all', DAYS[2]!],
      ['agg_dim_hourly_all', DAYS[3]!],
    ] as const) {
      await db
        .knex(table)
        .where({ agrt_dt: day, dim_cd: 'md' })
        .limit(1)
        .update({ cncl_amt: db.knex.raw('cncl_amt + 10') });
      expect(
        (await reconcileDays(db.knex, DAYS)).map((m) => [m.kind, m.day]),
        table,
      ).to.deep.equal([['period', day]]);
      await build('period', day);
      expect(await reconcileDays(db.knex, DAYS)).to.deep.equal([]);
    }
  });

  it('when a goods was filed before it had a snapshot row, then the reconciliation finds the day once the row exists', async () => {
    const day = DAYS[0]!;
    const goodsNo = data.events.find((e) => e.evt_dtm.startsWith(day))!.goods_no;
    const snapshot = (await db.knex('agg_goods_dim').where({ goods_no: goodsNo }).first()) as Record<string, unknown>;
    // As if the goods appeared between a build's snapshot insert and its filing.
    await db.knex('agg_goods_dim').where({ goods_no: goodsNo }).delete();
    await db.knex.transaction((trx) => replacePeriodDays(trx, { first: day, last: day }));
    await db.knex('agg_goods_dim').insert(snapshot);
    expect((await reconcileDays(db.knex, [day])).map((m) => [m.kind, m.day])).to.deep.equal([['period', day]]);
    await build('period', day);
    expect(await storedPeriod(db.knex, day)).to.deep.equal(expectedPeriod(data, day, filedAs));
    expect(await reconcileDays(db.knex, [day])).to.deep.equal([]);
  });

  it('when the hourly dimension rollups are added to a database with built days, then the migration fills them as the builds would', async () => {
    const migration = aggregateMigrations.find((m) => m.name === '0107-hourly-dim-rollups')!;
    await migration.down(db.knex);
    await migration.up(db.knex);
    for (const day of DAYS) {
      expect((await storedPeriod(db.knex, day)).dimHourly, `events ${day}`).to.deep.equal(expectedPeriod(data, day, filedAs).dimHourly);
      expect((await storedInflowRollups(db.knex, day)).dimHourly, `views ${day}`).to.deep.equal(
        expectedInflowRollups(data, day, filedAs).dimHourly,
      );
    }
    expect(
      DAYS.some((day) => expectedInflowRollups(data, day, filedAs).dimHourly.length > 0),
      'page views to fill',
    ).to.equal(true);
    expect(await reconcileDays(db.knex, DAYS)).to.deep.equal([]);
  });

  it('when the every-site dimension rollups are added to a database with built days, then the migration fills them as the builds would', async () => {
    const migration = aggregateMigrations.find((m) => m.name === '0110-dim-rollups-all-sites')!;
    await migration.down(db.knex);
    await migration.up(db.knex);
    for (const day of DAYS) {
      const [stored, expected] = [await storedPeriod(db.knex, day), expectedPeriod(data, day, filedAs)];
      expect(expected.dimsAllSites.length, `events ${day}`).to.be.greaterThan(0);
      expect(stored.dimsAllSites, `daily ${day}`).to.deep.equal(expected.dimsAllSites);
      expect(stored.dimHourlyAllSites, `hourly ${day}`).to.deep.equal(expected.dimHourlyAllSites);
      const [views, expectedViews] = [await storedInflowRollups(db.knex, day), expectedInflowRollups(data, day, filedAs)];
      expect(views.dimsAllSites, `views ${day}`).to.deep.equal(expectedViews.dimsAllSites);
      expect(views.dimHourlyAllSites, `hourly views ${day}`).to.deep.equal(expectedViews.dimHourlyAllSites);
    }
    expect(await storedMonths(db.knex, 'events-all-sites')).to.deep.equal(expectedAllSiteMonths());
    expect(await storedMonths(db.knex, 'inflow-all-sites')).to.deep.equal(
      monthsOf(DAYS.flatMap((day) => expectedInflowRollups(data, day, filedAs).dimsAllSites)),
    );
    expect(await reconcileDays(db.knex, DAYS)).to.deep.equal([]);
  });
});

/**
 * Codes that only the tables' collation (utf8mb4_unicode_ci) calls equal: a brand entered as
 * 'bz1' on one goods and 'BZ1' on another is one brand in every key. The builds group such codes
 * by their bytes and let the key add the second spelling into the first, so the dimension rows
 * must come out as grouping in the collation gives them: one row per brand, its sums both goods'.
 */
describe('period and inflow rollups built as ranges of days, each month in one job (bulk mode)', () => {
  let db: TestDatabase;
  let data: SourceData;
  let filedAs: FiledAs;
  const RANGE_DAYS = ['2026-04-28', '2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02'];
  const PIECES = [
    { first: '2026-04-28', last: '2026-04-30' },
    { first: '2026-05-01', last: '2026-05-02' },
  ];
  const buildRange = (kind: 'period' | 'inflow', span: { first: string; last: string }) =>
    rebuildAggregate(db.knex, { kind, day: span.first, toDay: span.last, requestedBy: 'cli' });

  const expectAllRight = async (why: string) => {
    for (const day of RANGE_DAYS) {
      expect(await storedPeriod(db.knex, day), `period ${day} ${why}`).to.deep.equal(expectedPeriod(data, day, filedAs));
      expect(await storedRows(db.knex, 'inflow', day), `page views ${day} ${why}`).to.deep.equal(expectedInflow(data, day));
      expect(await storedInflowRollups(db.knex, day), `inflow ${day} ${why}`).to.deep.equal(expectedInflowRollups(data, day, filedAs));
    }
    const period = RANGE_DAYS.map((day) => expectedPeriod(data, day, filedAs));
    const inflow = RANGE_DAYS.map((day) => expectedInflowRollups(data, day, filedAs));
    expect(await storedMonths(db.knex, 'events'), `months ${why}`).to.deep.equal(monthsOf(period.flatMap((p) => p.dims)));
    expect(await storedMonths(db.knex, 'events-all-sites')).to.deep.equal(monthsOf(period.flatMap((p) => p.dimsAllSites)));
    expect(await storedMonths(db.knex, 'inflow'), `view months ${why}`).to.deep.equal(monthsOf(inflow.flatMap((p) => p.dims)));
    expect(await storedMonths(db.knex, 'inflow-all-sites')).to.deep.equal(monthsOf(inflow.flatMap((p) => p.dimsAllSites)));
  };

  before(async () => {
    db = await createTestDatabase('agg_period_range', boMigrations);
    data = generateSourceData(20260428, RANGE_DAYS);
    await insertSourceData(db.knex, data);
    filedAs = new Map(data.goods.map((g) => [g.goods_no, { ...g }]));
  });
  after(async () => db?.drop());

  it('when each month of the range is built in one job, then every hourly, daily and monthly row equals the sums of its events and page views', async () => {
    // One day of April by itself first: the range adds its days to a month that has another.
    await rebuildAggregate(db.knex, { kind: 'period', day: '2026-04-28', requestedBy: 'cli' });
    for (const piece of PIECES) {
      const period = await buildRange('period', piece);
      const expectedRows = RANGE_DAYS.filter((d) => d >= piece.first && d <= piece.last)
        .map((day) => expectedPeriod(data, day, filedAs))
        .reduce((n, e) => n + e.hourly.length + e.dims.length + e.dimHourly.length, 0);
      expect(period.rows, `period rows ${piece.first}`).to.equal(expectedRows);
      await buildRange('inflow', piece);
    }
    await expectAllRight('after the ranges');
    const hours = await db.knex('agg_built_day').where({ kind: 'inflow' }).count({ n: '*' }).first();
    expect(hours, 'every hour of every day recorded').to.deep.equal({ n: RANGE_DAYS.length * 24 });
    expect(await reconcileDays(db.knex, RANGE_DAYS), 'the nightly check agrees').to.deep.equal([]);
  });

  it('when a range is rerun after a late sale, a late page view and a goods that lost its only events, then the days and months follow', async () => {
    // Typed by hand: a goods sold once on the 29th at a minute to midnight, seen at 00:00 on the 30th.
    const goods = { goods_no: 'G-LONE', entr_no: 'E-LONE', std_ctg_no: 'C-LONE', md_id: 'md.lone', brand_no: 'B-LONE' };
    await db.knex('goods').insert({ ...goods, goods_nm: 'lone goods', sale_stat_cd: '10', goods_reg_dtm: '2026-04-01 00:00:00' });
    data.goods.push(goods);
    filedAs.set(goods.goods_no, goods);
    const sale: EvtRow = {
      ord_no: data.ords[0]!.ord_no,
      ord_goods_seq: 77,
      site_no: '20',
      goods_no: 'G-LONE',
      agrt_gb_cd: '02',
      evt_gb_cd: '10',
      evt_dtm: '2026-04-29 23:59:00',
      qty: 4,
      amt: 48000,
      dc_amt_2nd: 0,
      dc_amt_3rd: 480,
    };
    const view = { goods_no: 'G-LONE', site_no: '20', inflow_dtm: '2026-04-30 00:00:00' };
    await db.knex('ord_stat_evt').insert(sale);
    await db.knex('goods_inflow_log').insert(view);
    data.events.push(sale);
    data.inflows.push(view);
    await buildRange('period', PIECES[0]!);
    await buildRange('inflow', PIECES[0]!);
    await expectAllRight('after the late rows');
    const lone = async () => (await db.knex('agg_dim_monthly').where({ dim_val: 'C-LONE' }).count({ n: '*' }).first()) as { n: number };
    expect(await lone()).to.deep.equal({ n: 1 });

    await db.knex('ord_stat_evt').where({ goods_no: 'G-LONE' }).delete();
    await db.knex('goods_inflow_log').where({ goods_no: 'G-LONE' }).delete();
    data.events = data.events.filter((e) => e.goods_no !== 'G-LONE');
    data.inflows = data.inflows.filter((l) => l.goods_no !== 'G-LONE');
    await buildRange('period', PIECES[0]!);
    await buildRange('inflow', PIECES[0]!);
    await expectAllRight('after the goods lost its rows');
    expect(await lone(), 'no month row of a key without days').to.deep.equal({ n: 0 });
  });

  it('when ranges, single days and single hours of the same month are built at once, then none deadlocks and every rollup is right', async () => {
    await Promise.all([
      buildRange('period', PIECES[0]!),
      buildRange('inflow', PIECES[0]!),
      rebuildAggregate(db.knex, { kind: 'inflow', day: '2026-04-29', hour: 23, requestedBy: 'cli' }),
      rebuildAggregate(db.knex, { kind: 'period', day: '2026-04-30', requestedBy: 'cli' }),
      rebuildAggregate(db.knex, { kind: 'inflow', day: '2026-04-30', requestedBy: 'cli' }),
      buildRange('inflow', PIECES[0]!),
      buildRange('period', PIECES[1]!),
      buildRange('inflow', PIECES[1]!),
    ]);
    await expectAllRight('after parallel builds');
  });
});

describe('period rollups: codes equal only in the collation', () => {
  let db: TestDatabase;
  const day = '2026-06-10';
  const goods = [
    { goods_no: 'GCASE1', entr_no: 'E100', std_ctg_no: 'C100', md_id: 'md.case', brand_no: 'bz1' },
    { goods_no: 'GCASE2', entr_no: 'E100', std_ctg_no: 'C100', md_id: 'MD.CASE', brand_no: 'BZ1' },
  ];

  before(async () => {
    db = await createTestDatabase('agg_collation', boMigrations);
    await insertSourceData(db.knex, generateSourceData(20260610, [day]));
    await db
      .knex('goods')
      .insert(goods.map((g) => ({ ...g, goods_nm: g.goods_no, sale_stat_cd: '10', goods_reg_dtm: '2026-06-01 00:00:00' })));
    const { ord_no: ordNo } = (await db.knex<{ ord_no: string }>('ord').first('ord_no'))!;
    const event = (seq: number, goodsNo: string, qty: number, amt: number, evtGb = '10') => ({
      ord_no: ordNo,
      ord_goods_seq: 900 + seq,
      site_no: '10',
      goods_no: goodsNo,
      agrt_gb_cd: '01',
      evt_gb_cd: evtGb,
      evt_dtm: `${day} 14:05:00`,
      qty,
      amt,
      dc_amt_2nd: 100,
      dc_amt_3rd: 0,
    });
    await db.knex('ord_stat_evt').insert([event(1, 'GCASE1', 2, 5000), event(2, 'GCASE2', 1, 3000), event(3, 'GCASE2', 1, 3000, '20')]);
    await db
      .knex('goods_inflow_log')
      .insert([
        ...[1, 2, 3].map(() => ({ goods_no: 'GCASE1', site_no: '10', inflow_dtm: `${day} 14:30:00` })),
        ...[1, 2].map(() => ({ goods_no: 'GCASE2', site_no: '10', inflow_dtm: `${day} 14:40:00` })),
      ]);
    for (const kind of ['period', 'inflow'] as const) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
  });
  after(async () => db?.drop());

  /**
   * Each table's rows of each (dimension, spelling) looked up, for `check`; the lookup matches
   * both spellings in the collation. The hourly tables file the MD but not the brand (HOURLY_GOODS_DIMENSIONS).
   */
  async function eachLookup(
    tables: string[],
    dims: [string, string][],
    check: (rows: Record<string, unknown>[], what: string, table: string) => void,
  ) {
    for (const table of tables) {
      for (const [dimCd, dimVal] of table.endsWith('_hourly') ? dims.filter(([d]) => d === 'md') : dims) {
        const rows = await db.knex<Record<string, unknown>>(table).where({ agrt_dt: day, dim_cd: dimCd, dim_val: dimVal }).select('*');
        check(rows, `${table} ${dimCd}`, table);
      }
    }
  }

  it('when two goods carry one brand and one MD in two spellings, then the daily and hourly event rows are one row each with both goods summed', async () => {
    await eachLookup(
      ['agg_dim_daily', 'agg_dim_hourly'],
      [
        ['brand', 'BZ1'],
        ['md', 'md.case'],
      ],
      (rows, what, table) => {
        expect(rows.length, what).to.equal(1);
        // 2 × 5,000 + 1 × 3,000 ordered, 1 × 3,000 cancelled; the discount 100 twice minus once.
        expect(rows[0], what).to.include({
          agrt_gb_cd: '01',
          site_no: '10',
          ord_qty: 3,
          ord_amt: 8000,
          cncl_qty: 1,
          cncl_amt: 3000,
          dc_amt_2nd: 100,
        });
        if (table === 'agg_dim_hourly') expect(rows[0]!.agrt_hour).to.equal(14);
      },
    );
  });

  it('when their page views are built, then the daily and hourly view rows are one row each with both goods counted', async () => {
    await eachLookup(
      ['agg_inflow_dim_daily', 'agg_inflow_dim_hourly'],
      [
        ['brand', 'bz1'],
        ['md', 'MD.CASE'],
      ],
      (rows, what) =>
        expect(
          rows.map((r) => [r.site_no, r.inf_cnt]),
          what,
        ).to.deep.equal([['10', 5]]),
    );
  });

  it('when the nightly check compares the built day with its sources, then it finds nothing to rebuild', async () => {
    expect(await reconcileDays(db.knex, [day])).to.deep.equal([]);
  });
});
