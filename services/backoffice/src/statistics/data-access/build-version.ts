import type { Knex } from '@bo/db';
import { BUILD_TABLES, BUILD_VERSION_SQL, type ListKind } from '@bo/aggregates';
import type { DayRange } from '../model.ts';

/**
 * What the worker last built for the days of `range` of one list kind (`BUILD_VERSION_SQL`), as
 * one string. It starts with the database's name: services on other databases that share the
 * Redis (a staging copy, the test suites) never read each other's answers, even for ranges with
 * nothing built.
 */
export async function listBuildVersion(knex: Knex, kind: ListKind, range: DayRange): Promise<string> {
  const [row] = (await knex(BUILD_TABLES.builtDay)
    .select(knex.raw(`CONCAT(DATABASE(), '.', ${BUILD_VERSION_SQL}) AS ver`))
    .where({ kind, agrt_hour: -1 })
    .andWhere('agrt_dt', '>=', range.fromDay)
    .andWhere('agrt_dt', '<', range.toDay)) as { ver: string }[];
  return row!.ver;
}
