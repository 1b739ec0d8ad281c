import type { BenchContext } from '../context.ts';
import type { MainDataset } from '../dataset/main-dataset.ts';
import { seededDraw } from '../dataset/seeded-random.ts';
import { elapsedMs, summarise } from '../infra/percentiles.ts';
import { count, measuredRow, ms, NotAvailable, round, type BenchRow } from '../report/rows.ts';

export const AI_TARGET = 'p95 ≤ 50 ms';
const PATH = '/v2/goods/ai/getAiGoodsAutoFill';

/**
 * Product names as sellers type them: goods names of the data set, some shortened or with the
 * spacing changed, so the brand and category matchers do real work.
 */
async function productNames(ds: MainDataset, n: number, seed: number): Promise<string[]> {
  const [rows] = (await ds.knex.raw('SELECT goods_nm FROM goods ORDER BY goods_no LIMIT 500')) as [{ goods_nm: string }[]];
  if (!rows.length) throw new Error('the data set has no goods');
  const draw = seededDraw(seed ^ 0xa1);
  return Array.from({ length: n }, () => {
    const name = draw.pick(rows).goods_nm;
    const words = name.split(/\s+/);
    if (draw.chance(0.3) && words.length > 2) return words.slice(0, -1).join(' ');
    if (draw.chance(0.2)) return name.replace(/\s+/g, '');
    return name;
  });
}

/** One caller, one call after another: the latency of a single auto-fill as the seller waits for it. */
export async function measureAiAutoFill(ctx: BenchContext, ds: MainDataset): Promise<BenchRow[]> {
  const service = await ctx.backoffice();
  const names = await productNames(ds, ctx.scale.aiCalls, ctx.options.seed);
  const call = async (productName: string) => {
    const res = await fetch(`${service.baseUrl}${PATH}`, {
      method: 'POST',
      headers: { authorization: ctx.adminBearer, 'content-type': 'application/json' },
      body: JSON.stringify({ productName }),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => undefined)) as { error?: boolean; payload?: { stdCtgNo?: string; brandNo?: string } } | undefined,
    };
  };
  const probe = await call(names[0]!);
  if (probe.status === 404) throw new NotAvailable(`POST /api/bo${PATH} is not mounted yet (404)`);
  if (probe.status !== 200) throw new Error(`answered ${probe.status}: ${JSON.stringify(probe.body).slice(0, 200)}`);
  for (const n of names.slice(0, 5)) await call(n);

  const latencies: number[] = [];
  let failed = 0;
  let withCategory = 0;
  let withBrand = 0;
  for (const name of names) {
    const start = process.hrtime.bigint();
    const r = await call(name);
    latencies.push(elapsedMs(start));
    if (r.status !== 200 || r.body?.error) failed += 1;
    if (r.body?.payload?.stdCtgNo) withCategory += 1;
    if (r.body?.payload?.brandNo) withBrand += 1;
  }
  const s = summarise(latencies);
  return [
    measuredRow({
      section: 'ai',
      hotPath: `auto-fill, ${count(names.length)} product names, one caller`,
      measured: `p50 ${ms(s.p50)} / p95 ${ms(s.p95)} (category filled ${withCategory}, brand ${withBrand}, failed ${failed})`,
      target: AI_TARGET,
      checks: [
        { label: 'p95 ≤ 50 ms', ok: s.p95 <= 50 },
        { label: `no failed call (${failed})`, ok: failed === 0 },
      ],
      figures: { calls: names.length, p50Ms: round(s.p50), p95Ms: round(s.p95), p99Ms: round(s.p99), failed, withCategory, withBrand },
    }),
  ];
}
