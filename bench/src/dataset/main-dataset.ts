import type { Knex } from '@bo/db';
import type { DatasetSize } from '../scales.ts';

/** Filter values picked from the data set, so "with filters" cases hit real rows. */
export interface Samples {
  siteNo: string;
  stdCtgNo: string;
  mdId: string;
  entrNo: string;
  brandNo: string;
  goodsNo: string;
  payWayCd: string;
}

export interface DatasetInfo {
  firstDay: string;
  lastDay: string;
  rows: Record<string, number>;
  /** How long the generator took, when this database was generated (possibly by an earlier run). */
  generation?: { ms: number; rows: number; at: string };
  aggregatedAt?: string;
  /** The worker's kinds when the aggregates were built: a kind added since is not built yet. */
  aggregatedKinds?: string;
}

export interface MainDataset extends DatasetInfo {
  name: string;
  url: string;
  size: DatasetSize;
  seed: number;
  /** Fixed last day, when the data set must line up with another one (scaling points). */
  endDate?: string;
  /** True when generated in this run (its generation time is then a figure of this run). */
  generatedNow: boolean;
  samples: Samples;
  knex: Knex;
}

/** What a data set is, for the reuse check: its sizes and seed (not its dates). */
export const datasetSpec = (d: { size: DatasetSize; seed: number; endDate?: string }): string =>
  JSON.stringify({
    events: d.size.events,
    goods: d.size.goods,
    inflowLogs: d.size.inflowLogs,
    days: d.size.days,
    seed: d.seed,
    endDate: d.endDate ?? null,
  });

/** Whether every aggregate kind the worker has now was built on this data set. */
export const isAggregated = (d: DatasetInfo, kinds: readonly string[]): boolean =>
  !!d.aggregatedAt && d.aggregatedKinds === kinds.join(',');
