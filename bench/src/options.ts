import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isScaleName, SCALES, type Scale } from './scales.ts';

export const SECTIONS = ['loading', 'aggregation', 'statistics', 'excel', 'staff-limit', 'overhead', 'copies', 'ai', 'scaling'] as const;
export type Section = (typeof SECTIONS)[number];

export interface BenchOptions {
  scale: Scale;
  seed: number;
  /** Server URL without a database: `mysql://root@127.0.0.1:3306/`. */
  serverUrl: string;
  boDb: string;
  memberDb: string;
  /** Prefix of the extra databases (Excel fixture, scaling points, loading scratch). */
  dbPrefix: string;
  outDir: string;
  date: string;
  sections: Section[];
  regenerate: boolean;
  /** Drop every benchmark database at the end (the CI smoke test). */
  drop: boolean;
  serviceLogLevel: string;
  /** Grow the server's InnoDB buffer pool to this many MB first (a global setting; off unless asked). */
  bufferPoolMb?: number;
  /** Grow the server's InnoDB redo log to this many MB first (a global setting; off unless asked). */
  redoLogMb?: number;
}

export const USAGE = `usage: pnpm bench [--scale tiny|small|medium|full] [--seed 42] [--db-prefix bench_<scale>] [--bo-db <prefix>_bo]
  [--member-db <prefix>_member] [--db-url mysql://root@127.0.0.1:3306/] [--out bench/results] [--date yyyy-MM-dd]
  [--only ${SECTIONS.join(',')}] [--regenerate] [--drop] [--service-log-level warn] [--innodb-buffer-pool-mb 4096] [--innodb-redo-log-mb 1024]`;

const localDate = (d = new Date()) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const NAME = /^[A-Za-z0-9_]+$/;

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv.filter((a) => a !== '--'),
    options: {
      scale: { type: 'string', default: 'small' },
      seed: { type: 'string', default: '42' },
      'db-prefix': { type: 'string' },
      'bo-db': { type: 'string' },
      'member-db': { type: 'string' },
      'db-url': { type: 'string', default: env.BENCH_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
      date: { type: 'string', default: localDate() },
      only: { type: 'string' },
      regenerate: { type: 'boolean', default: false },
      drop: { type: 'boolean', default: false },
      'service-log-level': { type: 'string', default: 'warn' },
      'innodb-buffer-pool-mb': { type: 'string' },
      'innodb-redo-log-mb': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new Error(USAGE);
  if (!isScaleName(values.scale)) throw new Error(`--scale must be tiny, small, medium or full (got "${values.scale}")\n${USAGE}`);
  const seed = Number(values.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a whole number ≥ 0 (got "${values.seed}")`);
  // One data set per scale: a small run does not throw away the full one (an hour to generate).
  const prefix = values['db-prefix'] ?? `bench_${values.scale}`;
  const boDb = values['bo-db'] ?? `${prefix}_bo`;
  const memberDb = values['member-db'] ?? `${prefix}_member`;
  for (const [flag, name] of [
    ['--db-prefix', prefix],
    ['--bo-db', boDb],
    ['--member-db', memberDb],
  ] as const) {
    if (!NAME.test(name)) throw new Error(`${flag} must be letters, digits or _ (got "${name}")`);
    if (['bo', 'member'].includes(name))
      throw new Error(`${flag} must not be the service database "${name}": the benchmark rewrites its data`);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(values.date)) throw new Error(`--date must be yyyy-MM-dd (got "${values.date}")`);
  const bufferPoolMb = values['innodb-buffer-pool-mb'] === undefined ? undefined : Number(values['innodb-buffer-pool-mb']);
  if (bufferPoolMb !== undefined && !(Number.isInteger(bufferPoolMb) && bufferPoolMb >= 128))
    throw new Error(`--innodb-buffer-pool-mb must be a whole number ≥ 128 (got "${values['innodb-buffer-pool-mb']}")`);
  const redoLogMb = values['innodb-redo-log-mb'] === undefined ? undefined : Number(values['innodb-redo-log-mb']);
  if (redoLogMb !== undefined && !(Number.isInteger(redoLogMb) && redoLogMb >= 8))
    throw new Error(`--innodb-redo-log-mb must be a whole number ≥ 8 (got "${values['innodb-redo-log-mb']}")`);
  const sections = values.only ? values.only.split(',').map((s) => s.trim()) : [...SECTIONS];
  const unknown = sections.filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`--only: unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);
  return {
    scale: SCALES[values.scale],
    seed,
    serverUrl: values['db-url'].replace(/\/[^/]*$/, '/'),
    boDb,
    memberDb,
    dbPrefix: prefix,
    outDir: values.out,
    date: values.date,
    sections: sections as Section[],
    regenerate: values.regenerate,
    drop: values.drop,
    serviceLogLevel: values['service-log-level'],
    ...(bufferPoolMb !== undefined ? { bufferPoolMb } : {}),
    ...(redoLogMb !== undefined ? { redoLogMb } : {}),
  };
}
