import { addDays, eachDay, type Knex } from '@bo/db';
import { createRandom, type Random } from '@bo/data-generator';
import { rebuildAggregate, refreshRunningSums } from '@bo/aggregation-worker';
import { DAILY_KINDS } from '@bo/contracts';

export interface Site {
  site_no: string;
  site_nm: string;
}
export interface Entr {
  entr_no: string;
  entr_nm: string;
}
export interface Brand {
  brand_no: string;
  brand_nm: string;
}
export interface BoUser {
  user_id: string;
  user_nm: string;
  work_grp_cd: string;
  entr_no: string | null;
}
export interface Category {
  std_ctg_no: string;
  upr_std_ctg_no: string | null;
  std_ctg_nm: string;
  depth: number;
  leaf_yn: 'Y' | 'N';
}
export interface Goods {
  goods_no: string;
  goods_nm: string;
  entr_no: string;
  brand_no: string | null;
  std_ctg_no: string;
  md_id: string | null;
  img_path: string | null;
}
export interface Code {
  grp_cd: string;
  cd: string;
  cd_nm: string;
}
export interface Ord {
  ord_no: string;
  site_no: string;
  mbr_no: string;
  ord_dtm: string;
  pay_way_cd: string;
}
export interface Evt {
  ord_no: string;
  ord_goods_seq: number;
  site_no: string;
  goods_no: string;
  agrt_gb_cd: '01' | '02';
  evt_gb_cd: '10' | '20';
  evt_dtm: string;
  qty: number;
  amt: number;
  dc_amt_2nd: number;
  dc_amt_3rd: number;
}
export interface Inflow {
  goods_no: string;
  site_no: string;
  inflow_dtm: string;
}

export interface Arranged {
  sites: Site[];
  entrs: Entr[];
  brands: Brand[];
  users: BoUser[];
  categories: Category[];
  goods: Goods[];
  codes: Code[];
  ords: Ord[];
  events: Evt[];
  inflows: Inflow[];
  /** Days whose inflow logs were aggregated (all inflow logs lie on these days). */
  inflowDays: string[];
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A time inside `day`; some land exactly on a day edge, so a wrong range boundary shows. */
function timeIn(r: Random, day: string): string {
  const edge = r.int(0, 9);
  if (edge === 0) return `${day} 00:00:00`;
  if (edge === 1) return `${day} 23:59:59`;
  return `${day} ${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`;
}

/** A time strictly after `dtm`, `days` days later (same day: later that day, or the day's last second). */
function laterThan(r: Random, dtm: string, days: number): string {
  const day = addDays(dtm.slice(0, 10), days);
  if (days > 0) return timeIn(r, day);
  const t = `${day} ${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`;
  return t > dtm ? t : `${day} 23:59:59`;
}

/**
 * A category tree of four levels: 3 roots, 2 children each, 2 grandchildren each, and the first
 * grandchild of every child has 2 leaves of depth 4. Keys are fixed-width upper-case so the
 * database's collation and JavaScript sort them alike.
 */
function categoryTree(): Category[] {
  const out: Category[] = [];
  for (let a = 1; a <= 3; a++) {
    const root = `C${a}000`;
    out.push({ std_ctg_no: root, upr_std_ctg_no: null, std_ctg_nm: `대분류${a}`, depth: 1, leaf_yn: 'N' });
    for (let b = 1; b <= 2; b++) {
      const mid = `C${a}${b}00`;
      out.push({ std_ctg_no: mid, upr_std_ctg_no: root, std_ctg_nm: `중분류${a}-${b}`, depth: 2, leaf_yn: 'N' });
      for (let c = 1; c <= 2; c++) {
        const low = `C${a}${b}${c}0`;
        const hasLeaves = c === 1;
        out.push({ std_ctg_no: low, upr_std_ctg_no: mid, std_ctg_nm: `소분류${a}-${b}-${c}`, depth: 3, leaf_yn: hasLeaves ? 'N' : 'Y' });
        if (hasLeaves)
          for (let d = 1; d <= 2; d++)
            out.push({
              std_ctg_no: `C${a}${b}${c}${d}`,
              upr_std_ctg_no: low,
              std_ctg_nm: `세분류${a}-${b}-${c}-${d}`,
              depth: 4,
              leaf_yn: 'Y',
            });
      }
    }
  }
  return out;
}

export interface ArrangeOptions {
  seed: number;
  /** Orders are placed on these days (their cancellations and sales may come later). */
  orderDays: string[];
  orders: number;
  /** Goods-detail views fall on these days only; each is aggregated into agg_inflow_hourly. */
  inflowDays: string[];
  inflows: number;
}

/**
 * Masters, orders and their events: every line is ordered (`01`/`10`); some orders are cancelled
 * on a later day (`01`/`20`, partly or fully); most lines are recognised as sales a few days
 * later (`02`/`10`) and some of those returned later still (`02`/`20`). Two fixed orders put
 * a cancellation on the first second of a month after an order on its last day.
 */
export function arrange(o: ArrangeOptions): Arranged {
  const r = createRandom(o.seed);
  const sites: Site[] = [
    { site_no: 'S01', site_nm: '메인몰' },
    { site_no: 'S02', site_nm: '모바일몰' },
  ];
  const entrs: Entr[] = [1, 2, 3, 4].map((i) => ({ entr_no: `E00${i}`, entr_nm: `공급사${i}` }));
  const brands: Brand[] = [1, 2, 3, 4, 5].map((i) => ({ brand_no: `B00${i}`, brand_nm: `브랜드${i}` }));
  const users: BoUser[] = [
    ...[1, 2, 3].map((i) => ({ user_id: `MD0${i}`, user_nm: `담당MD${i}`, work_grp_cd: 'BO_MD', entr_no: null })),
    { user_id: 'ADMIN1', user_nm: '관리자', work_grp_cd: 'BO_ADMIN', entr_no: null },
  ];
  const categories = categoryTree();
  // Goods sit on leaves and on some inner categories, so "the category and every category below it" matters.
  const homes = categories.filter((c) => c.depth >= 2).map((c) => c.std_ctg_no);
  const goods: Goods[] = Array.from({ length: 36 }, (_, i) => ({
    goods_no: `G${pad(i + 1, 4)}`,
    goods_nm: `상품${i + 1}`,
    entr_no: r.pick(entrs).entr_no,
    brand_no: r.next() < 0.15 ? null : r.pick(brands).brand_no,
    std_ctg_no: r.pick(homes),
    md_id: r.next() < 0.2 ? null : r.pick(users.slice(0, 3)).user_id,
    img_path: r.next() < 0.1 ? null : `/goods/${i + 1}.jpg`,
  }));
  const codes: Code[] = [
    { grp_cd: 'OM013', cd: '10', cd_nm: '신용카드' },
    { grp_cd: 'OM013', cd: '20', cd_nm: '계좌이체' },
    { grp_cd: 'OM013', cd: '30', cd_nm: '가상계좌' },
    { grp_cd: 'OM013', cd: '40', cd_nm: '휴대폰결제' },
    { grp_cd: 'OM013', cd: '60', cd_nm: '간편결제' },
    // Same code in another group: the payment-method name must come from OM013 only.
    { grp_cd: 'PR022', cd: '10', cd_nm: '미처리' },
  ];
  const payWays = codes.filter((c) => c.grp_cd === 'OM013').map((c) => c.cd);
  const prices = new Map(goods.map((g) => [g.goods_no, r.int(1, 80) * 500]));

  const ords: Ord[] = [];
  const events: Evt[] = [];
  const addOrder = (ord: Ord, lines: { goods: Goods; qty: number; cancel?: string }[]) => {
    ords.push(ord);
    lines.forEach((line, i) => {
      const unit = prices.get(line.goods.goods_no)!;
      const dc2Unit = r.int(0, 4) * 100;
      const dc3Unit = r.int(0, 2) * 50;
      const base = { ord_no: ord.ord_no, ord_goods_seq: i + 1, site_no: ord.site_no, goods_no: line.goods.goods_no };
      const part = (qty: number) => ({ qty, amt: qty * unit, dc_amt_2nd: qty * dc2Unit, dc_amt_3rd: qty * dc3Unit });
      events.push({ ...base, ...part(line.qty), agrt_gb_cd: '01', evt_gb_cd: '10', evt_dtm: ord.ord_dtm });
      let kept = line.qty;
      const cancelAt = line.cancel ?? (r.next() < 0.3 ? laterThan(r, ord.ord_dtm, r.int(0, 6)) : undefined);
      if (cancelAt) {
        const cancelled = r.int(1, line.qty);
        kept -= cancelled;
        events.push({ ...base, ...part(cancelled), agrt_gb_cd: '01', evt_gb_cd: '20', evt_dtm: cancelAt });
      }
      if (kept > 0 && r.next() < 0.75) {
        const soldAt = laterThan(r, ord.ord_dtm, r.int(1, 3));
        events.push({ ...base, ...part(kept), agrt_gb_cd: '02', evt_gb_cd: '10', evt_dtm: soldAt });
        if (r.next() < 0.25) {
          events.push({ ...base, ...part(r.int(1, kept)), agrt_gb_cd: '02', evt_gb_cd: '20', evt_dtm: laterThan(r, soldAt, r.int(1, 5)) });
        }
      }
    });
  };
  for (let i = 0; i < o.orders; i++) {
    const ord: Ord = {
      ord_no: `O${pad(i + 1, 6)}`,
      site_no: r.pick(sites).site_no,
      mbr_no: `M${r.int(1, 50)}`,
      ord_dtm: timeIn(r, r.pick(o.orderDays)),
      pay_way_cd: r.pick(payWays),
    };
    addOrder(
      ord,
      Array.from({ length: r.int(1, 3) }, () => ({ goods: r.pick(goods), qty: r.int(1, 4) })),
    );
  }
  // Month-end edge: ordered on the last second of January, cancelled on the first second of February.
  for (const [n, g] of [goods[0]!, goods[1]!].entries()) {
    addOrder({ ord_no: `OEDGE${n}`, site_no: 'S01', mbr_no: 'M1', ord_dtm: '2026-01-31 23:59:59', pay_way_cd: '10' }, [
      { goods: g, qty: 2, cancel: '2026-02-01 00:00:00' },
    ]);
  }
  const inflows: Inflow[] = Array.from({ length: o.inflows }, () => ({
    goods_no: r.pick(goods).goods_no,
    site_no: r.pick(sites).site_no,
    inflow_dtm: timeIn(r, r.pick(o.inflowDays)),
  }));
  return { sites, entrs, brands, users, categories, goods, codes, ords, events, inflows, inflowDays: o.inflowDays };
}

export async function insertArranged(knex: Knex, a: Arranged): Promise<void> {
  await knex.batchInsert('site', a.sites, 500);
  await knex.batchInsert('entr', a.entrs, 500);
  await knex.batchInsert('brand', a.brands, 500);
  await knex.batchInsert('bo_user', a.users, 500);
  await knex.batchInsert('std_ctg', a.categories, 500);
  await knex.batchInsert('cm_cd', a.codes, 500);
  await knex.batchInsert(
    'goods',
    a.goods.map((g) => ({ ...g, sale_stat_cd: '10', goods_reg_dtm: '2025-10-01 00:00:00' })),
    500,
  );
  await knex.batchInsert('ord', a.ords, 500);
  await knex.batchInsert('ord_stat_evt', a.events, 500);
  await knex.batchInsert('goods_inflow_log', a.inflows, 500);
  for (const day of a.inflowDays) await rebuildAggregate(knex, { kind: 'inflow', day, requestedBy: 'cli' });
}

/** Build the daily aggregates for `from..to` with the worker's own rebuild, then refresh the running sums as its idle queue does. */
export async function buildDailyAggregates(knex: Knex, from: string, to: string): Promise<string[]> {
  const days = eachDay(from, to);
  for (const day of days) for (const kind of DAILY_KINDS) await rebuildAggregate(knex, { kind, day, requestedBy: 'cli' });
  await refreshRunningSums(knex);
  return days;
}
