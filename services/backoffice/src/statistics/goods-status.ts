import type { Knex } from '@bo/db';
import type { GoodsStatusRow } from '@bo/contracts';
import { requestedDays } from './report-range.ts';
import { goodsTotals, siteName, type GoodsTotals } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface GoodsStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  goodsNo?: string | undefined;
  entrNo?: string | undefined;
  siteNo?: string | undefined;
}

const totalsOf = (knex: Knex, q: GoodsStatusQuery) =>
  goodsTotals(knex, { agrtGb: q.agrtGb, range: requestedDays(q.startDate, q.endDate), siteNo: q.siteNo }, { goodsNo: q.goodsNo, entrNo: q.entrNo });

function goodsRow(r: GoodsTotals, siteNm: string | null): GoodsStatusRow {
  const net = netMeasures(measuresOf(r));
  return {
    imgPath: r.imgPath,
    goodsNo: r.goodsNo,
    goodsNm: r.goodsNm,
    entrNo: r.entrNo,
    entrNm: r.entrNm,
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
}

/** Rows per goods from the daily goods aggregate, net amount descending. */
export async function goodsStatus(knex: Knex, q: GoodsStatusQuery): Promise<GoodsStatusRow[]> {
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q), siteName(knex, q.siteNo)]);
  return rows.map((r) => goodsRow(r, siteNm));
}

/** The same rows one at a time, as the database sends them (downloads of every goods). */
export async function* goodsStatusRows(knex: Knex, q: GoodsStatusQuery): AsyncGenerator<GoodsStatusRow> {
  const totals = totalsOf(knex, q);
  const siteNm = await siteName(knex, q.siteNo);
  for await (const r of totals.stream()) yield goodsRow(r, siteNm);
}
