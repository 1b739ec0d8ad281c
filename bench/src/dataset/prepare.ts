import { addDays, dropDatabase, platformToday, type Knex } from '@bo/db';
import { seedDatabases, type SeedResult } from '@bo/data-generator';
import { boMigrations, databaseUrl, openMigrated } from '../infra/databases.ts';
import type { BenchOptions } from '../options.ts';
import type { DatasetSize } from '../scales.ts';
import { datasetSpec, type DatasetInfo, type MainDataset, type Samples } from './main-dataset.ts';
import { readMarker, writeMarker } from './marker.ts';
import { syncSchema } from './schema-sync.ts';

/** Run the generator with progress every ~15 s; the time is the generator's own. */
export async function generate(
  url: string,
  size: DatasetSize,
  seedNo: number,
  endDate: string,
  log: (l: string) => void,
): Promise<SeedResult> {
  let last = Date.now();
  return seedDatabases({
    boUrl: url,
    seed: seedNo,
    days: size.days,
    goods: size.goods,
    events: size.events,
    endDate,
    onProgress: (p) => {
      if (p.phase === 'step') log(`    generator: ${p.message}`);
      else if (p.phase === 'activity' && Date.now() - last > 15_000) {
        last = Date.now();
        log(`    generator: day ${p.day}/${p.days}, ${p.rows.toLocaleString('en-US')} rows`);
      }
    },
  });
}

async function tableCounts(knex: Knex): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of ['goods', 'ord', 'ord_stat_evt', 'goods_inflow_log']) {
    const [rows] = (await knex.raw(`SELECT COUNT(*) AS n FROM \`${t}\``)) as [{ n: number }[]];
    out[t] = Number(rows[0]!.n);
  }
  return out;
}

async function dayBounds(knex: Knex): Promise<{ firstDay: string; lastDay: string }> {
  const [rows] = (await knex.raw('SELECT MIN(evt_dtm) AS a, MAX(evt_dtm) AS b FROM ord_stat_evt')) as [
    { a: string | null; b: string | null }[],
  ];
  if (!rows[0]?.a || !rows[0].b) throw new Error('the generated data set has no order events');
  return { firstDay: rows[0].a.slice(0, 10), lastDay: rows[0].b.slice(0, 10) };
}

const first = async (knex: Knex, sql: string): Promise<string> => {
  const [rows] = (await knex.raw(sql)) as [Record<string, string>[]];
  const v = rows[0] ? Object.values(rows[0])[0] : undefined;
  if (v === undefined || v === null) throw new Error(`no sample value from: ${sql}`);
  return String(v);
};

/** Filter values with plenty of rows behind them: the busiest site, supplier, brand, goods, MD, payment method; a top category. */
async function pickSamples(knex: Knex): Promise<Samples> {
  return {
    siteNo: await first(knex, 'SELECT site_no FROM ord GROUP BY site_no ORDER BY COUNT(*) DESC, site_no LIMIT 1'),
    stdCtgNo: await first(
      knex,
      `SELECT r.std_ctg_no FROM std_ctg r JOIN std_ctg c ON c.upr_std_ctg_no = r.std_ctg_no
        WHERE r.upr_std_ctg_no IS NULL GROUP BY r.std_ctg_no ORDER BY COUNT(*) DESC, r.std_ctg_no LIMIT 1`,
    ),
    mdId: await first(knex, 'SELECT md_id FROM goods WHERE md_id IS NOT NULL GROUP BY md_id ORDER BY COUNT(*) DESC, md_id LIMIT 1'),
    entrNo: await first(knex, 'SELECT entr_no FROM goods GROUP BY entr_no ORDER BY COUNT(*) DESC, entr_no LIMIT 1'),
    brandNo: await first(
      knex,
      'SELECT brand_no FROM goods WHERE brand_no IS NOT NULL GROUP BY brand_no ORDER BY COUNT(*) DESC, brand_no LIMIT 1',
    ),
    goodsNo: await first(
      knex,
      'SELECT goods_no FROM ord_stat_evt WHERE evt_no <= 50000 GROUP BY goods_no ORDER BY COUNT(*) DESC, goods_no LIMIT 1',
    ),
    payWayCd: await first(knex, 'SELECT pay_way_cd FROM ord GROUP BY pay_way_cd ORDER BY COUNT(*) DESC, pay_way_cd LIMIT 1'),
  };
}

/**
 * A bo database holding a generated data set of `size`: reused when its marker says it holds
 * exactly that (and `regenerate` is off), generated otherwise. The last day is `endDate` when
 * given (then part of what must match), else yesterday at generation time; it is generated whole.
 */
export async function prepareDataset(
  options: BenchOptions,
  name: string,
  size: DatasetSize,
  log: (l: string) => void,
  endDate?: string,
): Promise<MainDataset> {
  const url = databaseUrl(options, name);
  let knex = await openMigrated(url, boMigrations, 10);
  try {
    const spec = datasetSpec({ size, seed: options.seed, ...(endDate ? { endDate } : {}) });
    const marker = await readMarker<DatasetInfo>(knex);
    let info: DatasetInfo;
    let generatedNow = false;
    const sync = marker?.spec === spec && !options.regenerate ? await syncSchema(options, knex, name, log) : 'columns-differ';
    if (sync !== 'columns-differ') {
      info = marker!.info;
      if (sync === 'aggregates-reset') delete info.aggregatedAt;
      log(`  data set ${name}: reusing ${info.rows.ord_stat_evt?.toLocaleString('en-US')} events, ${info.firstDay}..${info.lastDay}`);
    } else {
      if (marker?.spec === spec && !options.regenerate) log(`  data set ${name}: its columns differ from the current migrations`);
      log(
        `  data set ${name}: generating ${size.events.toLocaleString('en-US')} events, ${size.goods.toLocaleString('en-US')} goods, ${size.days} days`,
      );
      // A fresh database, so the tables are exactly what the current migrations make.
      await knex.destroy();
      await dropDatabase(url);
      knex = await openMigrated(url, boMigrations, 10);
      const at = new Date().toISOString();
      const out = await generate(url, size, options.seed, endDate ?? addDays(platformToday('Asia/Seoul'), -1), log);
      const rows = Object.values(out.counts).reduce((a, b) => a + b, 0);
      info = { ...(await dayBounds(knex)), rows: await tableCounts(knex), generation: { ms: out.seconds * 1000, rows, at } };
      await writeMarker(knex, spec, info);
      generatedNow = true;
    }
    return {
      ...info,
      name,
      url,
      size,
      seed: options.seed,
      ...(endDate ? { endDate } : {}),
      generatedNow,
      samples: await pickSamples(knex),
      knex,
    };
  } catch (err) {
    await knex.destroy();
    throw err;
  }
}

export const prepareMainDataset = (options: BenchOptions, log: (l: string) => void): Promise<MainDataset> =>
  prepareDataset(options, options.boDb, options.scale.dataset, log);
