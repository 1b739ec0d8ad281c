/**
 * The error-code catalogue. `6101` and `6102` are the spec's; the rest are this project's.
 * Groups: 1xxx request/auth/platform, 2xxx goods and AI, 3xxx statistics, 5xxx aggregation,
 * 6xxx member/staff limit.
 */
export interface ErrorDefinition {
  code: string;
  message: string;
  httpStatus: number;
}

export const ERRORS = {
  VALIDATION_FAILED: { code: '1000', message: 'The request is not valid', httpStatus: 400 },
  MALFORMED_JSON: { code: '1001', message: 'The request body is not valid JSON', httpStatus: 400 },
  UNSUPPORTED_MEDIA_TYPE: { code: '1002', message: 'The request body must be application/json', httpStatus: 415 },
  PAYLOAD_TOO_LARGE: { code: '1003', message: 'The request body is larger than the 1 MB limit', httpStatus: 413 },
  UNAUTHENTICATED: { code: '1101', message: 'A bearer access token is required', httpStatus: 401 },
  INVALID_TOKEN: { code: '1102', message: 'The access token is not valid', httpStatus: 401 },
  TOKEN_EXPIRED: { code: '1103', message: 'The access token has expired', httpStatus: 401 },
  FORBIDDEN: { code: '1201', message: 'You may not access this resource', httpStatus: 403 },
  SUPPLIER_SCOPE: { code: '1202', message: 'A supplier token may only read its own supplier', httpStatus: 403 },
  USER_SCOPE: { code: '1203', message: 'Only BO_ADMIN may read another user', httpStatus: 403 },
  NOT_INTERNAL: { code: '1204', message: 'This service is reachable from internal servers only', httpStatus: 403 },
  NOT_FOUND: { code: '1404', message: 'No such resource', httpStatus: 404 },
  RATE_LIMITED: { code: '1429', message: 'Too many requests; try again after the time in Retry-After', httpStatus: 429 },
  INTERNAL: { code: '1500', message: 'An unexpected error occurred', httpStatus: 500 },
  UNAVAILABLE: { code: '1503', message: 'A dependency is unavailable; try again shortly', httpStatus: 503 },
  READ_REPLICA_UNAVAILABLE: {
    code: '1505',
    message: 'No read replica is available or current enough; try again shortly',
    httpStatus: 503,
  },
  REQUEST_TIMEOUT: {
    code: '1504',
    message: 'The request took longer than the server allows; try again shortly or ask for less',
    httpStatus: 504,
  },
  GOODS_NOT_FOUND: { code: '2001', message: 'No goods with this goods number', httpStatus: 404 },
  AI_TIMEOUT: { code: '2101', message: 'The AI provider did not answer in time', httpStatus: 504 },
  AI_PROVIDER_FAILED: { code: '2102', message: 'The AI provider failed', httpStatus: 502 },
  AI_BUSY: { code: '2103', message: 'Too many AI requests at once; try again shortly', httpStatus: 503 },
  AI_BAD_OUTPUT: { code: '2104', message: 'The AI provider answered in an unusable form', httpStatus: 502 },
  RANGE_TOO_LARGE: { code: '3001', message: 'The requested range is too large', httpStatus: 400 },
  AGGREGATION_FAILED: { code: '5001', message: 'The aggregation failed', httpStatus: 500 },
  STAFF_NOT_FOUND: { code: '6101', message: 'Not a member, or not a staff member', httpStatus: 404 },
  LIMIT_INSUFFICIENT: { code: '6102', message: 'The remaining staff discount limit is insufficient', httpStatus: 409 },
  IDEMPOTENCY_KEY_REUSED: {
    code: '6103',
    message: 'This Idempotency-Key was already used with a different request body',
    httpStatus: 422,
  },
  IDEMPOTENCY_IN_PROGRESS: {
    code: '6104',
    message: 'A request with this Idempotency-Key is still being processed',
    httpStatus: 409,
  },
  CHANGE_KEY_REUSED: {
    code: '6105',
    message: 'This order benefit cost already changed the staff limit with a different amount',
    httpStatus: 409,
  },
} as const satisfies Record<string, ErrorDefinition>;

export type ErrorName = keyof typeof ERRORS;

/** The status every declared failure answers with (spec section 7). */
export const DECLARED_FAILURE_STATUS = 900;
