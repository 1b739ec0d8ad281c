import { addDays, type Knex } from '@bo/db';
import { createRandom, type Random } from '@bo/data-generator';

export interface GoodsRow {
  goods_no: string;
  entr_no: string;
  std_ctg_no: string;
  md_id: string | null;
  brand_no: string | null;
}
export interface OrdRow {
  ord_no: string;
  site_no: string;
  pay_way_cd: string;
  ord_dtm: string;
}
export interface EvtRow {
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
export interface InflowRow {
  goods_no: string;
  site_no: string;
  inflow_dtm: string;
}
export interface SourceData {
  goods: GoodsRow[];
  ords: OrdRow[];
  events: EvtRow[];
  inflows: InflowRow[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A time inside `day`; one in five lands exactly on a day edge (00:00:00 or 23:59:59) so a
 * wrong range boundary shows.
 */
function timeIn(r: Random, day: string): string {
  const edge = r.int(0, 9);
  if (edge === 0) return `${day} 00:00:00`;
  if (edge === 1) return `${day} 23:59:59`;
  return `${day} ${pad(r.int(0, 23))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`;
}

/**
 * Goods, orders and their events over `days`: every line is ordered (`01`/`10`), most are
 * recognised as sales a day or two later (`02`/`10`), some are cancelled or returned later —
 * so cancellations fall on other days than their orders, across the month end when `days`
 * spans one. Some goods have no MD, so the category key `md_id` is ''. Inflow logs per hour.
 */
export function generateSourceData(seed: number, days: string[], size = { goods: 12, orders: 60, inflows: 400 }): SourceData {
  const r = createRandom(seed);
  const sites = ['10', '20'];
  const goods: GoodsRow[] = Array.from({ length: size.goods }, (_, i) => ({
    goods_no: `G${seed}${pad(i)}`,
    entr_no: r.pick(['E001', 'E002', 'E003']),
    std_ctg_no: r.pick(['C100', 'C110', 'C200']),
    md_id: r.pick(['md.kim', 'md.lee', null]),
    // From the index, not the generator: the draws (and so every other row) stay as they were.
    brand_no: i % 3 === 0 ? null : `B${i % 2}`,
  }));
  const ords: OrdRow[] = [];
  const events: EvtRow[] = [];
  const last = days[days.length - 1] as string;
  for (let i = 0; i < size.orders; i++) {
    const day = r.pick(days);
    const ord: OrdRow = {
      ord_no: `O${seed}${i}`,
      site_no: r.pick(sites),
      pay_way_cd: r.pick(['CARD', 'BANK', 'PNT']),
      ord_dtm: timeIn(r, day),
    };
    ords.push(ord);
    for (let seq = 1; seq <= r.int(1, 3); seq++) {
      const g = r.pick(goods);
      const qty = r.int(1, 4);
      const amt = qty * r.int(1, 50) * 1000;
      const line = { ord_no: ord.ord_no, ord_goods_seq: seq, site_no: ord.site_no, goods_no: g.goods_no, qty, amt };
      const dc = { dc_amt_2nd: r.int(0, 3) * 500, dc_amt_3rd: r.int(0, 2) * 300 };
      events.push({ ...line, ...dc, agrt_gb_cd: '01', evt_gb_cd: '10', evt_dtm: ord.ord_dtm });
      const later = (n: number) => {
        const d = addDays(day, n);
        return d > last ? last : d;
      };
      if (r.next() < 0.3) events.push({ ...line, ...dc, agrt_gb_cd: '01', evt_gb_cd: '20', evt_dtm: timeIn(r, later(r.int(0, 2))) });
      else if (r.next() < 0.8) {
        const saleDay = later(r.int(0, 1));
        events.push({ ...line, ...dc, agrt_gb_cd: '02', evt_gb_cd: '10', evt_dtm: timeIn(r, saleDay) });
        if (r.next() < 0.3)
          events.push({
            ...line,
            ...dc,
            agrt_gb_cd: '02',
            evt_gb_cd: '20',
            evt_dtm: timeIn(r, saleDay === last ? last : later(r.int(1, 2))),
          });
      }
    }
  }
  const inflows: InflowRow[] = Array.from({ length: size.inflows }, () => ({
    goods_no: r.pick(goods).goods_no,
    site_no: r.pick(sites),
    inflow_dtm: timeIn(r, r.pick(days)),
  }));
  return { goods, ords, events, inflows };
}

/** Write the generated rows (goods get the master columns the table requires). */
export async function insertSourceData(knex: Knex, data: SourceData): Promise<void> {
  await knex.batchInsert(
    'goods',
    data.goods.map((g) => ({ ...g, goods_nm: `goods ${g.goods_no}`, sale_stat_cd: '10', goods_reg_dtm: '2026-01-01 00:00:00' })),
    500,
  );
  await knex.batchInsert(
    'ord',
    data.ords.map((o) => ({ ...o, mbr_no: 'M1' })),
    500,
  );
  await knex.batchInsert('ord_stat_evt', data.events, 500);
  await knex.batchInsert('goods_inflow_log', data.inflows, 500);
}
