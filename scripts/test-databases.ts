/**
 * `tsx scripts/test-databases.ts [--run <id>] [--older-than-hours 24] [--dry-run]`: drops the
 * test databases (`t_…`) that one CI run left behind, and those older than a day, and nothing
 * else: other people's tests on the same server keep theirs. `.ci/run` calls it.
 */
import { createKnex, redact } from '@bo/db';
import { parseCommandLine, usageError } from '@bo/service-kit/command-line';
import { databasesToDrop, type TestDatabaseAge } from './test-database-selection.ts';

const USAGE = `usage: tsx scripts/test-databases.ts [--run <id>] [--older-than-hours 24] [--dry-run]
  --run                drop the test databases of this run (names ending in _r<id>, from TEST_RUN_ID)
  --older-than-hours   and those whose newest table is older than this (default 24)
  --dry-run            print the names only`;

/** Every `t_…` database of the server with the age of its newest table (information_schema). */
async function testDatabaseAges(serverUrl: string): Promise<TestDatabaseAge[]> {
  const knex = createKnex(serverUrl, { poolMax: 1 });
  try {
    const [rows] = (await knex.raw(
      `SELECT s.SCHEMA_NAME AS name, TIMESTAMPDIFF(SECOND, MAX(t.CREATE_TIME), NOW()) / 3600 AS hours
         FROM information_schema.SCHEMATA s
         LEFT JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = s.SCHEMA_NAME
        WHERE s.SCHEMA_NAME LIKE 't\\_%'
        GROUP BY s.SCHEMA_NAME`,
    )) as [{ name: string; hours: string | number | null }[]];
    return rows.map((r) => ({ name: r.name, newestTableHours: r.hours === null ? null : Number(r.hours) }));
  } finally {
    await knex.destroy();
  }
}

const values = parseCommandLine(USAGE, {
  run: { type: 'string' },
  'older-than-hours': { type: 'string', default: '24' },
  'dry-run': { type: 'boolean', default: false },
});
const hours = Number(values['older-than-hours']);
if (!(hours >= 0)) usageError(`--older-than-hours must be a number ≥ 0 (got "${values['older-than-hours']}")`, USAGE);
const runId = values.run?.replace(/[^A-Za-z0-9]/g, '');
const serverUrl = process.env.TEST_DATABASE_URL ?? 'mysql://root@127.0.0.1:3306/';
const names = databasesToDrop(await testDatabaseAges(serverUrl), runId, hours);
if (values['dry-run']) {
  for (const name of names) console.log(name);
} else {
  const knex = createKnex(serverUrl, { poolMax: 1 });
  try {
    for (const name of names) await knex.raw('DROP DATABASE IF EXISTS ??', [name]);
  } finally {
    await knex.destroy();
  }
  console.log(`dropped ${names.length} test database(s) on ${redact(serverUrl)}${names.length ? `: ${names.join(', ')}` : ''}`);
}
