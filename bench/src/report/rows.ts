/**
 * One line of the benchmark table: a hot path, its figure, the reference measured in the same
 * run, their ratio, the target and whether it was met. A row whose piece is missing (not built
 * yet, or failing) still appears, with the reason instead of a figure.
 */
export type Verdict = 'PASS' | 'MISS' | 'INFO' | 'N/A' | 'ERROR';

export interface Check {
  /** What was compared, e.g. `p95 ≤ 150 ms`. */
  label: string;
  ok: boolean;
}

export interface BenchRow {
  section: string;
  hotPath: string;
  measured: string;
  reference: string;
  ratio: string;
  target: string;
  verdict: Verdict;
  checks: Check[];
  /** Why there is no figure (N/A: the piece is not there; ERROR: it failed while measured). */
  reason?: string;
  /** Raw numbers for the JSON file. */
  figures: Record<string, number | string | boolean | null>;
  note?: string;
}

export interface RowInput {
  section: string;
  hotPath: string;
  measured: string;
  reference?: string;
  ratio?: string;
  target: string;
  checks: Check[];
  figures: BenchRow['figures'];
  note?: string;
}

/** A measured row: PASS when every check holds, MISS otherwise, INFO when nothing is checked. */
export function measuredRow(input: RowInput): BenchRow {
  const verdict: Verdict = !input.checks.length ? 'INFO' : input.checks.every((c) => c.ok) ? 'PASS' : 'MISS';
  return { reference: '—', ratio: '—', ...input, verdict };
}

export function unavailableRow(section: string, hotPath: string, target: string, reason: string): BenchRow {
  return {
    section,
    hotPath,
    measured: `not available: ${reason}`,
    reference: '—',
    ratio: '—',
    target,
    verdict: 'N/A',
    checks: [],
    reason,
    figures: {},
  };
}

export function failedRow(section: string, hotPath: string, target: string, err: unknown): BenchRow {
  // A failed statement's message is its (multi-line) SQL, then ` - ` and the server's error: keep both ends.
  const lines = (err as Error)?.message?.split('\n') ?? [String(err)];
  const reason = lines.length > 1 ? `${lines[0]} … ${lines[lines.length - 1]!.slice(-300)}` : lines[0]!;
  return {
    section,
    hotPath,
    measured: `failed: ${reason}`,
    reference: '—',
    ratio: '—',
    target,
    verdict: 'ERROR',
    checks: [],
    reason,
    figures: {},
  };
}

/** Raised by a measurement when the piece it needs is not there; becomes an N/A row. */
export class NotAvailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'NotAvailable';
  }
}

export const ms = (v: number): string => (!Number.isFinite(v) ? '—' : v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(1)} ms`);
export const seconds = (vMs: number): string => (!Number.isFinite(vMs) ? '—' : `${(vMs / 1000).toFixed(vMs >= 100_000 ? 0 : 2)} s`);
export const times = (v: number): string => (!Number.isFinite(v) ? '—' : v >= 10 ? `${Math.round(v)}×` : `${v.toFixed(2)}×`);
export const count = (v: number): string => (!Number.isFinite(v) ? '—' : Math.round(v).toLocaleString('en-US'));
export const round = (v: number, digits = 2): number | null => (Number.isFinite(v) ? Number(v.toFixed(digits)) : null);
