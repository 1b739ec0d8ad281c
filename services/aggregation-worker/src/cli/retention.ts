import { parseCommandLine, runMain, usageError } from '@bo/service-kit/command-line';

const USAGE = `Usage: pnpm retention [--keep-months N] [--dry-run]

Keeps month partitions of ord_stat_evt and goods_inflow_log ready EVENT_PARTITIONS_AHEAD months
ahead, and drops each month older than N months before the current one (default
EVENT_RETENTION_MONTHS; 0 = keep all) once every aggregate built from it is built. A month not
fully built is kept and named. Exits 0, or 2 on invalid arguments.

  --keep-months  months kept before the current one (overrides EVENT_RETENTION_MONTHS)
  --dry-run      say what would be added and dropped, change nothing
  --help         this text

Environment: BO_DATABASE_URL, PLATFORM_TIME_ZONE, EVENT_RETENTION_MONTHS, EVENT_PARTITIONS_AHEAD.`;

await runMain(async () => {
  const values = parseCommandLine(USAGE, { 'keep-months': { type: 'string' }, 'dry-run': { type: 'boolean' } });
  const given = values['keep-months'] === undefined ? undefined : Number(values['keep-months']);
  if (given !== undefined && !(Number.isInteger(given) && given >= 0)) {
    usageError('Invalid arguments:\n  --keep-months must be a whole number of months, 0 or more', USAGE);
  }
  // Loaded once the options are valid: a typo or --help answers before the database code loads.
  const { createKnex, platformNow } = await import('@bo/db');
  const { applyRetention } = await import('../aggregation/event-retention.ts');
  const { loadRetentionConfig } = await import('../config.ts');
  const config = loadRetentionConfig();
  const keepMonths = given ?? config.EVENT_RETENTION_MONTHS;
  const knex = createKnex(config.BO_DATABASE_URL, { poolMax: 1 });
  try {
    const outcome = await applyRetention(knex, {
      keepMonths,
      aheadMonths: config.EVENT_PARTITIONS_AHEAD,
      now: platformNow(config.PLATFORM_TIME_ZONE),
      dryRun: values['dry-run'] ?? false,
    });
    console.log(JSON.stringify(outcome));
  } finally {
    await knex.destroy();
  }
});
