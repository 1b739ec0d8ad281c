/**
 * `@bo/aggregation-worker/testing`: what tests outside this package reuse (the fault tests run
 * the worker as a process against their own Redis): the generated source rows, their
 * recomputation in plain JS, the queue and job-id helpers, and the child-process helpers.
 */
export { generateSourceData, insertSourceData, type SourceData } from './source-data.ts';
export { expectedDaily, storedRows, type AggRow, type DailyKindName } from './expected.ts';
export { waitFor, waitForJobs } from './queue-env.ts';
export { exitOf, freePort } from './child.ts';
export { createQueues, type Queues } from '../../src/queue/queues.ts';
export { buildJobId, enqueueBuilds } from '../../src/queue/build-jobs.ts';
