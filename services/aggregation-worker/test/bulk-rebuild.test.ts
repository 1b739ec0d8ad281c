import { expect } from 'chai';
import { AGGREGATE_KINDS, type AggregateKind } from '@bo/contracts';
import {
  createTestDatabase,
  expectedDaily,
  generateSourceData,
  insertSourceData,
  storedRows,
  tableChecksums,
  type DailyKindName,
  type SourceData,
  type TestDatabase,
} from '@bo/testing';
import { AI_WINDOW_TABLES, boMigrations, BUILD_TABLES } from '@bo/aggregates';
import type { Knex } from '@bo/db';
import { rebuildAggregate, rebuildAggregateRange } from '../src/aggregation/rebuild.ts';
import { inBulk } from '../src/aggregation/rerun-plan.ts';

const DAYS = ['2026-04-28', '2026-04-29', '2026-04-30', '2026-05-01', '2026-05-02'];
const DAILY: DailyKindName[] = ['category', 'payway', 'goods', 'entr'];
/** The worker's book-keeping: build instants and run numbers differ between two builds of the same rows. */
const BOOKKEEPING = new Set<string>([...Object.values(BUILD_TABLES), ...Object.values(AI_WINDOW_TABLES)]);

/** Checksums of every aggregate table (daily, monthly, every-site, dimension, hourly, goods snapshot). */
async function aggregateChecksums(knex: Knex): Promise<Record<string, string>> {
  const all = await tableChecksums(knex);
  return Object.fromEntries(Object.entries(all).filter(([t]) => t.startsWith('agg_') && !BOOKKEEPING.has(t)));
}

const bulkTargets = () => inBulk({ kind: 'all', from: DAYS[0]!, to: DAYS[DAYS.length - 1]! });

/**
 * The bulk mode is checked against the day-by-day build, on a second database holding the same
 * rows: the day-by-day build is itself checked against sums recomputed from the events (rebuild,
 * month-rollup and period-rollups tests), so equal tables mean the bulk rows are right too.
 */
describe('rebuildAggregateRange (bulk mode)', () => {
  let bulk: TestDatabase;
  let daily: TestDatabase;
  let data: SourceData;

  const dayByDay = async (knex: Knex) => {
    for (const day of DAYS) for (const kind of AGGREGATE_KINDS) await rebuildAggregate(knex, { kind, day, requestedBy: 'cli' });
  };
  const inBulkOn = async (knex: Knex) => {
    for (const t of bulkTargets()) await rebuildAggregateRange(knex, { kind: t.kind, day: t.day, toDay: t.toDay!, requestedBy: 'cli' });
  };
  /** The same change to the events of both databases. */
  const onBoth = async (change: (knex: Knex) => Promise<unknown>) => {
    await change(bulk.knex);
    await change(daily.knex);
  };

  before(async () => {
    bulk = await createTestDatabase('agg_bulk', boMigrations);
    daily = await createTestDatabase('agg_bulk_ref', boMigrations);
    data = generateSourceData(20260430, DAYS);
    await insertSourceData(bulk.knex, data);
    await insertSourceData(daily.knex, data);
  });
  after(async () => {
    await bulk?.drop();
    await daily?.drop();
  });

  it('when a range is planned in bulk, then there is one target per kind and month, from its first to its last day in the range', () => {
    expect(inBulk({ kind: 'goods', from: '2026-04-28', to: '2026-06-03' })).to.deep.equal([
      { kind: 'goods', day: '2026-04-28', toDay: '2026-04-30' },
      { kind: 'goods', day: '2026-05-01', toDay: '2026-05-31' },
      { kind: 'goods', day: '2026-06-01', toDay: '2026-06-03' },
    ]);
    expect(bulkTargets()).to.have.length(2 * AGGREGATE_KINDS.length);
  });

  it('when every kind is built in bulk per month, then the list days equal the events and every aggregate table equals the day-by-day build', async () => {
    await inBulkOn(bulk.knex);
    await dayByDay(daily.knex);
    for (const kind of DAILY)
      for (const day of DAYS)
        expect(await storedRows(bulk.knex, kind, day), `${kind} ${day}`).to.deep.equal(expectedDaily(data, kind, day));
    const [got, want] = [await aggregateChecksums(bulk.knex), await aggregateChecksums(daily.knex)];
    expect(Object.keys(want)).to.include.members(['agg_goods_monthly', 'agg_ctg_monthly_all', 'agg_dim_monthly', 'agg_inflow_dim_monthly']);
    expect(got).to.deep.equal(want);
  });

  it('when built months are rebuilt in bulk after their events changed, then old rows leave the months, new ones enter, and both modes agree', async () => {
    // One goods loses every April event (its keys leave April's roll-ups); another gains a late event on a May day.
    const [gone] = data.events.filter((e) => e.evt_dtm.startsWith('2026-04')).map((e) => e.goods_no);
    const late = data.events.find((e) => e.evt_dtm.startsWith('2026-05-02'))!;
    await onBoth((knex) => knex('ord_stat_evt').where({ goods_no: gone }).andWhere('evt_dtm', '<', '2026-05-01 00:00:00').delete());
    await onBoth((knex) => knex('ord_stat_evt').insert({ ...late, evt_dtm: '2026-05-02 23:59:59', qty: 7, amt: 70_000 }));
    await onBoth((knex) =>
      knex('goods_inflow_log').insert({ goods_no: late.goods_no, site_no: late.site_no, inflow_dtm: '2026-04-29 10:00:00' }),
    );

    await inBulkOn(bulk.knex);
    await dayByDay(daily.knex);
    const [got, want] = [await aggregateChecksums(bulk.knex), await aggregateChecksums(daily.knex)];
    expect(got).to.deep.equal(want);
    const april = await bulk.knex('agg_goods_monthly').where({ agrt_mon: '2026-04-01', goods_no: gone });
    expect(april, 'a goods without April events has no April roll-up row').to.deep.equal([]);
  });

  it('when bulk builds and day builds of the same months run at once, then none deadlocks and the tables still equal the day-by-day build', async () => {
    const kinds: AggregateKind[] = ['goods', 'period', 'inflow'];
    await Promise.all([
      ...bulkTargets()
        .filter((t) => kinds.includes(t.kind))
        .map((t) => rebuildAggregateRange(bulk.knex, { kind: t.kind, day: t.day, toDay: t.toDay!, requestedBy: 'cli' })),
      ...DAYS.flatMap((day) => kinds.map((kind) => rebuildAggregate(bulk.knex, { kind, day, requestedBy: 'cli' }))),
      rebuildAggregate(bulk.knex, { kind: 'inflow', day: DAYS[1]!, hour: 10, requestedBy: 'cli' }),
    ]);
    expect(await aggregateChecksums(bulk.knex)).to.deep.equal(await aggregateChecksums(daily.knex));
  });

  it('when every day of a bulk build is done, then each has its run-log row and build record, as a day build leaves them', async () => {
    const runs = await bulk.knex(BUILD_TABLES.runLog).where({ kind: 'goods', outcome: 'done' }).select('agrt_dt');
    expect(new Set(runs.map((r: { agrt_dt: string }) => r.agrt_dt))).to.deep.equal(new Set(DAYS));
    const built = await bulk.knex(BUILD_TABLES.builtDay).where({ kind: 'inflow' }).count({ n: '*' }).first();
    expect(Number(built!.n)).to.equal(DAYS.length * 24);
  });

  it('when a range leaves its month or runs backwards, then it is refused before anything is written', async () => {
    const before = await bulk.knex(BUILD_TABLES.runLog).count({ n: '*' }).first();
    for (const [day, toDay] of [
      ['2026-04-30', '2026-05-01'],
      ['2026-05-02', '2026-05-01'],
      ['2026-05-01', '2026-05-32'],
    ] as const) {
      const err = await rebuildAggregateRange(bulk.knex, { kind: 'goods', day, toDay, requestedBy: 'cli' }).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(err, `${day}..${toDay}`).to.be.instanceOf(Error);
    }
    expect(await bulk.knex(BUILD_TABLES.runLog).count({ n: '*' }).first()).to.deep.equal(before);
  });
});
