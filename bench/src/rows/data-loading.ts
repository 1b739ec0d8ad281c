import { chmodSync, createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropDatabase } from '@bo/db';
import { BO_SOURCE_TABLES } from '@bo/data-generator';
import type { BenchContext } from '../context.ts';
import { truncateAll } from '../dataset/marker.ts';
import { generate } from '../dataset/prepare.ts';
import { boMigrations, databaseUrl, extraDatabase, openMigrated } from '../infra/databases.ts';
import { elapsedMs } from '../infra/percentiles.ts';
import { createPool } from '../infra/sql-replay.ts';
import { count, measuredRow, round, seconds, times, type BenchRow } from '../report/rows.ts';
import { SCALES, scaledDataset } from '../scales.ts';

export const LOADING_TARGET = 'full set ≤ 5 min';
/**
 * The sample stays under the generator's 1 M-event switch to drop-and-rebuild indexes, so both
 * sides load into the same indexed tables.
 */
const SAMPLE_EVENTS = 900_000;
const FULL_EVENTS = SCALES.full.dataset.events;

/** Tables in load order: parents first, as the generator writes them. */
async function tablesWithRows(pool: ReturnType<typeof createPool>): Promise<{ table: string; rows: number }[]> {
  const out: { table: string; rows: number }[] = [];
  for (const table of BO_SOURCE_TABLES) {
    const [rows] = (await pool.query(`SELECT COUNT(*) AS n FROM \`${table}\``)) as unknown as [{ n: number }[]];
    if (Number(rows[0]!.n) > 0) out.push({ table, rows: Number(rows[0]!.n) });
  }
  return out;
}

/**
 * The generator writes a sample data set into a scratch database (timed by the generator);
 * its rows are then dumped to files and loaded back with plain `LOAD DATA LOCAL INFILE` into
 * the same, emptied tables: what loading costs without generating.
 */
export async function measureLoading(ctx: BenchContext): Promise<BenchRow[]> {
  const name = extraDatabase.loading(ctx.options);
  const url = databaseUrl(ctx.options, name);
  const size = scaledDataset(ctx.scale.dataset, Math.min(ctx.scale.dataset.events, SAMPLE_EVENTS));
  const knex = await openMigrated(url, boMigrations, 4);
  const pool = createPool(url, 1);
  const dir = mkdtempSync(join(tmpdir(), 'bench-load-'));
  // The server writes the dump files itself (SELECT … INTO OUTFILE).
  chmodSync(dir, 0o777);
  try {
    await truncateAll(knex);
    ctx.log(`  loading: generator, ${count(size.events)} events sample into ${name}`);
    const gen = await generate(url, size, ctx.options.seed, '2025-12-31', ctx.log);
    const genRows = Object.values(gen.counts).reduce((a, b) => a + b, 0);
    const genMs = gen.seconds * 1000;

    const tables = await tablesWithRows(pool);
    for (const { table } of tables) {
      await pool.query(`SELECT * INTO OUTFILE '${join(dir, `${table}.tsv`)}' CHARACTER SET utf8mb4 FROM \`${table}\``);
    }
    await truncateAll(knex);
    ctx.log(`  loading: LOAD DATA LOCAL INFILE of the same ${count(tables.reduce((n, t) => n + t.rows, 0))} rows`);
    const start = process.hrtime.bigint();
    let loaded = 0;
    for (const { table } of tables) {
      const file = join(dir, `${table}.tsv`);
      const [res] = (await pool.query({
        sql: `LOAD DATA LOCAL INFILE '${table}.tsv' INTO TABLE \`${table}\` CHARACTER SET utf8mb4`,
        infileStreamFactory: () => createReadStream(file),
      })) as unknown as [{ affectedRows: number }];
      loaded += res.affectedRows;
    }
    const loadMs = elapsedMs(start);

    const genRate = (genRows / genMs) * 1000;
    const loadRate = (loaded / loadMs) * 1000;
    const fullRows = genRows * (FULL_EVENTS / size.events);
    const estFullMs = (fullRows / genRate) * 1000;
    const rows: BenchRow[] = [
      measuredRow({
        section: 'loading',
        hotPath: `generator, ${count(size.events)}-event sample (${count(genRows)} rows, ${gen.method ?? 'default'} method)`,
        measured: `${count(genRate)} rows/s (${seconds(genMs)}); full set est. ${seconds(estFullMs)}`,
        reference: `LOAD DATA LOCAL of the same rows ${count(loadRate)} rows/s (${seconds(loadMs)})`,
        ratio: `${times(genRate / loadRate)} LOAD DATA`,
        target: LOADING_TARGET,
        checks: [{ label: `full set est. ≤ 5 min (${seconds(estFullMs)})`, ok: estFullMs <= 300_000 }],
        figures: {
          sampleEvents: size.events,
          generatorRows: genRows,
          generatorMs: round(genMs),
          generatorRowsPerSecond: round(genRate),
          loadDataRows: loaded,
          loadDataMs: round(loadMs),
          loadDataRowsPerSecond: round(loadRate),
          estimatedFullSetMs: round(estFullMs),
        },
        note: `full-set estimate = ${count(fullRows)} rows at the sample's rate (index rebuild from 1 M events on is not in the sample)`,
      }),
    ];
    const ds = ctx.dataset;
    if (!('unavailable' in ds) && ds.generation) {
      const full = ds.size.events === FULL_EVENTS;
      rows.push(
        measuredRow({
          section: 'loading',
          hotPath: `generator, main data set (${count(ds.generation.rows)} rows)`,
          measured: `${seconds(ds.generation.ms)} (${count((ds.generation.rows / ds.generation.ms) * 1000)} rows/s)`,
          target: LOADING_TARGET,
          checks: full ? [{ label: '≤ 5 min', ok: ds.generation.ms <= 300_000 }] : [],
          figures: {
            rows: ds.generation.rows,
            ms: round(ds.generation.ms),
            generatedAt: ds.generation.at,
            generatedInThisRun: ds.generatedNow,
          },
          ...(ds.generatedNow ? {} : { note: `generated by an earlier run at ${ds.generation.at}, reused` }),
        }),
      );
    }
    return rows;
  } finally {
    await pool.end();
    await knex.destroy();
    await dropDatabase(url);
    rmSync(dir, { recursive: true, force: true });
  }
}
