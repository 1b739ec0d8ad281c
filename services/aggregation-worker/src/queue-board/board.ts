import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Router } from 'express';
import type { Queues } from '../queue/queues.ts';

export const BOARD_PATH = '/admin/queues';
export const RERUN_PATH = '/admin/rerun';

/**
 * bull-board over both queues: ops retry failed or completed builds there; the schedule queue
 * is read-only apart from retries, since its jobs only come from the schedulers. A header link
 * leads to the rerun form.
 */
export function queueBoard(queues: Queues): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({
    queues: [
      new BullMQAdapter(queues.build, { description: 'one job per (aggregate, day[, hour])' }),
      new BullMQAdapter(queues.schedule, { description: 'daily, hourly and reconciliation runs', readOnlyMode: true, allowRetries: true }),
    ],
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Aggregation', miscLinks: [{ text: 'Rerun aggregates', url: RERUN_PATH }] } },
  });
  // The adapter declares its router as any; it is an Express router.
  return serverAdapter.getRouter() as Router;
}
