import { bearer, freePort } from '@bo/testing';
import { spawnService, type ChildService } from './infra/child-service.ts';
import { databaseUrl } from './infra/databases.ts';
import type { BenchOptions } from './options.ts';
import { progressLine } from './report/render.ts';
import { failedRow, NotAvailable, unavailableRow, type BenchRow } from './report/rows.ts';
import type { Scale } from './scales.ts';
import type { MainDataset } from './dataset/main-dataset.ts';

/** The HS256 secret the benchmark's services are started with; tokens are signed with it. */
export const BENCH_JWT_SECRET = 'bench-secret-0123456789-abcdefghij';

export interface BenchContext {
  options: BenchOptions;
  scale: Scale;
  log: (line: string) => void;
  rows: BenchRow[];
  add: (row: BenchRow) => void;
  /** The main data set, or why there is none. */
  dataset: MainDataset | { unavailable: string };
  /** `Authorization` value of a BO_ADMIN user. */
  adminBearer: string;
  boUrl: string;
  memberUrl: string;
  /** Environment of a back-office process on a given bo database. */
  backofficeEnv: (boDatabaseUrl: string, port: number) => Record<string, string>;
  /** The back-office process on the main data set, started on first use and shared by the sections; it computes every answer (no answer cache). */
  backoffice: () => Promise<ChildService>;
  /** A second one with the aggregate-list answer cache on (Redis), for the warm figures. */
  cachingBackoffice: () => Promise<ChildService>;
  stopAll: () => Promise<void>;
}

export function createContext(options: BenchOptions, dataset: BenchContext['dataset'], log: (line: string) => void): BenchContext {
  const rows: BenchRow[] = [];
  const boUrl = databaseUrl(options, options.boDb);
  const memberUrl = databaseUrl(options, options.memberDb);
  const backofficeEnv = (boDatabaseUrl: string, port: number): Record<string, string> => ({
    BO_DATABASE_URL: boDatabaseUrl,
    BO_PORT: String(port),
    JWT_SECRET: BENCH_JWT_SECRET,
    LOG_LEVEL: options.serviceLogLevel,
    REDIS_PREFIX: `${options.dbPrefix}-bench`,
    // One caller sends hundreds of auto-fills a minute: the per-user AI rate limit would refuse them.
    AI_RATE_LIMIT_PER_MINUTE: '0',
    // Cold figures: every request computes its answer (the warm ones use cachingBackoffice).
    STATISTICS_ANSWER_CACHE_SECONDS: '0',
  });
  const started: Promise<ChildService>[] = [];
  const spawnBackoffice = (env: Record<string, string>) => {
    const service = freePort().then((port) =>
      spawnService({
        name: 'backoffice',
        script: 'services/backoffice/src/main.ts',
        env: { ...backofficeEnv(boUrl, port), ...env },
        port,
        prefix: '/api/bo',
        healthPath: '/health',
      }),
    );
    started.push(service);
    return service;
  };
  let shared: Promise<ChildService> | undefined;
  let caching: Promise<ChildService> | undefined;
  return {
    options,
    scale: options.scale,
    log,
    rows,
    add: (row) => {
      rows.push(row);
      log(progressLine(row));
    },
    dataset,
    adminBearer: bearer({ sub: 'bench-admin', workGrpCd: 'BO_ADMIN' }, { secret: BENCH_JWT_SECRET, expiresIn: 24 * 3600 }),
    boUrl,
    memberUrl,
    backofficeEnv,
    backoffice: () => (shared ??= spawnBackoffice({})),
    // A fresh Redis prefix per run, so no entry of an earlier run is found.
    cachingBackoffice: () =>
      (caching ??= spawnBackoffice({ STATISTICS_ANSWER_CACHE_SECONDS: '300', REDIS_PREFIX: `${options.dbPrefix}-bench-${Date.now()}` })),
    stopAll: async () => {
      for (const s of started) await s.then((c) => c.stop()).catch(() => undefined);
    },
  };
}

/**
 * Run one section's measurement; whatever it throws becomes a row instead of ending the run
 * (a missing piece is N/A, anything else ERROR).
 */
export async function guarded(
  ctx: BenchContext,
  section: string,
  hotPath: string,
  target: string,
  measure: () => Promise<BenchRow[]>,
): Promise<void> {
  try {
    for (const row of await measure()) ctx.add(row);
  } catch (err) {
    ctx.add(err instanceof NotAvailable ? unavailableRow(section, hotPath, target, err.message) : failedRow(section, hotPath, target, err));
  }
}
