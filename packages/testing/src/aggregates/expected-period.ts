import type { Knex } from '@bo/db';
import type { AggRow } from './expected-daily.ts';
import type { EvtRow, GoodsRow, InflowRow, SourceData } from './source-data.ts';

/**
 * The period rollups (migrations 0102, 0107, 0110) recomputed in plain JS from the rows a test wrote. Goods
 * are filed under `filedAs` (the attributes the snapshot holds: the goods as first seen), which
 * defaults to the goods rows themselves.
 */

type Attrs = Pick<GoodsRow, 'std_ctg_no' | 'entr_no' | 'brand_no' | 'md_id'>;
export type FiledAs = Map<string, Attrs>;

const sortRows = (rows: AggRow[]) => rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const filedAsOf = (data: SourceData, filedAs?: FiledAs): FiledAs => filedAs ?? new Map(data.goods.map((g) => [g.goods_no, g]));

/** (dim_cd, dim_val) pairs a goods is filed under. */
function dimsOf(attrs: Attrs | undefined): [string, string][] {
  const out: [string, string][] = [['all', '']];
  if (!attrs) return out;
  out.push(['ctg', attrs.std_ctg_no], ['entr', attrs.entr_no]);
  if (attrs.brand_no) out.push(['brand', attrs.brand_no]);
  if (attrs.md_id) out.push(['md', attrs.md_id]);
  return out;
}

/** The pairs a goods is filed under per hour (migration 0107): its category and MD, no `all`. */
const hourlyDimsOf = (attrs: Attrs | undefined): [string, string][] => dimsOf(attrs).filter(([dimCd]) => dimCd === 'ctg' || dimCd === 'md');

const hourOf = (dtm: string) => Number(dtm.slice(11, 13));

const MEASURES = ['ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'] as const;

function addEvent(row: AggRow, e: EvtRow): void {
  const sign = e.evt_gb_cd === '10' ? 1 : -1;
  const add = (c: string, n: number) => (row[c] = (row[c] as number) + n);
  if (sign > 0) {
    add('ord_amt', e.amt);
    add('ord_qty', e.qty);
  } else {
    add('cncl_amt', e.amt);
    add('cncl_qty', e.qty);
  }
  add('dc_amt_2nd', sign * e.dc_amt_2nd);
  add('dc_amt_3rd', sign * e.dc_amt_3rd);
}

function grouped<T>(items: T[], heads: (item: T) => AggRow[], zero: AggRow, add: (row: AggRow, item: T) => void): AggRow[] {
  const groups = new Map<string, AggRow>();
  for (const item of items) {
    for (const head of heads(item)) {
      const id = JSON.stringify(head);
      const row = groups.get(id) ?? { ...head, ...zero };
      add(row, item);
      groups.set(id, row);
    }
  }
  return sortRows([...groups.values()]);
}

const ZERO_MEASURES: AggRow = Object.fromEntries(MEASURES.map((m) => [m, 0]));

export interface PeriodRows {
  hourly: AggRow[];
  dims: AggRow[];
  dimHourly: AggRow[];
  /** The dimension rows of every site together (migration 0110). */
  dimsAllSites: AggRow[];
  dimHourlyAllSites: AggRow[];
}

/** Without the site (the every-site rows' heads). */
const noSite = (heads: AggRow[]): AggRow[] => heads.map(({ site_no: _site, ...head }) => head);

/** `agg_site_hourly`, `agg_dim_daily` and `agg_dim_hourly` of one day, and the every-site dimension rows. */
export function expectedPeriod(data: SourceData, day: string, filedAs?: FiledAs): PeriodRows {
  const attrs = filedAsOf(data, filedAs);
  const events = data.events.filter((e) => e.evt_dtm.slice(0, 10) === day);
  const dimHeads = (e: EvtRow): AggRow[] =>
    dimsOf(attrs.get(e.goods_no)).map(([dim_cd, dim_val]) => ({
      agrt_gb_cd: e.agrt_gb_cd,
      dim_cd,
      dim_val,
      agrt_dt: day,
      site_no: e.site_no,
    }));
  const dimHourlyHeads = (e: EvtRow): AggRow[] =>
    hourlyDimsOf(attrs.get(e.goods_no)).map(([dim_cd, dim_val]) => ({
      agrt_gb_cd: e.agrt_gb_cd,
      dim_cd,
      dim_val,
      agrt_dt: day,
      agrt_hour: hourOf(e.evt_dtm),
      site_no: e.site_no,
    }));
  return {
    hourly: grouped(
      events,
      (e) => [{ agrt_gb_cd: e.agrt_gb_cd, agrt_dt: day, agrt_hour: hourOf(e.evt_dtm), site_no: e.site_no }],
      ZERO_MEASURES,
      addEvent,
    ),
    dims: grouped(events, dimHeads, ZERO_MEASURES, addEvent),
    dimHourly: grouped(events, dimHourlyHeads, ZERO_MEASURES, addEvent),
    dimsAllSites: grouped(events, (e) => noSite(dimHeads(e)), ZERO_MEASURES, addEvent),
    dimHourlyAllSites: grouped(events, (e) => noSite(dimHourlyHeads(e)), ZERO_MEASURES, addEvent),
  };
}

/** Monthly rows: the sums of the given daily rows per key and month, with how many days each has. */
export function monthsOf(dailyRows: AggRow[]): AggRow[] {
  return grouped(
    dailyRows,
    (r) => {
      const { agrt_dt, ...rest } = r;
      const head: AggRow = {};
      for (const [k, v] of Object.entries(rest)) if (!(MEASURES as readonly string[]).includes(k) && k !== 'inf_cnt') head[k] = v;
      return [{ ...head, agrt_mon: `${String(agrt_dt).slice(0, 7)}-01` }];
    },
    {},
    (row, r) => {
      for (const k of [...MEASURES, 'inf_cnt']) if (k in r) row[k] = ((row[k] as number | undefined) ?? 0) + (r[k] as number);
      row.day_cnt = ((row.day_cnt as number | undefined) ?? 0) + 1;
    },
  );
}

export interface InflowRollupRows {
  site: AggRow[];
  dims: AggRow[];
  dimHourly: AggRow[];
  dimsAllSites: AggRow[];
  dimHourlyAllSites: AggRow[];
}

/** `agg_inflow_site_hourly`, `agg_inflow_dim_daily` and `agg_inflow_dim_hourly` of one day's page views. */
export function expectedInflowRollups(data: SourceData, day: string, filedAs?: FiledAs): InflowRollupRows {
  const attrs = filedAsOf(data, filedAs);
  const logs = data.inflows.filter((l) => l.inflow_dtm.slice(0, 10) === day);
  const count = (row: AggRow) => (row.inf_cnt = (row.inf_cnt as number) + 1);
  const dimHeads = (l: InflowRow): AggRow[] =>
    dimsOf(attrs.get(l.goods_no)).map(([dim_cd, dim_val]) => ({ dim_cd, dim_val, agrt_dt: day, site_no: l.site_no }));
  const dimHourlyHeads = (l: InflowRow): AggRow[] =>
    hourlyDimsOf(attrs.get(l.goods_no)).map(([dim_cd, dim_val]) => ({
      dim_cd,
      dim_val,
      agrt_dt: day,
      agrt_hour: hourOf(l.inflow_dtm),
      site_no: l.site_no,
    }));
  return {
    site: grouped(logs, (l) => [{ agrt_dt: day, agrt_hour: hourOf(l.inflow_dtm), site_no: l.site_no }], { inf_cnt: 0 }, count),
    dims: grouped(logs, dimHeads, { inf_cnt: 0 }, count),
    dimHourly: grouped(logs, dimHourlyHeads, { inf_cnt: 0 }, count),
    dimsAllSites: grouped(logs, (l) => noSite(dimHeads(l)), { inf_cnt: 0 }, count),
    dimHourlyAllSites: grouped(logs, (l) => noSite(dimHourlyHeads(l)), { inf_cnt: 0 }, count),
  };
}

const stored = async (q: Knex.QueryBuilder): Promise<AggRow[]> => sortRows(((await q) as AggRow[]).map((r) => ({ ...r })));

/** The stored period rows of one day, columns in the order the expectations build them. */
export async function storedPeriod(knex: Knex, day: string): Promise<PeriodRows> {
  return {
    hourly: await stored(
      knex('agg_site_hourly')
        .select('agrt_gb_cd', 'agrt_dt', 'agrt_hour', 'site_no', ...MEASURES)
        .where({ agrt_dt: day }),
    ),
    dims: await stored(
      knex('agg_dim_daily')
        .select('agrt_gb_cd', 'dim_cd', 'dim_val', 'agrt_dt', 'site_no', ...MEASURES)
        .where({ agrt_dt: day }),
    ),
    dimHourly: await stored(
      knex('agg_dim_hourly')
        .select('agrt_gb_cd', 'dim_cd', 'dim_val', 'agrt_dt', 'agrt_hour', 'site_no', ...MEASURES)
        .where({ agrt_dt: day }),
    ),
    dimsAllSites: await stored(
      knex('agg_dim_daily_all')
        .select('agrt_gb_cd', 'dim_cd', 'dim_val', 'agrt_dt', ...MEASURES)
        .where({ agrt_dt: day }),
    ),
    dimHourlyAllSites: await stored(
      knex('agg_dim_hourly_all')
        .select('agrt_gb_cd', 'dim_cd', 'dim_val', 'agrt_dt', 'agrt_hour', ...MEASURES)
        .where({ agrt_dt: day }),
    ),
  };
}

export async function storedInflowRollups(knex: Knex, day: string): Promise<InflowRollupRows> {
  return {
    site: await stored(knex('agg_inflow_site_hourly').select('agrt_dt', 'agrt_hour', 'site_no', 'inf_cnt').where({ agrt_dt: day })),
    dims: await stored(knex('agg_inflow_dim_daily').select('dim_cd', 'dim_val', 'agrt_dt', 'site_no', 'inf_cnt').where({ agrt_dt: day })),
    dimHourly: await stored(
      knex('agg_inflow_dim_hourly').select('dim_cd', 'dim_val', 'agrt_dt', 'agrt_hour', 'site_no', 'inf_cnt').where({ agrt_dt: day }),
    ),
    dimsAllSites: await stored(knex('agg_inflow_dim_daily_all').select('dim_cd', 'dim_val', 'agrt_dt', 'inf_cnt').where({ agrt_dt: day })),
    dimHourlyAllSites: await stored(
      knex('agg_inflow_dim_hourly_all').select('dim_cd', 'dim_val', 'agrt_dt', 'agrt_hour', 'inf_cnt').where({ agrt_dt: day }),
    ),
  };
}

/** Every stored monthly row of the events (`agg_dim_monthly`) or page views (`agg_inflow_dim_monthly`), per site or every site. */
export async function storedMonths(knex: Knex, of: 'events' | 'events-all-sites' | 'inflow' | 'inflow-all-sites'): Promise<AggRow[]> {
  if (of === 'events')
    return stored(knex('agg_dim_monthly').select('agrt_gb_cd', 'dim_cd', 'dim_val', 'site_no', 'agrt_mon', ...MEASURES, 'day_cnt'));
  if (of === 'events-all-sites')
    return stored(knex('agg_dim_monthly_all').select('agrt_gb_cd', 'dim_cd', 'dim_val', 'agrt_mon', ...MEASURES, 'day_cnt'));
  if (of === 'inflow-all-sites')
    return stored(knex('agg_inflow_dim_monthly_all').select('dim_cd', 'dim_val', 'agrt_mon', 'inf_cnt', 'day_cnt'));
  return stored(knex('agg_inflow_dim_monthly').select('dim_cd', 'dim_val', 'site_no', 'agrt_mon', 'inf_cnt', 'day_cnt'));
}
