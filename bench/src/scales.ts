/**
 * Sizes of a benchmark run. `full` is the data set (10 M events over 365 days, 20,000
 * goods, 30 M inflow logs); `medium` has the full catalogue (20,000 goods) with a tenth of the
 * events, so goods and category lists have their full-scale shape in ~10 minutes of loading and
 * building; `small` is the quick check that finishes in minutes on two cores;
 * `tiny` is the CI smoke test that only proves every row is measured.
 */
export type ScaleName = 'tiny' | 'small' | 'medium' | 'full';

export interface DatasetSize {
  events: number;
  goods: number;
  inflowLogs: number;
  days: number;
}

export interface Scale {
  name: ScaleName;
  dataset: DatasetSize;
  /** Requests per statistics case under 8 concurrent clients (and bare-SQL replays)… */
  statRequests: number;
  /** …within at most this many seconds per side (slow reports send fewer). */
  caseSeconds: number;
  /** Warm each side up before measuring it (the smoke test skips it: it checks rows, not figures). */
  warmup: boolean;
  /** Sequential runs of each naive recomputation (the median is kept)… */
  naiveRuns: number;
  /** …each stopped by the server after this many seconds (the figure is then a lower bound). */
  naiveLimitSeconds: number;
  /** Days rebuilt for the "one day" aggregation figure (median of these runs). */
  aggregationDayRuns: number;
  excelRows: number;
  staffMembers: number;
  staffOps: number;
  /** Alternating rounds of the overhead row, and each side's seconds in one round. */
  overheadRounds: number;
  overheadSeconds: number;
  aiCalls: number;
  /** Event counts of the scaling series; the largest is the main data set. */
  scalingEvents: number[];
}

const sized = (events: number, goods: number, days: number): DatasetSize => ({ events, goods, inflowLogs: events * 3, days });

export const SCALES: Record<ScaleName, Scale> = {
  tiny: {
    name: 'tiny',
    dataset: sized(8_000, 300, 35),
    statRequests: 8,
    caseSeconds: 1,
    warmup: false,
    naiveRuns: 1,
    naiveLimitSeconds: 20,
    aggregationDayRuns: 2,
    excelRows: 2_000,
    staffMembers: 100,
    staffOps: 400,
    overheadRounds: 1,
    overheadSeconds: 1,
    aiCalls: 10,
    scalingEvents: [3_000, 8_000],
  },
  small: {
    name: 'small',
    dataset: sized(300_000, 2_000, 365),
    statRequests: 60,
    caseSeconds: 3,
    warmup: true,
    naiveRuns: 1,
    naiveLimitSeconds: 60,
    aggregationDayRuns: 3,
    excelRows: 100_000,
    staffMembers: 1_000,
    staffOps: 6_000,
    overheadRounds: 3,
    overheadSeconds: 1,
    aiCalls: 100,
    scalingEvents: [30_000, 100_000, 300_000],
  },
  medium: {
    name: 'medium',
    dataset: sized(1_000_000, 20_000, 365),
    statRequests: 100,
    caseSeconds: 5,
    warmup: true,
    naiveRuns: 1,
    naiveLimitSeconds: 45,
    aggregationDayRuns: 3,
    excelRows: 100_000,
    staffMembers: 1_000,
    staffOps: 10_000,
    overheadRounds: 5,
    overheadSeconds: 1,
    aiCalls: 100,
    scalingEvents: [100_000, 300_000, 1_000_000],
  },
  full: {
    name: 'full',
    dataset: sized(10_000_000, 20_000, 365),
    statRequests: 200,
    caseSeconds: 10,
    warmup: true,
    naiveRuns: 1,
    naiveLimitSeconds: 45,
    aggregationDayRuns: 3,
    excelRows: 100_000,
    staffMembers: 1_000,
    staffOps: 40_000,
    overheadRounds: 5,
    overheadSeconds: 3,
    aiCalls: 300,
    scalingEvents: [1_000_000, 3_000_000, 10_000_000],
  },
};

export const isScaleName = (s: string): s is ScaleName => s in SCALES;

/** The data set of one point of the scaling series: the main one with fewer events. */
export const scaledDataset = (base: DatasetSize, events: number): DatasetSize => ({ ...base, events, inflowLogs: events * 3 });
