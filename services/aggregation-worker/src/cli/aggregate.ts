import { AGGREGATE_KINDS } from '@bo/contracts';
import { parseCommandLine, runMain, usageError } from '@bo/service-kit/command-line';

const USAGE = `Usage: pnpm aggregate --kind <kind> --from yyyy-MM-dd --to yyyy-MM-dd [--timeout seconds]

Queues one aggregation job per kind and month of the range for the running aggregation
worker(s) (each replaces its days in one transaction and adds them to the month's roll-ups
once), shows the progress and waits for them. Exits 0 when every job completed, 1 naming the jobs that failed
(or did not finish within the timeout), 2 on invalid arguments.

  --kind      all | ${AGGREGATE_KINDS.join(' | ')}
  --from      first day to rebuild (platform local day)
  --to        last day to rebuild, inclusive
  --timeout   seconds to wait for the jobs (default 3600)
  --help      this text

Environment: REDIS_URL, REDIS_PREFIX (the worker's), AGG_JOB_ATTEMPTS, AGG_JOB_BACKOFF_MS, AGG_RERUN_MAX_DAYS.`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await runMain(async () => {
  const values = parseCommandLine(USAGE, {
    kind: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    timeout: { type: 'string', default: '3600' },
  });
  // Loaded once the options parse: a typo or --help answers before the queue, Redis and database code load.
  const { default: cliProgress } = await import('cli-progress');
  const { createLogger, createRedis, sentinelsOf } = await import('@bo/service-kit');
  const { describeTarget } = await import('../aggregation/model.ts');
  const { planRerun } = await import('../aggregation/rerun-plan.ts');
  const { enqueueBuilds } = await import('../queue/build-jobs.ts');
  const { createQueues } = await import('../queue/queues.ts');
  const { loadCliConfig } = await import('../config.ts');
  const config = loadCliConfig();
  const plan = planRerun({ kind: values.kind, from: values.from, to: values.to }, config.AGG_RERUN_MAX_DAYS);
  const timeoutMs = Number(values.timeout) * 1000;
  if (!plan.ok || !(timeoutMs > 0)) {
    const errors = plan.ok ? [] : plan.errors;
    if (!(timeoutMs > 0)) errors.push({ field: 'timeout', message: 'must be a positive number of seconds' });
    usageError(`Invalid arguments:\n${errors.map((e) => `  --${e.field} ${e.message}`).join('\n')}`, USAGE);
  }

  const logger = createLogger('aggregate-cli', 'error');
  const redis = createRedis(config.REDIS_URL, logger, sentinelsOf(config));
  const queues = createQueues(
    redis,
    { prefix: config.REDIS_PREFIX, attempts: config.AGG_JOB_ATTEMPTS, backoffMs: config.AGG_JOB_BACKOFF_MS },
    logger,
  );
  const queued = await enqueueBuilds(queues.build, plan.targets, 'cli');
  const pending = new Map(queued.map((q, i) => [q.jobId, describeTarget(plan.targets[i]!)]));
  const failed: string[] = [];
  console.error(
    `Queued ${queued.length} job(s) on ${config.REDIS_PREFIX}:agg-build for ${plan.request.kind} ${plan.request.from}..${plan.request.to}`,
  );

  const bar = new cliProgress.SingleBar(
    { format: 'aggregate [{bar}] {value}/{total} jobs | failed {failed}', stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(queued.length, 0, { failed: 0 });
  const deadline = Date.now() + timeoutMs;
  while (pending.size && Date.now() < deadline) {
    for (const [jobId, target] of pending) {
      const job = await queues.build.getJob(jobId);
      const state = job ? await job.getState() : 'unknown';
      if (state === 'completed' || state === 'failed') {
        pending.delete(jobId);
        if (state === 'failed') failed.push(`${target} (job ${jobId}): ${job?.failedReason ?? 'failed'}`);
        bar.increment(1, { failed: failed.length });
      }
    }
    if (pending.size) await sleep(500);
  }
  bar.stop();
  await queues.close();
  await redis.quit();

  const unfinished = [...pending].map(([jobId, target]) => `${target} (job ${jobId}): did not finish within ${values.timeout} s`);
  if (failed.length || unfinished.length) {
    console.error(
      `\n${failed.length + unfinished.length} of ${queued.length} aggregation job(s) did not complete:\n  ${[...failed, ...unfinished].join('\n  ')}`,
    );
    process.exit(1);
  }
  console.error(`All ${queued.length} aggregation job(s) completed.`);
});
