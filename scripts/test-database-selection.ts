/** Which test databases a CI run may drop (`scripts/test-databases.ts`; pure, so tests import it). */

/** One test database: its name and the age in hours of its newest table (null: no table, age unknown). */
export interface TestDatabaseAge {
  name: string;
  newestTableHours: number | null;
}

/**
 * The databases to drop: test databases (`t_…`) named for this run, or whose every table is older
 * than the limit. A database without tables has no known age and is kept unless it is the run's.
 */
export function databasesToDrop(databases: readonly TestDatabaseAge[], runId: string | undefined, olderThanHours: number): string[] {
  return databases
    .filter(({ name, newestTableHours }) => {
      if (!name.startsWith('t_')) return false;
      if (runId && name.endsWith(`_r${runId}`)) return true;
      return newestTableHours !== null && newestTableHours > olderThanHours;
    })
    .map((d) => d.name);
}
