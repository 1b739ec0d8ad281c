/**
 * `pnpm db:seed -- [options]`: loads a deterministic demo or benchmark data set into the bo
 * and member databases (created and migrated beforehand with `pnpm db:migrate`).
 */
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { redact } from '@bo/db';
import { seedDatabases, type SeedOptions } from '../seed-databases.ts';
import { DEMO_SIZE } from '../seed-demo.ts';

const HELP = `Usage: pnpm db:seed -- [options]

Loads generated Korean-commerce data: masters (sites, suppliers, brands, categories, codes,
users), goods, orders with their status events, page views, reviews, restock requests,
questions, document pages, members and staff discount limits. The same options give the
same rows. The databases must exist and be migrated (pnpm db:migrate).

Size and shape
  --seed <n>              random seed (default ${DEMO_SIZE.seed})
  --days <n>              days of activity, ending with --end-date (default ${DEMO_SIZE.days})
  --goods <n>             number of goods (default ${DEMO_SIZE.goods})
  --events <n>            total order-status events over the period (default ${DEMO_SIZE.events})
  --events-per-day <n>    events per day (instead of --events)
  --inflow-ratio <x>      goods page views per event (default 3)
  --end-date <yyyy-MM-dd> last day, generated whole (default: today in PLATFORM_TIME_ZONE,
                          generated up to now)

Databases
  --bo-url <url>          default BO_DATABASE_URL or mysql://root@127.0.0.1:3306/bo
  --member-url <url>      default MEMBER_DATABASE_URL or mysql://root@127.0.0.1:3306/member
  --if-empty              do nothing when the bo database already has goods
  --truncate              empty every source table and the member tables first
                          (rebuild the aggregates afterwards: pnpm aggregate)

Loading
  --load-method <m>       auto | load-data | insert (default auto: LOAD DATA LOCAL INFILE when
                          the server allows it, else multi-row INSERTs)
  --rebuild-indexes <m>   auto | always | never: drop the by-goods, by-order and by-member
                          indexes of ord and ord_stat_evt during the load and build them
                          after; time-led indexes stay (auto: from 1,000,000 events)
  -h, --help              this text

Examples
  pnpm db:seed -- --truncate                                   the demo set (90 days to now)
  pnpm db:seed -- --truncate --days 90 --events 10000000 --goods 20000     benchmark scale
  pnpm db:seed -- --truncate --seed 7 --days 40 --events 20000 --end-date 2025-03-31
`;

function fail(message: string): never {
  process.stderr.write(`db:seed: ${message}\n\nRun with --help for the options.\n`);
  process.exit(2);
}

function wholeNumber(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a whole number ≥ 1 (got "${text}")`);
  return n;
}

function parseOptions(argv: string[]): SeedOptions {
  // `pnpm db:seed -- --days 9` hands the script a literal `--` before the options.
  const args = argv.filter((a) => a !== '--');
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        seed: { type: 'string' },
        days: { type: 'string' },
        goods: { type: 'string' },
        events: { type: 'string' },
        'events-per-day': { type: 'string' },
        'inflow-ratio': { type: 'string' },
        'end-date': { type: 'string' },
        'bo-url': { type: 'string' },
        'member-url': { type: 'string' },
        'if-empty': { type: 'boolean' },
        truncate: { type: 'boolean' },
        'load-method': { type: 'string' },
        'rebuild-indexes': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    fail((err as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const endDate = values['end-date'];
  if (endDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(endDate)) fail(`--end-date must be yyyy-MM-dd (got "${endDate}")`);
  const loadMethod = values['load-method'] ?? 'auto';
  if (!['auto', 'load-data', 'insert'].includes(loadMethod)) fail(`--load-method must be auto, load-data or insert (got "${loadMethod}")`);
  const rebuild = values['rebuild-indexes'] ?? 'auto';
  if (!['auto', 'always', 'never'].includes(rebuild)) fail(`--rebuild-indexes must be auto, always or never (got "${rebuild}")`);
  const inflowRatio = values['inflow-ratio'] === undefined ? undefined : Number(values['inflow-ratio']);
  if (inflowRatio !== undefined && !(inflowRatio >= 0)) fail('--inflow-ratio must be a number ≥ 0');
  const seed = values.seed === undefined ? DEMO_SIZE.seed : Number(values.seed);
  if (!Number.isInteger(seed)) fail(`--seed must be a whole number (got "${values.seed}")`);
  const eventsPerDay = wholeNumber('events-per-day', values['events-per-day']);
  return {
    boUrl: values['bo-url'] ?? (process.env.BO_DATABASE_URL || 'mysql://root@127.0.0.1:3306/bo'),
    memberUrl: values['member-url'] ?? (process.env.MEMBER_DATABASE_URL || 'mysql://root@127.0.0.1:3306/member'),
    seed,
    days: wholeNumber('days', values.days) ?? DEMO_SIZE.days,
    goods: wholeNumber('goods', values.goods) ?? DEMO_SIZE.goods,
    eventsPerDay,
    events: eventsPerDay ? undefined : (wholeNumber('events', values.events) ?? DEMO_SIZE.events),
    inflowRatio,
    endDate,
    timeZone: process.env.PLATFORM_TIME_ZONE || 'Asia/Seoul',
    ifEmpty: values['if-empty'] ?? false,
    truncate: values.truncate ?? false,
    loadMethod: loadMethod as SeedOptions['loadMethod'],
    rebuildIndexes: rebuild === 'auto' ? 'auto' : rebuild === 'always',
  };
}

const options = parseOptions(process.argv.slice(2));
const bar = new cliProgress.SingleBar(
  {
    format: 'activity |{bar}| day {value}/{total} | {rows} rows | {rate} rows/s | ETA {eta_formatted}',
    hideCursor: true,
    noTTYOutput: true,
    notTTYSchedule: 5000,
  },
  cliProgress.Presets.shades_classic,
);
let barStarted = 0;
// Ctrl-C during the activity load stops at the next day boundary, so the indexes dropped for
// the load are built again; a second Ctrl-C stops at once.
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  process.stderr.write('\ndb:seed: stopping after the current day (indexes are restored); Ctrl-C again to abort now\n');
});

try {
  console.log(`db:seed → bo ${redact(options.boUrl)}, member ${redact(options.memberUrl!)}`);
  const result = await seedDatabases({
    ...options,
    onProgress: (p) => {
      if (interrupted && p.phase === 'activity') throw new Error('interrupted: the data set is incomplete, load it again with --truncate');
      if (p.phase === 'start') {
        const cut = p.plan.cutoff ? ` up to ${p.plan.cutoff}` : '';
        console.log(
          `seed ${p.plan.seed}: ${p.plan.days} days ${p.plan.start} … ${p.plan.end}${cut}, ${p.plan.goods} goods, ` +
            `~${Math.round(p.plan.ordersPerDay * p.plan.days)} orders, ${p.plan.members} members; loading with ${p.method}`,
        );
      } else if (p.phase === 'activity') {
        if (!barStarted) {
          barStarted = Date.now();
          bar.start(p.days, 0, { rows: 0, rate: 0 });
        }
        const seconds = Math.max(0.001, (Date.now() - barStarted) / 1000);
        bar.update(p.day, { rows: p.rows.toLocaleString('en-US'), rate: Math.round(p.rows / seconds).toLocaleString('en-US') });
        if (p.day === p.days) bar.stop();
      } else {
        console.log(`· ${p.message}`);
      }
    },
  });
  if (result.skipped) {
    console.log('the bo database already has goods: nothing loaded (--if-empty)');
  } else {
    const width = Math.max(...Object.keys(result.counts).map((t) => t.length));
    for (const [table, n] of Object.entries(result.counts))
      console.log(`  ${table.padEnd(width)} ${n.toLocaleString('en-US').padStart(12)}`);
    const activityRows = (result.counts.ord ?? 0) + (result.counts.ord_stat_evt ?? 0) + (result.counts.goods_inflow_log ?? 0);
    const activitySeconds = result.timings.activity ?? 0;
    console.log(
      `done in ${result.seconds.toFixed(1)} s (${Object.entries(result.timings)
        .map(([k, v]) => `${k} ${v.toFixed(1)} s`)
        .join(', ')}); ` + `activity ${Math.round(activityRows / Math.max(activitySeconds, 0.001)).toLocaleString('en-US')} rows/s`,
    );
  }
} catch (err) {
  bar.stop();
  process.stderr.write(`db:seed failed: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
