import { Type } from '@sinclair/typebox';
import { checkTimeZone, ConfigFragments, loadConfig } from '@bo/service-kit';
import { AI_LIST_WINDOW_DAYS_SCHEMA } from '@bo/aggregates';

const Cron = (def: string, description: string) => Type.String({ default: def, minLength: 9, description });
const Flag = (def: boolean, description: string) => Type.Boolean({ default: def, description });

export const workerConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.boDatabase,
  ...ConfigFragments.redis,
  WORKER_PORT: ConfigFragments.ports.WORKER_PORT,
  QUEUE_DASHBOARD_USER: Type.Optional(Type.String({ minLength: 1, description: 'user of the queue dashboard (HTTP basic auth)' })),
  QUEUE_DASHBOARD_PASSWORD: Type.Optional(Type.String({ minLength: 8, description: 'password of the queue dashboard (HTTP basic auth)' })),
  WORKER_CONCURRENCY: Type.Integer({
    minimum: 1,
    maximum: 32,
    default: 2,
    description: 'aggregation jobs one worker process runs at once',
  }),
  AGG_SCHEDULES: Flag(true, 'register the daily, hourly and reconciliation job schedulers at start'),
  AGG_DAILY_CRON: Cron(
    '0 9 * * *',
    'when the daily aggregates (the four lists and the period rollups) are built for the previous local day (platform zone)',
  ),
  AGG_HOURLY_CRON: Cron('5 * * * *', 'when the inflow hour just ended is built, missing hours caught up and late data looked for'),
  AGG_RECONCILE: Flag(true, 'compare the daily aggregates with the source events every night and rebuild days that differ'),
  AGG_RECONCILE_CRON: Cron('0 3 * * *', 'when the nightly reconciliation runs (platform zone)'),
  AGG_RECONCILE_DAYS: Type.Integer({
    minimum: 1,
    maximum: 366,
    default: 7,
    description: 'how many already-built days back the reconciliation checks',
  }),
  AGG_CATCHUP_HOURS: Type.Integer({
    minimum: 1,
    maximum: 24 * 31,
    default: 48,
    description:
      "hours back the hourly run builds inflow hours that are missing, and re-counts the built ones (and their days' events) for rows committed after the late-data mark passed their number",
  }),
  AGG_CATCHUP_DAYS: Type.Integer({
    minimum: 0,
    maximum: 366,
    default: 7,
    description: 'days back the daily run builds days that are missing (besides the previous day)',
  }),
  AGG_RERUN_MAX_DAYS: Type.Integer({
    minimum: 1,
    maximum: 3660,
    default: 366,
    description: 'longest range one dashboard or CLI rerun may ask for',
  }),
  AGG_JOB_ATTEMPTS: Type.Integer({
    minimum: 1,
    maximum: 20,
    default: 5,
    description: 'tries of one aggregation job before it is kept as failed',
  }),
  AGG_JOB_BACKOFF_MS: Type.Integer({ minimum: 100, default: 10_000, description: 'first retry delay of a failed job; doubles each try' }),
  AGG_LOCK_DURATION_MS: Type.Integer({
    minimum: 1000,
    default: 60_000,
    description: 'job lock; a job whose worker died is taken up again after this',
  }),
  AGG_STALLED_INTERVAL_MS: Type.Integer({
    minimum: 1000,
    default: 30_000,
    description: 'how often workers look for jobs whose worker died',
  }),
  /** The back-office's setting (the same schema): the worker keeps that window's demand sums. */
  AI_LIST_WINDOW_DAYS: AI_LIST_WINDOW_DAYS_SCHEMA,
  EVENT_RETENTION_MONTHS: Type.Integer({
    minimum: 0,
    maximum: 1200,
    default: 0,
    description:
      'pnpm retention drops the ord_stat_evt and goods_inflow_log months older than this many months before the current one, each only once all its aggregates are built; 0 = keep every month',
  }),
  EVENT_PARTITIONS_AHEAD: Type.Integer({
    minimum: 1,
    maximum: 120,
    default: 3,
    description: 'pnpm retention keeps a month partition of each event table ready this many months ahead',
  }),
};

/** Development-only queue-board credentials; any other environment must set its own. */
export const DEV_DASHBOARD_USER = 'ops';
export const DEV_DASHBOARD_PASSWORD = 'ops-local';

function checkDashboardCredentials(c: { NODE_ENV: string; QUEUE_DASHBOARD_USER?: string; QUEUE_DASHBOARD_PASSWORD?: string }): string[] {
  if (c.NODE_ENV === 'development') return [];
  return (['QUEUE_DASHBOARD_USER', 'QUEUE_DASHBOARD_PASSWORD'] as const)
    .filter((name) => !c[name])
    .map((name) => `${name} is required unless NODE_ENV=development (the queue dashboard has no default credentials)`);
}

/** Five or six cron fields; BullMQ's parser checks the values when the scheduler is registered. */
function checkCrons(c: Record<string, unknown>): string[] {
  return ['AGG_DAILY_CRON', 'AGG_HOURLY_CRON', 'AGG_RECONCILE_CRON']
    .filter((name) => !/^\S+( \S+){4,5}$/.test(String(c[name]).trim()))
    .map((name) => `${name} must be a cron pattern of 5 or 6 fields (got ${JSON.stringify(c[name])})`);
}

/** What the `aggregate` CLI needs: it only talks to Redis. */
export const cliConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.redis,
  AGG_RERUN_MAX_DAYS: workerConfigSchema.AGG_RERUN_MAX_DAYS,
  AGG_JOB_ATTEMPTS: workerConfigSchema.AGG_JOB_ATTEMPTS,
  AGG_JOB_BACKOFF_MS: workerConfigSchema.AGG_JOB_BACKOFF_MS,
};

export type CliConfig = ReturnType<typeof loadCliConfig>;
export const loadCliConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(cliConfigSchema, env, checkTimeZone);

export type WorkerConfig = ReturnType<typeof loadWorkerConfig>;

export const loadWorkerConfig = (env: NodeJS.ProcessEnv = process.env) =>
  loadConfig(workerConfigSchema, env, (c) => [...checkTimeZone(c), ...checkDashboardCredentials(c), ...checkCrons(c)]);

/** The queue-board credentials, falling back to the development pair (the caller logs a warning). */
export function queueBoardCredentials(config: WorkerConfig): { user: string; password: string; isDevDefault: boolean } {
  const isDevDefault = !config.QUEUE_DASHBOARD_USER || !config.QUEUE_DASHBOARD_PASSWORD;
  return isDevDefault
    ? { user: DEV_DASHBOARD_USER, password: DEV_DASHBOARD_PASSWORD, isDevDefault }
    : { user: config.QUEUE_DASHBOARD_USER!, password: config.QUEUE_DASHBOARD_PASSWORD!, isDevDefault };
}

/** What the `retention` CLI needs: the bo database and its two settings. */
export const retentionConfigSchema = {
  ...ConfigFragments.common,
  ...ConfigFragments.boDatabase,
  EVENT_RETENTION_MONTHS: workerConfigSchema.EVENT_RETENTION_MONTHS,
  EVENT_PARTITIONS_AHEAD: workerConfigSchema.EVENT_PARTITIONS_AHEAD,
};

export const loadRetentionConfig = (env: NodeJS.ProcessEnv = process.env) => loadConfig(retentionConfigSchema, env, checkTimeZone);
