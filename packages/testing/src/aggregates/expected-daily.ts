import type { Knex } from '@bo/db';
import type { SourceData } from './source-data.ts';

/**
 * Aggregates recomputed in plain JS from the rows a test wrote: the day of an event is the
 * first ten characters of its local time, the keys come from the goods and order rows.
 */

export type DailyKindName = 'category' | 'payway' | 'goods' | 'entr';
export type AggRow = Record<string, string | number>;

const TABLE_OF: Record<DailyKindName | 'inflow', string> = {
  category: 'agg_ctg_daily',
  payway: 'agg_payway_daily',
  goods: 'agg_goods_daily',
  entr: 'agg_entr_daily',
  inflow: 'agg_inflow_hourly',
};

const keyColumns: Record<DailyKindName, string[]> = {
  category: ['std_ctg_no', 'md_id'],
  payway: ['pay_way_cd'],
  goods: ['goods_no', 'entr_no'],
  entr: ['entr_no'],
};

const sortRows = (rows: AggRow[]) => rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

export function expectedDaily(data: SourceData, kind: DailyKindName, day: string): AggRow[] {
  const goods = new Map(data.goods.map((g) => [g.goods_no, g]));
  const ords = new Map(data.ords.map((o) => [o.ord_no, o]));
  const groups = new Map<string, AggRow>();
  for (const e of data.events) {
    if (e.evt_dtm.slice(0, 10) !== day) continue;
    const g = goods.get(e.goods_no)!;
    const keyValues: Record<DailyKindName, AggRow> = {
      category: { std_ctg_no: g.std_ctg_no, md_id: g.md_id ?? '' },
      payway: { pay_way_cd: ords.get(e.ord_no)!.pay_way_cd },
      goods: { goods_no: e.goods_no, entr_no: g.entr_no },
      entr: { entr_no: g.entr_no },
    };
    const head: AggRow = { agrt_gb_cd: e.agrt_gb_cd, agrt_dt: day, site_no: e.site_no, ...keyValues[kind] };
    const id = JSON.stringify(head);
    const row = groups.get(id) ?? { ...head, ord_amt: 0, ord_qty: 0, cncl_amt: 0, cncl_qty: 0, dc_amt_2nd: 0, dc_amt_3rd: 0 };
    const sign = e.evt_gb_cd === '10' ? 1 : -1;
    if (sign > 0) {
      row.ord_amt = (row.ord_amt as number) + e.amt;
      row.ord_qty = (row.ord_qty as number) + e.qty;
    } else {
      row.cncl_amt = (row.cncl_amt as number) + e.amt;
      row.cncl_qty = (row.cncl_qty as number) + e.qty;
    }
    row.dc_amt_2nd = (row.dc_amt_2nd as number) + sign * e.dc_amt_2nd;
    row.dc_amt_3rd = (row.dc_amt_3rd as number) + sign * e.dc_amt_3rd;
    groups.set(id, row);
  }
  return sortRows([...groups.values()]);
}

/** Page views per (day, hour, site, goods) of one day, optionally one hour. */
export function expectedInflow(data: SourceData, day: string, hour?: number): AggRow[] {
  const groups = new Map<string, AggRow>();
  for (const l of data.inflows) {
    if (l.inflow_dtm.slice(0, 10) !== day) continue;
    const h = Number(l.inflow_dtm.slice(11, 13));
    if (hour !== undefined && h !== hour) continue;
    const head: AggRow = { agrt_dt: day, agrt_hour: h, site_no: l.site_no, goods_no: l.goods_no };
    const id = JSON.stringify(head);
    const row = groups.get(id) ?? { ...head, inf_cnt: 0 };
    row.inf_cnt = (row.inf_cnt as number) + 1;
    groups.set(id, row);
  }
  return sortRows([...groups.values()]);
}

/** The stored rows of one day, columns in the order the expectations build them. */
export async function storedRows(knex: Knex, kind: DailyKindName | 'inflow', day: string, hour?: number): Promise<AggRow[]> {
  const columns =
    kind === 'inflow'
      ? ['agrt_dt', 'agrt_hour', 'site_no', 'goods_no', 'inf_cnt']
      : ['agrt_gb_cd', 'agrt_dt', 'site_no', ...keyColumns[kind], 'ord_amt', 'ord_qty', 'cncl_amt', 'cncl_qty', 'dc_amt_2nd', 'dc_amt_3rd'];
  const q = knex(TABLE_OF[kind]).select(columns).where({ agrt_dt: day });
  if (hour !== undefined) q.andWhere({ agrt_hour: hour });
  const rows = (await q) as AggRow[];
  return sortRows(rows.map((r) => ({ ...r })));
}
