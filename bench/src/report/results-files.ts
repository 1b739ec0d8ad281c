import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { SECTIONS, type BenchOptions } from '../options.ts';
import { renderTables, tally } from './render.ts';
import type { BenchRow } from './rows.ts';

export interface RunFacts {
  command: string;
  startedAt: string;
  durationMs: number;
  databaseVersion: string;
  dataset: Record<string, unknown>;
  /** Set while the run is still going: the sections not measured yet (the files are rewritten after each section). */
  pending?: string[];
}

export function environmentLine(dbVersion: string): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, ${dbVersion}`;
}

/**
 * `<out>/<date>-<scale>.json` (every figure) and `.md` (the tables); `--only` runs add
 * `-partial`, so they never overwrite a complete run of the same scale.
 */
export function writeResults(options: BenchOptions, rows: readonly BenchRow[], facts: RunFacts): { json: string; md: string } {
  mkdirSync(options.outDir, { recursive: true });
  const scale = `-${options.scale.name}`;
  const partial = options.sections.length < SECTIONS.length ? '-partial' : '';
  const base = `${options.date}${scale}${partial}`;
  const json = join(options.outDir, `${base}.json`);
  const md = join(options.outDir, `${base}.md`);
  const counts = tally(rows);
  writeFileSync(
    json,
    `${JSON.stringify(
      {
        date: options.date,
        scale: options.scale.name,
        seed: options.seed,
        command: facts.command,
        startedAt: facts.startedAt,
        durationSeconds: Math.round(facts.durationMs / 1000),
        environment: environmentLine(facts.databaseVersion),
        dataset: facts.dataset,
        tally: counts,
        ...(facts.pending?.length ? { pending: facts.pending } : {}),
        rows,
      },
      null,
      2,
    )}\n`,
  );
  const summary = Object.entries(counts)
    .filter(([, n]) => n)
    .map(([v, n]) => `${n} ${v}`)
    .join(', ');
  writeFileSync(
    md,
    [
      `# Benchmark ${options.date} (scale ${options.scale.name})`,
      '',
      `Command: \`${facts.command}\` — ${Math.round(facts.durationMs / 1000)} s, ${summary}.`,
      ...(facts.pending?.length ? [`Still running when written; sections not measured yet: ${facts.pending.join(', ')}.`] : []),
      `Machine: ${environmentLine(facts.databaseVersion)}.`,
      `Data set: ${Object.entries(facts.dataset)
        .map(([k, v]) => `${k} ${typeof v === 'number' ? v.toLocaleString('en-US') : String(v)}`)
        .join(', ')}.`,
      "Targets are the issue's full-scale targets on a 2-core machine; at smaller scales they are printed for orientation.",
      '',
      renderTables(rows),
      '',
    ].join('\n'),
  );
  return { json, md };
}
