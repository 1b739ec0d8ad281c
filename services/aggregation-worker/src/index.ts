export { aggregateMigrations } from './migrations/index.ts';
export { rebuildAggregate, type RebuildResult } from './aggregation/rebuild.ts';
