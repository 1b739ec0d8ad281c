import type { Arranged, Evt, Goods } from './arranged-data.ts';

/**
 * The numbers every statistics operation should answer, recomputed in plain JavaScript from the
 * rows the test arranged (docs/data-model.md §3), without the service's SQL or helpers.
 */

export interface Conditions {
  siteNo?: string;
  goodsNo?: string;
  entrNo?: string;
  brandNo?: string;
  mdId?: string;
  stdCtgNo?: string;
}

export interface Sums {
  ordAmt: number;
  ordQty: number;
  cnclAmt: number;
  cnclQty: number;
  dcAmt2nd: number;
  dcAmt3rd: number;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The category and everything below it, by walking the parent links upwards from each category. */
export function categoryAndBelow(a: Arranged, root: string): Set<string> {
  const parent = new Map(a.categories.map((c) => [c.std_ctg_no, c.upr_std_ctg_no]));
  const out = new Set<string>();
  for (const c of a.categories) {
    for (let at: string | null | undefined = c.std_ctg_no; at; at = parent.get(at)) {
      if (at === root) {
        out.add(c.std_ctg_no);
        break;
      }
    }
  }
  return out;
}

export function goodsMatcher(a: Arranged, c: Conditions): (goodsNo: string, siteNo: string) => boolean {
  const goods = new Map(a.goods.map((g) => [g.goods_no, g]));
  const ctgs = c.stdCtgNo ? categoryAndBelow(a, c.stdCtgNo) : undefined;
  return (goodsNo, siteNo) => {
    const g = goods.get(goodsNo) as Goods;
    if (c.siteNo && siteNo !== c.siteNo) return false;
    if (c.goodsNo && goodsNo !== c.goodsNo) return false;
    if (c.entrNo && g.entr_no !== c.entrNo) return false;
    if (c.brandNo && g.brand_no !== c.brandNo) return false;
    if (c.mdId && g.md_id !== c.mdId) return false;
    if (ctgs && !ctgs.has(g.std_ctg_no)) return false;
    return true;
  };
}

export function sumOf(events: readonly Evt[]): Sums {
  const s: Sums = { ordAmt: 0, ordQty: 0, cnclAmt: 0, cnclQty: 0, dcAmt2nd: 0, dcAmt3rd: 0 };
  for (const e of events) {
    const sign = e.evt_gb_cd === '10' ? 1 : -1;
    if (sign > 0) {
      s.ordAmt += e.amt;
      s.ordQty += e.qty;
    } else {
      s.cnclAmt += e.amt;
      s.cnclQty += e.qty;
    }
    s.dcAmt2nd += sign * e.dc_amt_2nd;
    s.dcAmt3rd += sign * e.dc_amt_3rd;
  }
  return s;
}

/** The common net fields of every row. */
export const netOf = (s: Sums) => ({
  dcAmt2nd: s.dcAmt2nd,
  dcAmt3rd: s.dcAmt3rd,
  ordAmt: s.ordAmt,
  cnclAmt: s.cnclAmt,
  finalOrdAmt: s.ordAmt - s.cnclAmt,
  ordQty: s.ordQty,
  cnclQty: s.cnclQty,
  finalOrdQty: s.ordQty - s.cnclQty,
});

/** Events of one agrtGb whose evt_dtm text starts with `prefix` (a day, a month or a day and hour). */
export function eventsIn(a: Arranged, agrtGb: string, c: Conditions, prefix: (dtm: string) => boolean): Evt[] {
  const match = goodsMatcher(a, c);
  return a.events.filter((e) => e.agrt_gb_cd === agrtGb && prefix(e.evt_dtm) && match(e.goods_no, e.site_no));
}

export function viewsIn(a: Arranged, c: Conditions, prefix: (dtm: string) => boolean): number {
  const match = goodsMatcher(a, c);
  return a.inflows.filter((l) => prefix(l.inflow_dtm) && match(l.goods_no, l.site_no)).length;
}

/** Calendar helpers written out independently of the service's. */
export function days(from: string, to: string): string[] {
  const out: string[] = [];
  const d = new Date(`${from}T00:00:00Z`);
  for (let s = from; s <= to; d.setUTCDate(d.getUTCDate() + 1), s = d.toISOString().slice(0, 10)) out.push(s);
  return out;
}
export function months(from: string, to: string): string[] {
  const out: string[] = [];
  let [y, m] = from.split('-').map(Number) as [number, number];
  for (let s = from; s <= to; s = `${y}-${pad(m)}`) {
    out.push(s);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

/** The names the rows echo for the conditions given. */
export function echoOf(a: Arranged, c: Conditions): Record<string, string | undefined> {
  const echo: Record<string, string | undefined> = {};
  if (c.siteNo) Object.assign(echo, { siteNo: c.siteNo, siteNm: a.sites.find((s) => s.site_no === c.siteNo)?.site_nm });
  if (c.stdCtgNo)
    Object.assign(echo, { stdCtgNo: c.stdCtgNo, stdCtgNm: a.categories.find((x) => x.std_ctg_no === c.stdCtgNo)?.std_ctg_nm });
  if (c.mdId) Object.assign(echo, { mdId: c.mdId, mdNm: a.users.find((u) => u.user_id === c.mdId)?.user_nm });
  if (c.entrNo) Object.assign(echo, { entrNo: c.entrNo, entrNm: a.entrs.find((x) => x.entr_no === c.entrNo)?.entr_nm });
  if (c.brandNo) Object.assign(echo, { brandNm: a.brands.find((b) => b.brand_no === c.brandNo)?.brand_nm });
  if (c.goodsNo) {
    const g = a.goods.find((x) => x.goods_no === c.goodsNo)!;
    Object.assign(echo, { goodsNo: c.goodsNo, goodsNm: g.goods_nm, imgPath: g.img_path ?? undefined });
  }
  for (const k of Object.keys(echo)) if (echo[k] === undefined) delete echo[k];
  return echo;
}

/** A period row: the bucket's sums plus the period-only fields. */
export function periodRowOf(a: Arranged, agrtGb: string, c: Conditions, bucket: string) {
  const inBucket = (dtm: string) => dtm.slice(0, bucket.length) === bucket;
  const net = netOf(sumOf(eventsIn(a, agrtGb, c, inBucket)));
  return {
    agrtDt: bucket.replaceAll('-', ''),
    ...echoOf(a, c),
    ...net,
    infCnt: viewsIn(a, c, inBucket),
    realOrdQty: net.finalOrdQty,
    realOrdAmt: net.finalOrdAmt,
    dcAmt: net.dcAmt2nd + net.dcAmt3rd,
    currRealOrdAmt: net.finalOrdAmt,
  };
}

/** An hourly row of `day` (hour 0..23). */
export function hourRowOf(a: Arranged, agrtGb: string, c: Conditions, day: string, hour: number) {
  const prefix = `${day} ${pad(hour)}`;
  const inHour = (dtm: string) => dtm.startsWith(prefix);
  return {
    agrtDt: `${pad(hour)}~${pad(hour + 1)}`,
    ...echoOf(a, c),
    ...netOf(sumOf(eventsIn(a, agrtGb, c, inHour))),
    infCnt: viewsIn(a, c, inHour),
  };
}

/** Events of the aggregated days in `from..to`, the ones the daily aggregates hold. */
function aggregatedEvents(a: Arranged, agrtGb: string, from: string, to: string, built: readonly string[], siteNo?: string): Evt[] {
  const builtDays = new Set(built);
  return a.events.filter((e) => {
    const day = e.evt_dtm.slice(0, 10);
    return e.agrt_gb_cd === agrtGb && day >= from && day <= to && builtDays.has(day) && (!siteNo || e.site_no === siteNo);
  });
}

function groupSorted<K>(events: Evt[], keyOf: (e: Evt) => string, toKey: (k: string) => K) {
  const groups = new Map<string, Evt[]>();
  for (const e of events) {
    const k = keyOf(e);
    groups.set(k, [...(groups.get(k) ?? []), e]);
  }
  return [...groups.entries()]
    .map(([k, es]) => ({ key: toKey(k), rawKey: k, sums: sumOf(es) }))
    .sort(
      (x, y) =>
        y.sums.ordAmt - y.sums.cnclAmt - (x.sums.ordAmt - x.sums.cnclAmt) || (x.rawKey < y.rawKey ? -1 : x.rawKey > y.rawKey ? 1 : 0),
    );
}

export interface RangeQuery {
  agrtGb: string;
  from: string;
  to: string;
  built: readonly string[];
  siteNo?: string;
}

export function categoryRows(a: Arranged, q: RangeQuery & { stdCtgNo?: string; mdId?: string }) {
  const goods = new Map(a.goods.map((g) => [g.goods_no, g]));
  const ctgs = q.stdCtgNo ? categoryAndBelow(a, q.stdCtgNo) : undefined;
  const siteNm = q.siteNo ? a.sites.find((s) => s.site_no === q.siteNo)!.site_nm : null;
  const events = aggregatedEvents(a, q.agrtGb, q.from, q.to, q.built, q.siteNo).filter((e) => {
    const g = goods.get(e.goods_no)!;
    return (!ctgs || ctgs.has(g.std_ctg_no)) && (!q.mdId || g.md_id === q.mdId);
  });
  // Key text joins category and MD with a character that sorts below every key character.
  return groupSorted(
    events,
    (e) => `${goods.get(e.goods_no)!.std_ctg_no}\u0001${goods.get(e.goods_no)!.md_id ?? ''}`,
    (k) => k.split('\u0001') as [string, string],
  ).map(({ key: [ctg, md], sums }) => ({
    stdCtgNo: ctg,
    stdCtgNm: a.categories.find((c) => c.std_ctg_no === ctg)!.std_ctg_nm,
    siteNm,
    mdId: md || null,
    mdNm: md ? a.users.find((u) => u.user_id === md)!.user_nm : null,
    ...netOf(sums),
  }));
}

export function payWayRows(a: Arranged, q: RangeQuery & { payWayCd?: string }) {
  const payWay = new Map(a.ords.map((o) => [o.ord_no, o.pay_way_cd]));
  const siteNm = q.siteNo ? a.sites.find((s) => s.site_no === q.siteNo)!.site_nm : null;
  const events = aggregatedEvents(a, q.agrtGb, q.from, q.to, q.built, q.siteNo).filter(
    (e) => !q.payWayCd || payWay.get(e.ord_no) === q.payWayCd,
  );
  return groupSorted(
    events,
    (e) => payWay.get(e.ord_no)!,
    (k) => k,
  ).map(({ key, sums }) => ({
    siteNo: q.siteNo ?? null,
    agrtDt: `${q.from.replaceAll('-', '')}~${q.to.replaceAll('-', '')}`,
    agrtGb: q.agrtGb,
    payWayCd: key,
    payWayNm: a.codes.find((c) => c.grp_cd === 'OM013' && c.cd === key)?.cd_nm ?? null,
    siteNm,
    ...netOf(sums),
  }));
}

export function goodsRows(a: Arranged, q: RangeQuery & { goodsNo?: string; entrNo?: string }) {
  const goods = new Map(a.goods.map((g) => [g.goods_no, g]));
  const siteNm = q.siteNo ? a.sites.find((s) => s.site_no === q.siteNo)!.site_nm : null;
  const events = aggregatedEvents(a, q.agrtGb, q.from, q.to, q.built, q.siteNo).filter(
    (e) => (!q.goodsNo || e.goods_no === q.goodsNo) && (!q.entrNo || goods.get(e.goods_no)!.entr_no === q.entrNo),
  );
  return groupSorted(
    events,
    (e) => e.goods_no,
    (k) => k,
  ).map(({ key, sums }) => {
    const g = goods.get(key)!;
    const net = netOf(sums);
    return {
      imgPath: g.img_path,
      goodsNo: key,
      goodsNm: g.goods_nm,
      entrNo: g.entr_no,
      entrNm: a.entrs.find((x) => x.entr_no === g.entr_no)!.entr_nm,
      siteNm,
      dcAmt2nd: net.dcAmt2nd,
      dcAmt3rd: net.dcAmt3rd,
      ordAmt: net.ordAmt,
      cnclAmt: net.cnclAmt,
      realOrdAmt: net.finalOrdAmt,
      ordQty: net.ordQty,
      cnclQty: net.cnclQty,
      realOrdQty: net.finalOrdQty,
    };
  });
}

export function enterpriseRows(a: Arranged, q: RangeQuery & { entrNo?: string }) {
  const goods = new Map(a.goods.map((g) => [g.goods_no, g]));
  const siteNm = q.siteNo ? a.sites.find((s) => s.site_no === q.siteNo)!.site_nm : null;
  const events = aggregatedEvents(a, q.agrtGb, q.from, q.to, q.built, q.siteNo).filter(
    (e) => !q.entrNo || goods.get(e.goods_no)!.entr_no === q.entrNo,
  );
  return groupSorted(
    events,
    (e) => goods.get(e.goods_no)!.entr_no,
    (k) => k,
  ).map(({ key, sums }) => ({
    entrNo: key,
    entrNm: a.entrs.find((x) => x.entr_no === key)!.entr_nm,
    siteNm,
    ...netOf(sums),
  }));
}
