import express, { Router } from 'express';
import { AppError, type Logger } from '@bo/service-kit';
import { describeTarget } from '../aggregation/model.ts';
import { planRerun } from '../aggregation/rerun-plan.ts';
import { enqueueBuilds } from '../queue/build-jobs.ts';
import type { Queues } from '../queue/queues.ts';
import { basicAuth } from './basic-auth.ts';
import { BOARD_PATH, queueBoard, RERUN_PATH } from './board.ts';
import { offlineEntryPage } from './entry-page.ts';
import { rerunFormPage, rerunQueuedPage, type FormField } from './rerun-page.ts';
import { formTokens, sameOriginOnly } from './same-origin.ts';

export interface QueueBoardDeps {
  queues: Queues;
  logger: Logger;
  credentials: { user: string; password: string };
  rerunMaxDays: number;
}

/**
 * Everything under /admin: basic auth first, then the same-origin check on every change, then
 * bull-board and the rerun form (whose POST also carries a form token).
 */
export function mountQueueBoard(router: Router, deps: QueueBoardDeps): void {
  const admin = Router();
  const tokens = formTokens();
  const settings = () => ({ token: tokens.issue(deps.credentials.user), maxDays: deps.rerunMaxDays });
  admin.use(basicAuth(deps.credentials));
  admin.use(sameOriginOnly);
  admin.get(RERUN_PATH, (_req, res) => {
    res.type('html').send(rerunFormPage(settings()));
  });
  admin.post(RERUN_PATH, express.urlencoded({ extended: false, limit: '10kb' }), async (req, res) => {
    const { _csrf: token, ...values } = req.body as Record<string, FormField>;
    if (!tokens.check(deps.credentials.user, token))
      throw new AppError('FORBIDDEN', { message: 'The rerun form token is missing or wrong: reload the form and send it again' });
    const plan = planRerun(values, deps.rerunMaxDays);
    if (!plan.ok) {
      res
        .status(400)
        .type('html')
        .send(rerunFormPage(settings(), values, plan.errors));
      return;
    }
    const queued = await enqueueBuilds(deps.queues.build, plan.targets, 'dashboard');
    deps.logger.info('rerun queued from the dashboard', { ...plan.request, jobs: queued.length });
    res
      .status(202)
      .type('html')
      .send(rerunQueuedPage(queued.map((q, i) => ({ target: describeTarget(plan.targets[i]!), jobId: q.jobId, collapsed: q.collapsed }))));
  });
  admin.use(BOARD_PATH, offlineEntryPage, queueBoard(deps.queues));
  router.use(admin);
}
