import type { Knex } from '@bo/db';
import type { GoodsStatusRow } from '@bo/contracts';
import { requestedDays } from './report-range.ts';
import { goodsTotals, siteName } from './repository.ts';
import { measuresOf, netMeasures } from './status-measures.ts';

export interface GoodsStatusQuery {
  startDate: string;
  endDate: string;
  agrtGb: string;
  goodsNo?: string | undefined;
  entrNo?: string | undefined;
  siteNo?: string | undefined;
}

/** Rows per goods from the daily goods aggregate, net amount descending. */
export async function goodsStatus(knex: Knex, q: GoodsStatusQuery): Promise<GoodsStatusRow[]> {
  const range = requestedDays(q.startDate, q.endDate);
  const [rows, siteNm] = await Promise.all([
    goodsTotals(knex, { agrtGb: q.agrtGb, range, siteNo: q.siteNo }, { goodsNo: q.goodsNo, entrNo: q.entrNo }),
    siteName(knex, q.siteNo),
  ]);
  return rows.map((r) => {
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
  });
}
