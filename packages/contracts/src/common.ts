import { Type, type Static, type TSchema } from '@sinclair/typebox';

/**
 * Years 1900–2999 only. Day and month arithmetic (the comparison period up to 36 months before,
 * the exclusive end a day or month after) works on `yyyy-MM-dd` text and compares it as text,
 * which holds for four-digit years only: 9999-12-31 + 1 day or a range reaching back before
 * year 1000 sent a report into a loop over millions of days.
 */
const YEAR = '(19|2\\d)\\d{2}';

/** `yyyy-MM-dd`, a calendar day in platform local time. */
export const DateString = (description = 'date (yyyy-MM-dd, years 1900–2999)') =>
  Type.String({ format: 'date', pattern: `^${YEAR}-\\d{2}-\\d{2}$`, description, examples: ['2026-05-01'] });

/** `yyyy-MM`, a calendar month. */
export const MonthString = (description = 'month (yyyy-MM, years 1900–2999)') =>
  Type.String({ format: 'month', pattern: `^${YEAR}-(0[1-9]|1[0-2])$`, description, examples: ['2026-05'] });

/** Date-time as sent on the wire: ISO 8601 (`2026-05-01T10:00:00`) or `yyyy-MM-dd HH:mm:ss`. */
export const DateTimeString = (description = 'date-time (yyyy-MM-dd HH:mm:ss or ISO 8601)') =>
  Type.String({ format: 'local-date-time', description, examples: ['2026-05-01 10:00:00'] });

/**
 * A code parameter with a fixed set of values: an OpenAPI `enum` whose description (and
 * `x-enumDescriptions`, which Swagger UI shows) says what each value means. A refused value is
 * answered "must be one of …" with the allowed values (validator.ts).
 */
export const CodeEnum = <const V extends Record<string, string>>(what: string, meanings: V) =>
  Type.Unsafe<Extract<keyof V, string>>({
    type: 'string',
    enum: Object.keys(meanings),
    description: `${what}: ${Object.entries(meanings)
      .map(([value, meaning]) => `${value} ${meaning}`)
      .join(', ')}`,
    'x-enumDescriptions': meanings,
  });

/** agrtGb: `01` order status, `02` sales status. */
export const AgrtGb = CodeEnum('aggregation code', {
  '01': 'order (order status: counted when ordered)',
  '02': 'sales (sales status: counted when sold)',
});
export type AgrtGb = Static<typeof AgrtGb>;

export const NonEmpty = (description: string) => Type.String({ minLength: 1, description });

/** A text field the row may leave empty (null): names looked up beside a key, optional attributes. */
export const NullableString = (description?: string) =>
  Type.Union([Type.String(), Type.Null()], description === undefined ? {} : { description });

export const ValidationError = Type.Object(
  { field: Type.String(), message: Type.String() },
  { $id: 'ValidationError', description: 'one failed validation rule' },
);
export type ValidationError = Static<typeof ValidationError>;

/** Body of every declared failure (HTTP status 900) and of 401/403/404/5xx answers. */
export const ErrorCode = Type.Object(
  {
    code: Type.String({ description: 'error code from the catalogue' }),
    message: Type.String(),
    httpStatus: Type.Integer({ format: 'int32', description: 'conventional HTTP status of this error' }),
    isProcess: Type.Boolean({ description: 'false: nothing was processed' }),
    errors: Type.Optional(Type.Array(ValidationError, { description: 'failed fields, for validation errors' })),
  },
  { $id: 'ErrorCode' },
);
export type ErrorCode = Static<typeof ErrorCode>;

/** The result envelope (spec 2.1) around `payload`. */
export const Envelope = <T extends TSchema>(payload: T, id: string) =>
  Type.Object(
    {
      timestamp: Type.String({ format: 'date-time' }),
      code: Type.String(),
      message: Type.String(),
      isProcess: Type.Boolean(),
      payload: Type.Union([payload, Type.Null()]),
      error: Type.Boolean(),
      errors: Type.Array(ValidationError),
      httpStatus: Type.Optional(Type.Integer({ format: 'int32', description: 'on failures only' })),
    },
    { $id: id },
  );
export interface EnvelopeOf<T> {
  timestamp: string;
  code: string;
  message: string;
  isProcess: boolean;
  payload: T | null;
  error: boolean;
  errors: ValidationError[];
  httpStatus?: number;
}

/** `totalCount` + `payloads`, the list wrapper of grid lists. */
export const ListWrapper = <T extends TSchema>(row: T, id: string) =>
  Type.Object(
    {
      totalCount: Type.Integer({ format: 'int32' }),
      payloads: Type.Array(row),
    },
    { $id: id },
  );
export interface ListOf<T> {
  totalCount: number;
  payloads: T[];
}

/** A list field in the query: repeated parameters or comma-separated text (see the validator). */
export const StringList = (description: string) =>
  Type.Array(Type.String(), { description: `${description} (repeat the parameter or separate with commas)` });
