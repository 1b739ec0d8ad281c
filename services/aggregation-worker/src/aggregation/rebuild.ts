import type { Knex } from '@bo/db';
import type { AggregateJobData, AggregateKind } from '@bo/contracts';

export interface RebuildResult {
  kind: AggregateKind;
  day: string;
  hour?: number;
  rows: number;
}

/**
 * Replace one (kind, day) of an aggregate — or one hour of the inflow aggregate — inside one
 * transaction, from the source rows. Contract shared with the statistics tests; built by the
 * worker issue.
 */
export async function rebuildAggregate(
  _knex: Knex,
  _job: Pick<AggregateJobData, 'kind' | 'day' | 'hour' | 'requestedBy'> & { jobId?: string },
): Promise<RebuildResult> {
  throw new Error('not built yet');
}
