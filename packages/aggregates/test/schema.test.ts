import { expect } from 'chai';
import { migrateRollback } from '@bo/db';
import { createTestDatabase, type TestDatabase } from '@bo/testing';
import {
  AGGREGATE_TABLES,
  AI_WINDOW_TABLES,
  aggregateMigrations,
  boMigrations,
  BUILD_TABLES,
  GOODS_DIM_SNAPSHOT,
  GOODS_DIMENSIONS,
  INFLOW_AGGREGATES,
  LIST_AGGREGATES,
  MEASURE_COLUMNS,
  PERIOD_ROLLUPS,
  RUNNING_SUMS_STALE,
} from '../src/index.ts';

/** The description in src/tables.ts held against what the migrations really create. */
describe('aggregate tables: the description matches the migrated schema', () => {
  let db: TestDatabase;
  let columns: Map<string, string[]>;
  let primaryKeys: Map<string, string[]>;

  before(async () => {
    db = await createTestDatabase('agg_schema', boMigrations);
    const [cols] = (await db.knex.raw(
      `SELECT TABLE_NAME AS t, COLUMN_NAME AS c, COLUMN_KEY AS k FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'agg\\_%' ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    )) as [{ t: string; c: string }[]];
    columns = new Map();
    for (const { t, c } of cols) columns.set(t, [...(columns.get(t) ?? []), c]);
    const [keys] = (await db.knex.raw(
      `SELECT TABLE_NAME AS t, COLUMN_NAME AS c FROM information_schema.KEY_COLUMN_USAGE
        WHERE TABLE_SCHEMA = DATABASE() AND CONSTRAINT_NAME = 'PRIMARY' AND TABLE_NAME LIKE 'agg\\_%' ORDER BY TABLE_NAME, ORDINAL_POSITION`,
    )) as [{ t: string; c: string }[]];
    primaryKeys = new Map();
    for (const { t, c } of keys) primaryKeys.set(t, [...(primaryKeys.get(t) ?? []), c]);
  });
  after(() => db?.drop());

  const described = () => [
    ...AGGREGATE_TABLES,
    GOODS_DIM_SNAPSHOT,
    RUNNING_SUMS_STALE,
    ...Object.values(BUILD_TABLES),
    ...Object.values(AI_WINDOW_TABLES),
  ];

  it('when the bo database is migrated, then every agg_ table is described and every described table exists', () => {
    expect([...columns.keys()].sort()).to.deep.equal([...new Set(described())].sort());
  });

  it('when a list aggregate is read, then its primary key is (agrtGb, day or month, site, its keys[, attributes by month]) and it carries the six measures', () => {
    for (const list of Object.values(LIST_AGGREGATES)) {
      expect(primaryKeys.get(list.daily), list.daily).to.deep.equal(['agrt_gb_cd', 'agrt_dt', 'site_no', ...list.keys]);
      expect(primaryKeys.get(list.monthly), list.monthly).to.deep.equal([
        'agrt_gb_cd',
        'agrt_mon',
        'site_no',
        ...list.keys,
        ...list.attributes,
      ]);
      for (const table of [list.daily, list.monthly])
        expect(columns.get(table), table).to.include.members([...list.attributes, ...MEASURE_COLUMNS]);
      expect(columns.get(list.monthly), list.monthly).to.include('day_cnt');
    }
  });

  it('when a list is read for every site together, then its rows are keyed on (agrtGb, day or month, keys, attributes) without a site', () => {
    const lists = Object.values(LIST_AGGREGATES).filter((l) => l.allSites);
    expect(lists.map((l) => l.daily)).to.deep.equal(['agg_ctg_daily', 'agg_payway_daily', 'agg_entr_daily']);
    for (const list of lists) {
      const { daily, monthly } = list.allSites!;
      expect(primaryKeys.get(daily), daily).to.deep.equal(['agrt_gb_cd', 'agrt_dt', ...list.keys, ...list.attributes]);
      expect(primaryKeys.get(monthly), monthly).to.deep.equal(['agrt_gb_cd', 'agrt_mon', ...list.keys, ...list.attributes]);
      for (const table of [daily, monthly]) {
        expect(columns.get(table), table).to.not.include('site_no');
        expect(columns.get(table), table).to.include.members(MEASURE_COLUMNS);
      }
      expect(columns.get(monthly), monthly).to.include('day_cnt');
    }
  });

  it("when a list's ten-day rows are read, then they are keyed on (agrtGb, ten days, keys, attributes) without a site and carry the measures and day count", () => {
    const lists = Object.values(LIST_AGGREGATES).filter((l) => l.tenDays);
    expect(lists.map((l) => l.tenDays)).to.deep.equal(['agg_ctg_tenday_all', 'agg_goods_tenday_all']);
    for (const list of lists) {
      const keyed = ['agrt_gb_cd', 'agrt_tdy', ...list.keys, ...list.attributes];
      expect(primaryKeys.get(list.tenDays!), list.tenDays).to.deep.equal(keyed);
      expect(columns.get(list.tenDays!), list.tenDays).to.deep.equal([...keyed, ...MEASURE_COLUMNS, 'day_cnt']);
    }
  });

  it("when a list's running sums are read, then they are keyed on (agrtGb, month, keys, attributes) without a site and carry the measures and day count", () => {
    const lists = Object.values(LIST_AGGREGATES).filter((l) => l.cumulative);
    expect(lists.map((l) => l.cumulative)).to.deep.equal(['agg_ctg_cum_all', 'agg_goods_cum_all']);
    for (const list of lists) {
      const keyed = ['agrt_gb_cd', 'agrt_mon', ...list.keys, ...list.attributes];
      expect(primaryKeys.get(list.cumulative!)).to.deep.equal(keyed);
      expect(columns.get(list.cumulative!)).to.deep.equal([...keyed, ...MEASURE_COLUMNS, 'day_cnt']);
    }
  });

  it("when a list's running sums by day are read, then they are keyed on (agrtGb, day, keys, attributes) without a site and carry the measures and day count", () => {
    const lists = Object.values(LIST_AGGREGATES).filter((l) => l.runningDays);
    expect(lists.map((l) => l.runningDays)).to.deep.equal(['agg_ctg_cum_day_all']);
    for (const list of lists) {
      const keyed = ['agrt_gb_cd', 'agrt_dt', ...list.keys, ...list.attributes];
      expect(primaryKeys.get(list.runningDays!)).to.deep.equal(keyed);
      expect(columns.get(list.runningDays!)).to.deep.equal([...keyed, ...MEASURE_COLUMNS, 'day_cnt']);
    }
  });

  it('when the period and inflow rollups are read, then they carry the measures or the page-view count by goods dimension', () => {
    for (const table of Object.values(PERIOD_ROLLUPS)) expect(columns.get(table), table).to.include.members(MEASURE_COLUMNS);
    for (const table of Object.values(INFLOW_AGGREGATES)) expect(columns.get(table), table).to.include('inf_cnt');
    for (const table of [PERIOD_ROLLUPS.dimDaily, PERIOD_ROLLUPS.dimMonthly, INFLOW_AGGREGATES.dimDaily, INFLOW_AGGREGATES.dimMonthly]) {
      expect(columns.get(table), table).to.include.members(['dim_cd', 'dim_val', 'site_no']);
    }
    // The every-site copies: the per-site table's keys but the site.
    for (const [site, all] of [
      [PERIOD_ROLLUPS.dimDaily, PERIOD_ROLLUPS.dimDailyAll],
      [PERIOD_ROLLUPS.dimMonthly, PERIOD_ROLLUPS.dimMonthlyAll],
      [PERIOD_ROLLUPS.dimHourly, PERIOD_ROLLUPS.dimHourlyAll],
      [INFLOW_AGGREGATES.dimDaily, INFLOW_AGGREGATES.dimDailyAll],
      [INFLOW_AGGREGATES.dimMonthly, INFLOW_AGGREGATES.dimMonthlyAll],
      [INFLOW_AGGREGATES.dimHourly, INFLOW_AGGREGATES.dimHourlyAll],
    ] as const) {
      expect(primaryKeys.get(all), all).to.deep.equal(primaryKeys.get(site)!.filter((c) => c !== 'site_no'));
      expect(columns.get(all), all).to.deep.equal(columns.get(site)!.filter((c) => c !== 'site_no'));
    }
    expect(columns.get(GOODS_DIM_SNAPSHOT)).to.deep.equal(['goods_no', ...GOODS_DIMENSIONS.map((d) => d.column)]);
  });

  it('when the AI list window sums are read, then they are keyed on (window end, days, goods) and their version on (window end, days)', () => {
    expect(primaryKeys.get(AI_WINDOW_TABLES.sums)).to.deep.equal(['to_dt', 'days', 'goods_no']);
    expect(columns.get(AI_WINDOW_TABLES.sums)).to.deep.equal(['to_dt', 'days', 'goods_no', 'inf_cnt', 'net_qty']);
    expect(primaryKeys.get(AI_WINDOW_TABLES.version)).to.deep.equal(['to_dt', 'days']);
    expect(columns.get(AI_WINDOW_TABLES.version)).to.deep.equal(['to_dt', 'days', 'build_ver', 'built_dtm']);
  });

  it('when every aggregate migration is rolled back, then no agg_ table is left', async () => {
    const scratch = await createTestDatabase('agg_schema_down', boMigrations);
    try {
      await migrateRollback(scratch.knex, boMigrations, true);
      const [left] = (await scratch.knex.raw("SHOW TABLES LIKE 'agg\\_%'")) as [unknown[]];
      expect(left).to.have.length(0);
      expect(aggregateMigrations.map((m) => m.name)).to.include('0104-build-tables');
    } finally {
      await scratch.drop();
    }
  });
});
