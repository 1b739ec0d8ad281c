export { rebuildAggregate, refreshRunningSums, type RebuildResult } from './aggregation/rebuild.ts';
export { findLateData, type LateData } from './aggregation/late-data.ts';
export { rangeTargets } from './aggregation/rerun-plan.ts';
export { reconcileDays, type Mismatch } from './aggregation/reconcile.ts';
export { createQueues, type Queues } from './queue/queues.ts';
export { buildJobId, enqueueBuilds } from './queue/build-jobs.ts';
export { currentAiWindow, recomputeAiWindow, refreshAiWindowAfterBuild, type AiWindowSettings } from './aggregation/ai-window.ts';
