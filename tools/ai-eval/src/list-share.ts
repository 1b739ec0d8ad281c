import type { AddressInfo } from 'node:net';
import { boMigrations } from '@bo/aggregates';
import { rebuildAggregate } from '@bo/aggregation-worker';
import { createBackofficeApp, loadBackofficeConfig } from '@bo/backoffice';
import { seedDemo } from '@bo/data-generator';
import { addDays, eachDay, platformToday } from '@bo/db';
import { ADMIN, bearer, createTestDatabase, TEST_JWT_SECRET, testLogger } from '@bo/testing';

/**
 * `pnpm --filter @bo/ai-eval list-share`: how many goods the recommended goods list names at each
 * `AI_LIST_MIN_SCORE`, on the demo data set of `pnpm start` with the window's `inflow` and
 * `goods` days built (in a throw-away database), so the default threshold can be checked against
 * the share a person can work through (5-15 %).
 */
const THRESHOLDS = [25, 30, 35, 40, 45, 50];
const DEFAULT = loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET }).AI_LIST_MIN_SCORE;
const db = await createTestDatabase('ai_share', boMigrations);
try {
  console.error('loading the demo data set…');
  await seedDemo({ boUrl: db.url });
  const today = platformToday('Asia/Seoul');
  const days = eachDay(addDays(today, -31), addDays(today, -1));
  console.error(`building inflow and goods for ${days.length} days…`);
  for (const day of days)
    for (const kind of ['inflow', 'goods'] as const) await rebuildAggregate(db.knex, { kind, day, requestedBy: 'cli' });
  const [{ n }] = (await db.knex('goods').count({ n: '*' })) as [{ n: number | string }];
  const goods = Number(n);
  for (const min of THRESHOLDS) {
    const config = loadBackofficeConfig({ NODE_ENV: 'test', JWT_SECRET: TEST_JWT_SECRET, AI_LIST_MIN_SCORE: String(min) });
    const server = createBackofficeApp({ config, logger: testLogger(), knex: db.knex }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/bo/v2/goods/ai/getAiGoodsList?pageSize=1`, {
        headers: { authorization: bearer(ADMIN) },
      });
      const body = (await res.json()) as { payload?: { totalCount?: number } };
      const listed = body.payload?.totalCount ?? 0;
      console.log(
        `AI_LIST_MIN_SCORE ${min}: ${listed} of ${goods} goods (${((listed / goods) * 100).toFixed(1)} %)${min === DEFAULT ? '  ← default' : ''}`,
      );
    } finally {
      server.close();
    }
  }
} finally {
  await db.drop();
}
process.exit(0);
