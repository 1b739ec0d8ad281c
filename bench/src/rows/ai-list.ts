import { performance } from 'node:perf_hooks';
import type autocannon from 'autocannon';
import { recomputeAiWindow } from '@bo/aggregation-worker';
import { AI_LIST_WINDOW_DAYS_DEFAULT, AI_WINDOW_TABLES, aiWindowSumsCurrent, type AiWindow } from '@bo/aggregates';
import type { BenchContext } from '../context.ts';
import type { MainDataset } from '../dataset/main-dataset.ts';
import { startCaptureApp, type CaptureApp, type HttpCall } from '../infra/capture-app.ts';
import { failures, runLoad, statusText } from '../infra/http-load.ts';
import { cpus, loadavg } from 'node:os';
import { median, summarise } from '../infra/percentiles.ts';
import { createPool, replayUnderLoad, timeRuns, type Pool } from '../infra/sql-replay.ts';
import { count, measuredRow, ms, NotAvailable, round, times, type BenchRow } from '../report/rows.ts';

export const AI_LIST_P95_MS = 300;
export const AI_LIST_TARGET = `p95 ≤ ${AI_LIST_P95_MS} ms under 8 clients (20,000 goods)`;
const CLIENTS = 8;
const PATH = '/v2/goods/ai/getAiGoodsList';
/** The back-office's defaults, as the bench starts it: PLATFORM_TIME_ZONE and AI_LIST_WINDOW_DAYS. */
const TIME_ZONE = 'Asia/Seoul';
const WINDOW_DAYS = AI_LIST_WINDOW_DAYS_DEFAULT;

/** Where the list read its demand from while measured: the worker's window sums, or summed per request. */
type Demand = 'stored sums' | 'live sums';

const demandRead = async (ds: MainDataset, w: AiWindow): Promise<Demand> =>
  (await aiWindowSumsCurrent(ds.knex, w)) ? 'stored sums' : 'live sums';

interface ListCase {
  label: string;
  params: Record<string, string>;
  /** Each request asks the next of pages 1…N in turn, so the clients' requests differ (no shared reads). */
  rotatePages?: number;
}

/**
 * The requests a merchandiser's screen sends: the default one (first page of 100, no condition)
 * and one narrowed the usual way (a top-level category with its subtree, on sale, registered
 * within the data set's year).
 */
async function listCases(ds: MainDataset): Promise<ListCase[]> {
  // The sample leaf's top-level ancestor: a condition that still leaves a large share of the catalogue.
  const [rows] = (await ds.knex.raw(
    `SELECT COALESCE(c3.std_ctg_no, c2.std_ctg_no, c1.std_ctg_no, c0.std_ctg_no) AS top
       FROM std_ctg c0
       LEFT JOIN std_ctg c1 ON c1.std_ctg_no = c0.upr_std_ctg_no
       LEFT JOIN std_ctg c2 ON c2.std_ctg_no = c1.upr_std_ctg_no
       LEFT JOIN std_ctg c3 ON c3.std_ctg_no = c2.upr_std_ctg_no
      WHERE c0.std_ctg_no = ?`,
    [ds.samples.stdCtgNo],
  )) as [{ top: string }[]];
  const top = rows[0]?.top ?? ds.samples.stdCtgNo;
  return [
    { label: 'default request (page 1 of 100, no condition)', params: { page: '1', pageSize: '100' } },
    // The default request again, but the 8 clients ask pages 1–8 in turn: what each read costs
    // when identical requests do not arrive together (the service shares only identical ones).
    { label: 'pages 1–8 of 100 in turn (no condition)', params: { page: '1', pageSize: '100' }, rotatePages: 8 },
    {
      label: `category ${top} with its subtree, on sale, registered ${ds.firstDay}–${ds.lastDay}`,
      params: { stdCtgNo: top, saleStatCd: '10', goodsRegStartDtm: ds.firstDay, goodsRegEndDtm: ds.lastDay, page: '1', pageSize: '100' },
    },
  ];
}

interface ListAnswer {
  error?: boolean;
  payload?: { totalCount?: number; payloads?: unknown[] };
}

async function measureCase(
  ctx: BenchContext,
  ds: MainDataset,
  serviceUrl: string,
  capture: CaptureApp,
  bare: Pool,
  c: ListCase,
  demand: { read: Demand; want: Demand; figures: Record<string, number | null> },
) {
  const call: HttpCall = { method: 'GET', path: `${PATH}?${new URLSearchParams(c.params).toString()}`, auth: ctx.adminBearer };
  const probe = await fetch(`${serviceUrl}${call.path}`, { headers: { authorization: call.auth } });
  const probeText = await probe.text();
  if (probe.status === 404) throw new NotAvailable(`GET /api/bo${PATH} is not mounted yet (404)`);
  if (probe.status !== 200) throw new Error(`answered ${probe.status}: ${probeText.slice(0, 200)}`);
  const answer = JSON.parse(probeText) as ListAnswer;

  // The SQL the operation sent, learned from an in-process app on the same database.
  const captured = await capture.capture(call);
  if (captured.status !== 200) throw new Error(`in-process capture answered ${captured.status}`);

  // One client alone, before the load: what a request costs without a queue (the machine may be shared).
  const solo = median(
    await timeRuns(ctx.scale.warmup ? 5 : 1, async () => {
      const res = await fetch(`${serviceUrl}${call.path}`, { headers: { authorization: call.auth } });
      await res.arrayBuffer();
    }),
  );
  const loadAverage = loadavg()[0]!;
  let sent = 0;
  const rotate = c.rotatePages;
  const listPath = new URL(`${serviceUrl}${PATH}`).pathname;
  const load = {
    url: `${serviceUrl}${call.path}`,
    method: 'GET' as const,
    headers: { authorization: call.auth },
    connections: CLIENTS,
    maxSeconds: ctx.scale.caseSeconds,
    ...(rotate
      ? {
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            path: `${listPath}?${new URLSearchParams({ ...c.params, page: String((sent++ % rotate) + 1) }).toString()}`,
          }),
        }
      : {}),
  };
  if (ctx.scale.warmup) await runLoad({ ...load, amount: CLIENTS });
  const http = await runLoad({ ...load, amount: ctx.scale.statRequests });
  if (ctx.scale.warmup) await replayUnderLoad(bare, captured.script, CLIENTS, CLIENTS, ctx.scale.caseSeconds);
  const sql = summarise(await replayUnderLoad(bare, captured.script, ctx.scale.statRequests, CLIENTS, ctx.scale.caseSeconds));
  const failed = failures(http);
  const ratio = http.latency.p95 / sql.p95;
  const total = Number(answer.payload?.totalCount ?? 0);
  const goods = ds.rows.goods ?? 0;
  return measuredRow({
    section: 'ai',
    hotPath: `recommended list, ${c.label}, demand from ${demand.want}, ${CLIENTS} clients`,
    measured: `p50 ${ms(http.latency.p50)} / p95 ${ms(http.latency.p95)} (${http.latency.count} req; ${ms(solo)} alone; ${count(total)} of ${count(goods)} goods recommended)`,
    reference: `bare SQL ${ms(sql.p50)} / ${ms(sql.p95)} (${captured.statements} stmt, ${CLIENTS} loops)`,
    ratio: `${times(ratio)} SQL (p95)`,
    target: AI_LIST_TARGET,
    checks: [
      { label: `p95 ≤ ${AI_LIST_P95_MS} ms`, ok: http.latency.p95 <= AI_LIST_P95_MS },
      ...(failed ? [{ label: `every response 200 (${statusText(http)})`, ok: false }] : []),
      ...(answer.error ? [{ label: 'answer without error', ok: false }] : []),
      { label: `demand read from the ${demand.want}`, ok: demand.read === demand.want },
    ],
    figures: {
      request: new URLSearchParams(c.params).toString(),
      requests: http.latency.count,
      failedResponses: failed,
      p50Ms: round(http.latency.p50),
      p95Ms: round(http.latency.p95),
      p99Ms: round(http.latency.p99),
      soloMs: round(solo),
      loadAverage1m: round(loadAverage),
      bareRuns: sql.count,
      bareP50Ms: round(sql.p50),
      bareP95Ms: round(sql.p95),
      statements: captured.statements,
      ratioToSqlP95: round(ratio, 3),
      recommended: total,
      goods,
      rowsOnPage: answer.payload?.payloads?.length ?? 0,
      demand: demand.read,
      ...demand.figures,
    },
    note: `1-min load average ${loadAverage.toFixed(1)} on ${cpus().length} cores as the load started (other processes share the machine)`,
  });
}

/**
 * `getAiGoodsList` through the real service under 8 clients, next to the same SQL (captured
 * from an in-process app) replayed bare on a mysql2 pool under 8 loops in the same run.
 * The list reads demand from the aggregates, so the caller builds them first. Each case runs
 * twice: with the window's demand sums as the worker keeps them (summed once here, timed, as
 * the worker does after a build of a window day), then with their version row gone, so the list
 * sums the aggregates per request as before.
 */
export async function measureAiList(ctx: BenchContext, ds: MainDataset): Promise<BenchRow[]> {
  const service = await ctx.backoffice();
  const capture = await startCaptureApp(ds.url);
  const bare = createPool(ds.url, 10);
  try {
    const rows: BenchRow[] = [];
    const cases = await listCases(ds);
    const started = performance.now();
    const summed = await recomputeAiWindow(ds.knex, { timeZone: TIME_ZONE, days: WINDOW_DAYS, now: () => new Date() });
    const figures = { windowRecomputeMs: round(performance.now() - started), windowGoods: summed.goods };
    const { window } = summed;
    for (const c of cases) {
      const read = await demandRead(ds, window);
      rows.push(await measureCase(ctx, ds, service.baseUrl, capture, bare, c, { read, want: 'stored sums', figures }));
    }
    await ds.knex(AI_WINDOW_TABLES.version).where({ to_dt: window.toDay, days: window.days }).delete();
    for (const c of cases) {
      const read = await demandRead(ds, window);
      rows.push(await measureCase(ctx, ds, service.baseUrl, capture, bare, c, { read, want: 'live sums', figures }));
    }
    return rows;
  } finally {
    await capture.close();
    await bare.end();
  }
}
