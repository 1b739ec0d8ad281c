import { addDays, compactDay, type Knex } from '@bo/db';
import type { CompareData, ListOf, OrderStatusRow } from '@bo/contracts';
import { conditionEcho } from './condition-echo.ts';
import { netMeasures, totalOf } from './measures.ts';
import type { HourlyReportQuery, Measures } from './model.ts';
import { reportBuckets } from './report-sums.ts';

/** Hourly list and graph data of one day (today included) per hour (where the sums come from: report-sums.ts). */

const pad = (n: number) => String(n).padStart(2, '0');
const HOURS = Array.from({ length: 24 }, (_, h) => h);

/** `00~01` … `23~24`. */
export const hourLabel = (hour: number): string => `${pad(hour)}~${pad(hour + 1)}`;

/** Bucket keys of the hour grain: `yyyyMMddHH`. */
const hourKeys = (day: string) => HOURS.map((h) => `${compactDay(day)}${pad(h)}`);

const hourlyRow = (agrtDt: string, measures: Measures, infCnt: number, echo: Partial<OrderStatusRow>): OrderStatusRow => ({
  agrtDt,
  ...echo,
  ...netMeasures(measures),
  infCnt,
});

/** 24 rows for targetDate, hours without events included. */
export async function hourlyReportList(knex: Knex, q: HourlyReportQuery): Promise<ListOf<OrderStatusRow>> {
  const range = { fromDay: q.targetDate, toDay: addDays(q.targetDate, 1) };
  const [buckets, echo] = await Promise.all([
    reportBuckets(knex, q.agrtGb, q, range, 'hour', hourKeys(q.targetDate)),
    conditionEcho(knex, q),
  ]);
  const payloads = buckets.map((b, h) => hourlyRow(hourLabel(h), b.measures, b.infCnt, echo));
  return { totalCount: payloads.length, payloads };
}

/** The day's totals, and each hour paired with the same hour of the day before. */
export async function hourlyReportGraph(knex: Knex, q: HourlyReportQuery): Promise<OrderStatusRow> {
  const dayBefore = addDays(q.targetDate, -1);
  const range = { fromDay: dayBefore, toDay: addDays(q.targetDate, 1) };
  const [buckets, echo] = await Promise.all([
    reportBuckets(knex, q.agrtGb, q, range, 'hour', [...hourKeys(dayBefore), ...hourKeys(q.targetDate)]),
    conditionEcho(knex, q),
  ]);
  const previous = buckets.slice(0, 24);
  const today = buckets.slice(24);
  const total = totalOf(today);
  const compareDataList: CompareData[] = today.map((b, h) => {
    const cur = netMeasures(b.measures);
    const pw = netMeasures(previous[h]!.measures);
    return {
      agrtDt: hourLabel(h),
      realOrdAmt: cur.finalOrdAmt,
      pwRealOrdAmt: pw.finalOrdAmt,
      realOrdQty: cur.finalOrdQty,
      pwRealOrdQty: pw.finalOrdQty,
    };
  });
  return { ...hourlyRow(compactDay(q.targetDate), total.measures, total.infCnt, echo), compareDataList };
}
