/** Nearest-rank percentile of a sample (p in 0..100); NaN for an empty sample. */
export function percentile(sample: readonly number[], p: number): number {
  if (!sample.length) return Number.NaN;
  const sorted = [...sample].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export const median = (sample: readonly number[]): number => percentile(sample, 50);

export interface LatencySummary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function summarise(latenciesMs: readonly number[]): LatencySummary {
  return {
    count: latenciesMs.length,
    p50: percentile(latenciesMs, 50),
    p95: percentile(latenciesMs, 95),
    p99: percentile(latenciesMs, 99),
    max: latenciesMs.length ? Math.max(...latenciesMs) : Number.NaN,
  };
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` value). */
export const elapsedMs = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;
