import type { Knex } from '@bo/db';
import type { GoodsStatusRow } from '@bo/contracts';
import { siteName } from './data-access/condition-names.ts';
import { goodsTotals } from './data-access/list-sums.ts';
import { netMeasures } from './measures.ts';
import type { GoodsReportQuery, GoodsTotals } from './model.ts';
import { requestedDays } from './report-range.ts';

const totalsOf = (knex: Knex, q: GoodsReportQuery) =>
  goodsTotals(
    knex,
    { agrtGb: q.agrtGb, range: requestedDays(q.startDate, q.endDate), siteNo: q.siteNo },
    { goodsNo: q.goodsNo, entrNo: q.entrNo },
  );

function goodsRow(r: GoodsTotals, siteNm: string | null): GoodsStatusRow {
  const net = netMeasures(r);
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
export async function goodsReport(knex: Knex, q: GoodsReportQuery): Promise<GoodsStatusRow[]> {
  const [rows, siteNm] = await Promise.all([totalsOf(knex, q), siteName(knex, q.siteNo)]);
  return rows.map((r) => goodsRow(r, siteNm));
}

/** The same rows one at a time, as the database sends them (downloads of every goods). */
export async function* goodsReportRows(knex: Knex, q: GoodsReportQuery): AsyncGenerator<GoodsStatusRow> {
  const totals = totalsOf(knex, q);
  const siteNm = await siteName(knex, q.siteNo);
  for await (const r of totals.stream()) yield goodsRow(r, siteNm);
}
