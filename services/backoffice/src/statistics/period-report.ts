import type { Knex } from '@bo/db';
import type { CompareData, ListOf, OrderStatusRow } from '@bo/contracts';
import { conditionEcho } from './condition-echo.ts';
import { netMeasures, totalOf } from './measures.ts';
import type { EventBucket, Measures, Period, PeriodReportQuery } from './model.ts';
import { previousPeriod, requestedPeriod } from './report-range.ts';
import { reportBuckets } from './report-sums.ts';

/** Period list and graph data per day or month, today included (where the sums come from: report-sums.ts). */

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

const bucketsOf = (knex: Knex, q: PeriodReportQuery, period: Period): Promise<EventBucket[]> =>
  reportBuckets(knex, q.agrtGb, q, period.range, period.grain, period.labels);

/** One row per day (`yyyyMMdd`) or month (`yyyyMM`) of the range, oldest first, zero buckets included. */
export async function periodReportList(knex: Knex, q: PeriodReportQuery): Promise<ListOf<OrderStatusRow>> {
  const period = requestedPeriod(q);
  const [buckets, echo] = await Promise.all([bucketsOf(knex, q, period), conditionEcho(knex, q)]);
  const payloads = buckets.map((b) => periodRow(b.key, b.measures, b.infCnt, echo));
  return { totalCount: payloads.length, payloads };
}

/**
 * The current period's totals, and bucket i of the current period paired with bucket i of the
 * comparison period (same length, just before). Both periods are adjacent, so one read covers them.
 */
export async function periodReportGraph(knex: Knex, q: PeriodReportQuery): Promise<OrderStatusRow> {
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
