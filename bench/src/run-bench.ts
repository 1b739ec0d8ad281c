/** The benchmark run itself, loaded by `bench.ts` once the options parse. */
import { createKnex, type Knex } from '@bo/db';
import { createContext } from './context.ts';
import { prepareMainDataset } from './dataset/prepare.ts';
import { databaseUrl, dropBenchDatabases } from './infra/databases.ts';
import type { BenchOptions } from './options.ts';
import { renderTables, tally } from './report/render.ts';
import { environmentLine, writeResults } from './report/results-files.ts';
import { SECTION_RUNNERS } from './sections.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

const megabytes = async (knex: Knex, variable: string): Promise<number | undefined> => {
  const [rows] = (await knex.raw('SHOW GLOBAL VARIABLES LIKE ?', [variable])) as [{ Value: string }[]];
  return rows[0] ? Math.round(Number(rows[0].Value) / 2 ** 20) : undefined;
};

/** Set a global size in MB (an online resize) and wait until the server reports it. */
async function growTo(knex: Knex, variable: string, mb: number): Promise<void> {
  if (((await megabytes(knex, variable)) ?? 0) >= mb) return;
  log(`growing ${variable} to ${mb} MB (SET GLOBAL)`);
  await knex.raw(`SET GLOBAL ${variable} = ?`, [mb * 2 ** 20]);
  for (let i = 0; i < 120 && ((await megabytes(knex, variable)) ?? 0) < mb; i++) await new Promise((r) => setTimeout(r, 500));
}

/**
 * The server as the figures were taken: version, buffer pool and redo log. With
 * --innodb-buffer-pool-mb the pool is grown first (online resize), since the server default
 * (128 MB) turns a full-scale run into a disk benchmark; with --innodb-redo-log-mb the redo log,
 * since the default (96 / 100 MB) makes a full rebuild, which writes ~36 M rows, flush pages
 * at every few thousand rows to free the log (README, Performance).
 */
async function databaseServer(serverUrl: string, want: { bufferPoolMb?: number; redoLogMb?: number }): Promise<string> {
  const knex = createKnex(databaseUrl({ serverUrl }, ''), { poolMax: 1 });
  try {
    const [rows] = (await knex.raw('SELECT VERSION() AS v')) as [{ v: string }[]];
    const mariadb = rows[0]!.v.includes('MariaDB');
    const version = mariadb ? `MariaDB ${rows[0]!.v.split('-')[0]}` : `MySQL ${rows[0]!.v}`;
    // MariaDB (10.9+) sizes its redo log with innodb_log_file_size, MySQL 8.0.30+ with innodb_redo_log_capacity; both online.
    const redo = mariadb ? 'innodb_log_file_size' : 'innodb_redo_log_capacity';
    if (want.bufferPoolMb !== undefined) await growTo(knex, 'innodb_buffer_pool_size', want.bufferPoolMb);
    if (want.redoLogMb !== undefined) await growTo(knex, redo, want.redoLogMb);
    return `${version} (InnoDB buffer pool ${await megabytes(knex, 'innodb_buffer_pool_size')} MB, redo log ${await megabytes(knex, redo)} MB)`;
  } finally {
    await knex.destroy();
  }
}

/** The whole run with parsed options: every section, the table, the results files. */
export async function runBench(options: BenchOptions): Promise<void> {
  const started = Date.now();
  const command = `pnpm bench -- ${process.argv
    .slice(2)
    .filter((a) => a !== '--')
    .join(' ')}`.trim();
  const dbVersion = await databaseServer(options.serverUrl, options);
  log(`bench: scale ${options.scale.name}, seed ${options.seed}, databases ${options.boDb} / ${options.memberDb}`);
  log(`       ${environmentLine(dbVersion)}`);

  const dataset = await prepareMainDataset(options, log).catch((err: Error) => ({ unavailable: err.message }));
  if ('unavailable' in dataset) log(`  no main data set: ${dataset.unavailable}`);
  const ctx = createContext(options, dataset, log);
  // The files are written after every section, so a long full-scale run that is stopped keeps what it measured.
  const write = (pending: string[]) =>
    writeResults(options, ctx.rows, {
      command,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      databaseVersion: dbVersion,
      dataset:
        'unavailable' in dataset
          ? { unavailable: dataset.unavailable }
          : {
              database: dataset.name,
              events: dataset.rows.ord_stat_evt ?? 0,
              goods: dataset.rows.goods ?? 0,
              inflowLogs: dataset.rows.goods_inflow_log ?? 0,
              days: `${dataset.firstDay}..${dataset.lastDay}`,
            },
      pending,
    });
  try {
    for (const [i, section] of options.sections.entries()) {
      const began = Date.now();
      log(`\n▶ ${section}`);
      await SECTION_RUNNERS[section](ctx);
      log(`  (${section}: ${Math.round((Date.now() - began) / 1000)} s)`);
      write(options.sections.slice(i + 1));
    }
  } finally {
    await ctx.stopAll();
    if (!('unavailable' in dataset)) await dataset.knex.destroy();
  }

  const files = write([]);
  if (options.drop) log(`dropped ${(await dropBenchDatabases(options)).join(', ')}`);

  const counts = tally(ctx.rows);
  process.stdout.write(`\n${renderTables(ctx.rows)}\n\n`);
  process.stdout.write(
    `${Object.entries(counts)
      .map(([v, n]) => `${n} ${v}`)
      .join(', ')} — ${Math.round((Date.now() - started) / 1000)} s\n`,
  );
  process.stdout.write(`results: ${files.json}\n         ${files.md}\n`);
  // Pools of the services' libraries (ioredis, knex in imported modules) must not keep the run alive.
  process.exit(0);
}
