import { Type, type Static } from '@sinclair/typebox';
import { DateString } from './common.ts';

export const AGGREGATE_KINDS = ['category', 'payway', 'goods', 'entr', 'period', 'inflow'] as const;
export type AggregateKind = (typeof AGGREGATE_KINDS)[number];
/** Built per day from `ord_stat_evt`; `period` holds the rollups of the period and hourly status reports. */
export const DAILY_KINDS = ['category', 'payway', 'goods', 'entr', 'period'] as const;

/** The rerun form of the queue dashboard and the `aggregate` CLI. */
export const RerunRequest = Type.Object(
  {
    kind: Type.Union([Type.Literal('all'), ...AGGREGATE_KINDS.map((k) => Type.Literal(k))], {
      description: 'which aggregate to rebuild',
    }),
    from: DateString('first day to rebuild'),
    to: DateString('last day to rebuild, inclusive'),
  },
  { $id: 'RerunRequest', additionalProperties: false },
);
export type RerunRequest = Static<typeof RerunRequest>;

/** Data of one aggregation job: one kind, one day (or one hour for inflow), or days of one month. */
export const AggregateJobData = Type.Object(
  {
    kind: Type.Union(AGGREGATE_KINDS.map((k) => Type.Literal(k))),
    day: DateString('the day to build (the first, with toDay)'),
    toDay: Type.Optional(DateString('the last day of a range of one month built in one job (reruns of a range)')),
    hour: Type.Optional(Type.Integer({ minimum: 0, maximum: 23, description: 'inflow only: one hour of the day' })),
    requestedBy: Type.Union([
      Type.Literal('schedule'),
      Type.Literal('dashboard'),
      Type.Literal('cli'),
      Type.Literal('reconcile'),
      Type.Literal('late-data'),
    ]),
  },
  { $id: 'AggregateJobData' },
);
export type AggregateJobData = Static<typeof AggregateJobData>;
