import { rebuildAggregate } from '@bo/aggregation-worker';
import { dropDatabase } from '@bo/db';
import type { BenchContext } from '../context.ts';
import { ensureExcelFixture } from '../dataset/excel-fixture.ts';
import { syncSchema } from '../dataset/schema-sync.ts';
import { freePort } from '@bo/testing';
import { spawnService, type ChildService } from '../infra/child-service.ts';
import { boMigrations, databaseUrl, extraDatabase, openMigrated } from '../infra/databases.ts';
import { elapsedMs, median } from '../infra/percentiles.ts';
import { count, measuredRow, NotAvailable, round, seconds, times, type BenchRow } from '../report/rows.ts';

export const EXCEL_TARGET = '≤ 5 s and ≤ 400 MB RSS';
const EXCEL_PATH = '/v1/statistics/goodsStatus/downloadGoodsStatusExcel';
const LIST_PATH = '/v1/statistics/goodsStatus/getGoodsStatusList';

interface Download {
  status: number;
  bytes: number;
  ms: number;
  contentType: string;
  body?: string;
}

/** Request and read the body to its last byte, keeping the text only when asked. */
async function download(url: string, auth: string, keepText = false): Promise<Download> {
  const start = process.hrtime.bigint();
  const res = await fetch(url, { headers: { authorization: auth } });
  let bytes = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    if (keepText) chunks.push(Buffer.from(chunk));
  }
  return {
    status: res.status,
    bytes,
    ms: elapsedMs(start),
    contentType: res.headers.get('content-type') ?? '',
    ...(keepText ? { body: Buffer.concat(chunks).toString('utf8') } : {}),
  };
}

interface Measured {
  runs: Download[];
  peakRssMb: number;
  idleRssMb: number;
}

/** A fresh process per kind of download, so its peak RSS is that download's alone. */
async function measureIn(ctx: BenchContext, url: string, path: string, query: string, runs: number, keepText: boolean): Promise<Measured> {
  const port = await freePort();
  const service: ChildService = await spawnService({
    name: 'backoffice (excel)',
    script: 'services/backoffice/src/main.ts',
    env: ctx.backofficeEnv(url, port),
    port,
    prefix: '/api/bo',
    healthPath: '/health',
  });
  try {
    // One small call first, so code loading is not counted as the download's memory.
    const warm = await download(`${service.baseUrl}${path}?${query}&goodsNo=XG000000001`, ctx.adminBearer);
    if (warm.status === 404) throw new NotAvailable(`GET /api/bo${path} is not mounted yet (404)`);
    const idleRssMb = service.rssMb();
    const out: Download[] = [];
    for (let i = 0; i < runs; i++) out.push(await download(`${service.baseUrl}${path}?${query}`, ctx.adminBearer, keepText && i === 0));
    return { runs: out, peakRssMb: service.peakRssMb(), idleRssMb };
  } finally {
    await service.stop();
  }
}

export async function measureExcelDownload(ctx: BenchContext): Promise<BenchRow[]> {
  const name = extraDatabase.excel(ctx.options);
  const url = databaseUrl(ctx.options, name);
  let knex = await openMigrated(url, boMigrations, 4);
  let fixture;
  try {
    const sync = await syncSchema(ctx.options, knex, name, ctx.log);
    if (sync === 'columns-differ') {
      await knex.destroy();
      await dropDatabase(url);
      knex = await openMigrated(url, boMigrations, 4);
    }
    fixture = await ensureExcelFixture(knex, ctx.scale.excelRows, rebuildAggregate, ctx.log);
    if (sync === 'aggregates-reset') await rebuildAggregate(knex, { kind: 'goods', day: fixture.day, requestedBy: 'cli' });
  } finally {
    await knex.destroy();
  }
  const query = `startDate=${fixture.day}&endDate=${fixture.day}&agrtGb=02&fileName=bench-goods`;
  const runs = ctx.scale.name === 'full' ? 3 : 2;
  ctx.log(`  excel: goods status list as Excel (${count(fixture.rows)} rows) and as JSON, ${runs} runs each`);
  const excel = await measureIn(ctx, url, EXCEL_PATH, query, runs, false);
  const json = await measureIn(ctx, url, LIST_PATH, query, runs, true);
  const bad = [...excel.runs, ...json.runs].filter((d) => d.status !== 200);
  if (bad.length) throw new Error(`downloads answered ${bad.map((d) => d.status).join(', ')}`);
  const listed = (JSON.parse(json.runs[0]!.body!) as { totalCount?: number }).totalCount;
  const excelMs = median(excel.runs.map((d) => d.ms));
  const jsonMs = median(json.runs.map((d) => d.ms));
  const rowsOk = listed === fixture.rows;
  return [
    measuredRow({
      section: 'excel',
      hotPath: `goods status Excel download, ${count(fixture.rows)} rows`,
      measured: `${seconds(excelMs)} to last byte, peak RSS ${Math.round(excel.peakRssMb)} MB (idle ${Math.round(excel.idleRssMb)} MB), ${(excel.runs[0]!.bytes / 1e6).toFixed(1)} MB file`,
      reference: `same list as JSON: ${seconds(jsonMs)}, peak RSS ${Math.round(json.peakRssMb)} MB`,
      ratio: `${times(excelMs / jsonMs)} JSON time, ${times(excel.peakRssMb / json.peakRssMb)} JSON RSS`,
      target: EXCEL_TARGET,
      checks: [
        { label: '≤ 5 s', ok: excelMs <= 5000 },
        { label: '≤ 400 MB RSS', ok: excel.peakRssMb <= 400 },
        { label: `JSON list has ${count(fixture.rows)} rows (got ${listed})`, ok: rowsOk },
      ],
      figures: {
        rows: fixture.rows,
        excelMs: round(excelMs),
        excelPeakRssMb: round(excel.peakRssMb, 1),
        excelIdleRssMb: round(excel.idleRssMb, 1),
        excelBytes: excel.runs[0]!.bytes,
        excelContentType: excel.runs[0]!.contentType,
        jsonMs: round(jsonMs),
        jsonPeakRssMb: round(json.peakRssMb, 1),
        jsonBytes: json.runs[0]!.bytes,
        jsonTotalCount: listed ?? null,
      },
    }),
  ];
}
