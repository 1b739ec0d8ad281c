import type { Arbitrary } from 'fast-check';

/** What a test knows to be a valid request of one operation. */
export interface SampleRequest {
  /** Query parameters (an array repeats the parameter). */
  query?: Record<string, string | string[]>;
  body?: Record<string, unknown>;
}

export interface HostileRequest {
  method: 'get' | 'post';
  /** The raw query text after `?` (empty: none). */
  query: string;
  headers: Record<string, string>;
  /** The raw body text; undefined sends none. */
  body?: string;
}

export interface HostileOptions {
  /**
   * Every request must fail validation (operations that write when the request is valid):
   * the body always carries at least one field the schema refuses, or is no JSON object.
   */
  invalidOnly?: boolean;
  /** Authorization header values to pick from; undefined in the list sends none. */
  authorization?: Arbitrary<string | undefined>;
  /** Extra headers the operation reads, with hostile values (e.g. Idempotency-Key). */
  headers?: Record<string, Arbitrary<string>>;
}
