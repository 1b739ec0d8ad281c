import type { Knex } from '@bo/db';
import { BUILD_TABLES, type ListKind } from '@bo/aggregates';
import type { DayRange } from '../model.ts';

/**
 * What the worker last built for the days of `range` of one list kind, as one string: how many
 * days are built, the latest build instant, the sum of their source marks and the sum of their
 * build instants (ms). Every build or rebuild of a day rewrites its `agg_built_day` row in the
 * transaction that writes its aggregate rows, so the string changes whenever the numbers of the
 * range can change — the last sum even when a rebuilt day's instant is not the range's latest
 * (two builds committing out of order; the same reason as `aiWindowBuildVersion`). It starts
 * with the database's name: services on other databases that share the Redis (a staging copy,
 * the test suites) never read each other's answers, even for ranges with nothing built.
 */
export async function listBuildVersion(knex: Knex, kind: ListKind, range: DayRange): Promise<string> {
  const [row] = (await knex(BUILD_TABLES.builtDay)
    .select(
      knex.raw(
        "DATABASE() AS db, COUNT(*) AS n, COALESCE(DATE_FORMAT(MAX(built_dtm), '%Y%m%d%H%i%s%f'), '-') AS at, COALESCE(SUM(built_max_no), 0) AS marks, " +
          'COALESCE(SUM(TO_SECONDS(built_dtm) * 1000 + MICROSECOND(built_dtm) DIV 1000), 0) AS instants',
      ),
    )
    .where({ kind, agrt_hour: -1 })
    .andWhere('agrt_dt', '>=', range.fromDay)
    .andWhere('agrt_dt', '<', range.toDay)) as {
    db: string;
    n: number;
    at: string;
    marks: number | string;
    instants: number | string;
  }[];
  return `${row!.db}.${row!.n}.${row!.at}.${row!.marks}.${row!.instants}`;
}
