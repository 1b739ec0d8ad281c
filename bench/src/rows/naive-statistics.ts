import type { Pool } from '../infra/sql-replay.ts';
import type { CaseConditions, Family } from './statistics-cases.ts';

/**
 * The naive way to answer a statistics request: group the raw events (and raw page views) of
 * the range on every call, joining the masters, with no aggregate table. Same numbers as the
 * service (docs/data-model.md §3), so it is both the speed reference and a cross-check.
 */
const MEASURES = `SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.amt ELSE 0 END) AS ord_amt,
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.qty ELSE 0 END) AS ord_qty,
  SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.amt ELSE 0 END) AS cncl_amt,
  SUM(CASE WHEN e.evt_gb_cd = '20' THEN e.qty ELSE 0 END) AS cncl_qty,
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_2nd ELSE -e.dc_amt_2nd END) AS dc_amt_2nd,
  SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.dc_amt_3rd ELSE -e.dc_amt_3rd END) AS dc_amt_3rd`;

const TREE = `WITH RECURSIVE t (std_ctg_no) AS (
  SELECT std_ctg_no FROM std_ctg WHERE std_ctg_no = ?
  UNION SELECT c.std_ctg_no FROM std_ctg c JOIN t ON c.upr_std_ctg_no = t.std_ctg_no) `;

const BUCKET: Record<CaseConditions['grain'], (col: string) => string> = {
  day: (col) => `DATE_FORMAT(${col}, '%Y%m%d')`,
  month: (col) => `DATE_FORMAT(${col}, '%Y%m')`,
  hour: (col) => `DATE_FORMAT(${col}, '%Y%m%d%H')`,
};

interface Query {
  sql: string;
  bindings: unknown[];
}

const needsGoods = (keys: string, c: CaseConditions) => keys.includes('g.') || Boolean(c.filter.stdCtgNo || c.filter.entrNo);

/** Events of one agrtGb in `[from, to)`, joined to goods (and orders when asked), grouped by `keys`. */
function eventsGrouped(c: CaseConditions, from: string, to: string, keys: string, joins: string): Query {
  const bindings: unknown[] = [];
  let sql = '';
  if (c.filter.stdCtgNo) {
    sql += TREE;
    bindings.push(c.filter.stdCtgNo);
  }
  sql += `SELECT ${keys}, ${MEASURES}
    FROM ord_stat_evt e ${needsGoods(keys, c) ? 'JOIN goods g ON g.goods_no = e.goods_no' : ''} ${joins}
    WHERE e.agrt_gb_cd = ? AND e.evt_dtm >= ? AND e.evt_dtm < ?`;
  bindings.push(c.agrtGb, `${from} 00:00:00`, `${to} 00:00:00`);
  if (c.filter.stdCtgNo) sql += ' AND g.std_ctg_no IN (SELECT std_ctg_no FROM t)';
  if (c.filter.entrNo) {
    sql += ' AND g.entr_no = ?';
    bindings.push(c.filter.entrNo);
  }
  if (c.filter.payWayCd) {
    sql += ' AND o.pay_way_cd = ?';
    bindings.push(c.filter.payWayCd);
  }
  return { sql: `${sql} GROUP BY ${keys} ORDER BY SUM(CASE WHEN e.evt_gb_cd = '10' THEN e.amt ELSE -e.amt END) DESC`, bindings };
}

/** Page views from the raw log, per bucket, through the same goods filter. */
function inflowGrouped(c: CaseConditions): Query {
  const bindings: unknown[] = [];
  let sql = '';
  if (c.filter.stdCtgNo) {
    sql += TREE;
    bindings.push(c.filter.stdCtgNo);
  }
  sql += `SELECT ${BUCKET[c.grain]('l.inflow_dtm')} AS b, COUNT(*) AS inf_cnt
    FROM goods_inflow_log l ${c.filter.stdCtgNo ? 'JOIN goods g ON g.goods_no = l.goods_no' : ''}
    WHERE l.inflow_dtm >= ? AND l.inflow_dtm < ?`;
  bindings.push(`${c.fromDay} 00:00:00`, `${c.toDay} 00:00:00`);
  if (c.filter.stdCtgNo) sql += ' AND g.std_ctg_no IN (SELECT std_ctg_no FROM t)';
  return { sql: `${sql} GROUP BY b`, bindings };
}

/** Group keys of the list reports (names of a few hundred keys cost nothing next to the scan). */
const KEYS: Record<Exclude<Family, 'period' | 'hourly'>, { keys: string; joins: string }> = {
  category: { keys: 'g.std_ctg_no, g.md_id', joins: '' },
  payway: { keys: 'o.pay_way_cd', joins: 'JOIN ord o ON o.ord_no = e.ord_no' },
  goods: { keys: 'e.goods_no', joins: '' },
  entr: { keys: 'g.entr_no', joins: '' },
};

export function naiveQueries(family: Family, c: CaseConditions): { current: Query; others: Query[] } {
  if (family === 'period' || family === 'hourly') {
    const bucket = BUCKET[c.grain]('e.evt_dtm');
    return {
      current: eventsGrouped(c, c.fromDay, c.toDay, bucket, ''),
      others: [eventsGrouped(c, c.compareFromDay!, c.compareToDay!, bucket, ''), inflowGrouped(c)],
    };
  }
  const { keys, joins } = KEYS[family];
  const payJoin = c.filter.payWayCd && !joins ? 'JOIN ord o ON o.ord_no = e.ord_no' : joins;
  return { current: eventsGrouped(c, c.fromDay, c.toDay, keys, payJoin), others: [] };
}

/** Run the naive recomputation once; the net amount of the current period for the cross-check. */
export async function runNaive(pool: Pool, family: Family, c: CaseConditions): Promise<{ netTotal: number; rows: number }> {
  const { current, others } = naiveQueries(family, c);
  const [rows] = (await pool.query(current.sql, current.bindings)) as unknown as [{ ord_amt: number; cncl_amt: number }[]];
  for (const q of others) await pool.query(q.sql, q.bindings);
  return { netTotal: rows.reduce((n, r) => n + Number(r.ord_amt) - Number(r.cncl_amt), 0), rows: rows.length };
}

interface AmountRow {
  ordAmt?: unknown;
  cnclAmt?: unknown;
}

/** Net amount a response reports: the totals row of graph data, or the sum of a list's rows. */
export function responseNetTotal(body: unknown): number | undefined {
  const net = (r: AmountRow) => (typeof r.ordAmt === 'number' && typeof r.cnclAmt === 'number' ? r.ordAmt - r.cnclAmt : undefined);
  const rows: AmountRow[] | undefined = Array.isArray(body)
    ? body
    : Array.isArray((body as { payloads?: unknown })?.payloads)
      ? (body as { payloads: AmountRow[] }).payloads
      : undefined;
  if (!rows) return net(body ?? {});
  let total = 0;
  for (const r of rows) {
    const n = net(r);
    if (n === undefined) return undefined;
    total += n;
  }
  return total;
}
