import { freePort, startNginxGateway } from '@bo/testing';
import type { BenchContext } from '../context.ts';
import type { MainDataset } from '../dataset/main-dataset.ts';
import { spawnService, type ChildService } from '../infra/child-service.ts';
import { failures, runLoad, statusText } from '../infra/http-load.ts';
import { count, measuredRow, ms, round, times, type BenchRow } from '../report/rows.ts';

export const COPIES_TARGET = 'measured (on 2 cores little gain is expected)';
const CONNECTIONS = 16;
const WARMUP_SECONDS = 3;

/**
 * Requests per second of a cheap report through the real nginx gateway (infra/gateway/nginx.conf)
 * with two back-office copies behind it, against the same gateway with one copy. Both copies and
 * the load generator share this machine's cores, so the ratio shows what a second copy gives
 * here; on a host with a core per copy the service's CPU stops being the limit.
 */
export async function measureCopies(ctx: BenchContext, ds: MainDataset): Promise<BenchRow[]> {
  const day = ds.lastDay;
  const path = `/api/bo/v1/statistics/payWayStatus/getPayWayStatusList?startDate=${day}&endDate=${day}&agrtGb=01`;
  const first = await ctx.backoffice();
  const port = await freePort();
  const second: ChildService = await spawnService({
    name: 'backoffice (second copy)',
    script: 'services/backoffice/src/main.ts',
    env: ctx.backofficeEnv(ds.url, port),
    port,
    prefix: '/api/bo',
    healthPath: '/health',
  });
  const portOf = (s: ChildService) => Number(new URL(s.baseUrl).port);
  const one = await startNginxGateway({ backoffice: [portOf(first)], member: [portOf(first)], worker: [portOf(first)] });
  const two = await startNginxGateway({ backoffice: [portOf(first), portOf(second)], member: [portOf(first)], worker: [portOf(first)] });
  try {
    const headers = { authorization: ctx.adminBearer };
    const seconds = ctx.scale.overheadSeconds;
    const warm = ctx.scale.warmup ? { durationSeconds: WARMUP_SECONDS } : { amount: CONNECTIONS * 4 };
    ctx.log(`  copies: payment-method list, one day, through nginx, ${seconds} s each, ${CONNECTIONS} connections`);
    const load = async (gatewayPort: number) => {
      const url = `http://127.0.0.1:${gatewayPort}${path}`;
      await runLoad({ url, headers, connections: CONNECTIONS, ...warm });
      return runLoad({ url, headers, connections: CONNECTIONS, durationSeconds: seconds });
    };
    const single = await load(one.port);
    const double = await load(two.port);
    if (failures(single) || failures(double))
      throw new Error(`failed responses: one copy ${statusText(single)}; two copies ${statusText(double)}`);
    const ratio = double.requestsPerSecond / single.requestsPerSecond;
    return [
      measuredRow({
        section: 'copies',
        hotPath: 'payment-method list, one day, through nginx: two back-office copies',
        measured: `${count(double.requestsPerSecond)} req/s (p50 ${ms(double.latency.p50)})`,
        reference: `one copy behind the same nginx ${count(single.requestsPerSecond)} req/s (p50 ${ms(single.latency.p50)})`,
        ratio: `${times(ratio)} one copy`,
        target: COPIES_TARGET,
        checks: [],
        figures: {
          requestsPerSecondTwoCopies: round(double.requestsPerSecond),
          requestsPerSecondOneCopy: round(single.requestsPerSecond),
          ratio: round(ratio, 3),
          connections: CONNECTIONS,
          seconds,
        },
      }),
    ];
  } finally {
    await one.stop();
    await two.stop();
    await second.stop();
  }
}
