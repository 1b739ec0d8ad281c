import { ERRORS, type ErrorName, type FieldError } from '@bo/contracts';

/**
 * The one application error. `declared` errors are the spec's failures and answer HTTP 900
 * with the conventional status inside the body; the others (401, 403, unknown path, 500)
 * answer with their own HTTP status.
 */
export class AppError extends Error {
  readonly code: string;
  readonly httpStatus: number;
  readonly declared: boolean;
  readonly isOperational: boolean;
  readonly errors?: FieldError[];
  /** Sent as `Retry-After` (seconds): when a refused request may be tried again. */
  readonly retryAfterSeconds?: number;

  constructor(
    name: ErrorName,
    options: {
      message?: string;
      errors?: FieldError[];
      declared?: boolean;
      cause?: unknown;
      isOperational?: boolean;
      retryAfterSeconds?: number;
    } = {},
  ) {
    const def = ERRORS[name];
    super(options.message ?? def.message, { cause: options.cause });
    this.name = name;
    this.code = def.code;
    this.httpStatus = def.httpStatus;
    this.declared = options.declared ?? ![401, 403, 500].includes(def.httpStatus);
    this.isOperational = options.isOperational ?? def.httpStatus < 500;
    if (options.errors) this.errors = options.errors;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A validation failure naming each field. */
export const validationError = (errors: FieldError[]): AppError =>
  new AppError('VALIDATION_FAILED', {
    message: `Invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`,
    errors,
  });

/** Shorthand for a validation failure of one field. */
export const fieldError = (field: string, message: string): AppError => validationError([{ field, message }]);
