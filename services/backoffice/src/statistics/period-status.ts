import type { Knex } from '@bo/db';
import type { CompareData, ListOf, OrderStatusRow } from '@bo/contracts';
import { conditionEcho, denseEventBuckets, totalOf, type EventBucket } from './event-buckets.ts';
import { previousPeriod, requestedPeriod, type Period, type PeriodConditions } from './report-range.ts';
import type { Measures, SiteGoodsFilter } from './repository.ts';
import { netMeasures } from './status-measures.ts';

/** Period list and graph data per day or month, today included (where the sums come from: status-sources.ts). */
export type PeriodStatusQuery = PeriodConditions & SiteGoodsFilter & { agrtGb: string };

function periodRow(agrtDt: string, measures: Measures, infCnt: number, echo: Partial<OrderStatusRow>): OrderStatusRow {
  const net = netMeasures(measures);
  return {
    agrtDt,
    ...echo,
    ...net,
    infCnt,
    realOrdQty: net.finalOrdQty,
    realOrdAmt: net.finalOrdAmt,
    dcAmt: net.dcAmt2nd + net.dcAmt3rd,
    currRealOrdAmt: net.finalOrdAmt,
  };
}

const bucketsOf = (knex: Knex, q: PeriodStatusQuery, period: Period, keys = period.labels): Promise<EventBucket[]> =>
  denseEventBuckets(knex, q.agrtGb, q, period.range, period.grain, keys);

/** One row per day (`yyyyMMdd`) or month (`yyyyMM`) of the range, oldest first, zero buckets included. */
export async function periodStatusList(knex: Knex, q: PeriodStatusQuery): Promise<ListOf<OrderStatusRow>> {
  const period = requestedPeriod(q);
  const [buckets, echo] = await Promise.all([bucketsOf(knex, q, period), conditionEcho(knex, q)]);
  const payloads = buckets.map((b) => periodRow(b.key, b.measures, b.infCnt, echo));
  return { totalCount: payloads.length, payloads };
}

/**
 * The current period's totals, and bucket i of the current period paired with bucket i of the
 * comparison period (same length, just before). Both periods are adjacent, so one read covers them.
 */
export async function periodStatusGraph(knex: Knex, q: PeriodStatusQuery): Promise<OrderStatusRow> {
  const current = requestedPeriod(q);
  const before = previousPeriod(current);
  const both: Period = {
    grain: current.grain,
    labels: [...before.labels, ...current.labels],
    range: { fromDay: before.range.fromDay, toDay: current.range.toDay },
  };
  const [buckets, echo] = await Promise.all([bucketsOf(knex, q, both), conditionEcho(knex, q)]);
  const previous = buckets.slice(0, before.labels.length);
  const now = buckets.slice(before.labels.length);
  const total = totalOf(now);
  const compareDataList: CompareData[] = now.map((b, i) => {
    const cur = netMeasures(b.measures);
    const pw = netMeasures(previous[i]!.measures);
    return {
      agrtDt: b.key,
      realOrdAmt: cur.finalOrdAmt,
      pwRealOrdAmt: pw.finalOrdAmt,
      realOrdQty: cur.finalOrdQty,
      pwRealOrdQty: pw.finalOrdQty,
    };
  });
  const label = `${current.labels[0]}~${current.labels[current.labels.length - 1]}`;
  return { ...periodRow(label, total.measures, total.infCnt, echo), compareDataList };
}
