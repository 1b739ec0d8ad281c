import { BrokenCircuitError, circuitBreaker, ConsecutiveBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import PQueue from 'p-queue';
import { AppError, type Logger } from '@bo/service-kit';

export interface AiRunnerOptions {
  concurrency: number;
  /** Calls allowed to wait for a slot; one more is refused as busy rather than queued unboundedly. */
  maxQueue: number;
  /** Deadline of one call, queueing and retries included. */
  timeoutMs: number;
  /** Where the provider's own failure text goes; the answer carries only the catalogue message. */
  logger?: Logger;
  /**
   * With a value, a circuit breaker: one timeout or provider failure opens it, and calls fail
   * at once (2102) until this many ms have passed and a trial call succeeds. A model endpoint
   * that is down then costs one deadline, not one per request.
   */
  halfOpenAfterMs?: number;
}

/** Failures that say the endpoint is unwell (not a busy queue or an answer in the wrong shape). */
const ENDPOINT_FAILURES = new Set(['2101', '2102']);

/**
 * Every provider call goes through here: at most `concurrency` at once, a bounded wait queue
 * (full → 2103 busy), one deadline that also covers the wait (→ 2101 timeout, and the call is
 * aborted), and any other failure reported as 2102 unless it is already an application error.
 * The error body says only the catalogue text: what the model or the parser said is logged,
 * never echoed (it may hold the model's words, the prompt or the endpoint's internals).
 * The deadline is enforced here as well as passed down, so a provider that ignores its abort
 * signal still cannot make a request hang.
 */
export class AiRunner {
  private readonly queue: PQueue;
  private readonly breaker?: CircuitBreakerPolicy;

  constructor(private readonly options: AiRunnerOptions) {
    this.queue = new PQueue({ concurrency: options.concurrency });
    if (options.halfOpenAfterMs !== undefined) {
      this.breaker = circuitBreaker(
        handleWhen((err) => err instanceof AppError && ENDPOINT_FAILURES.has(err.code)),
        { halfOpenAfter: options.halfOpenAfterMs, breaker: new ConsecutiveBreaker(1) },
      );
      this.breaker.onBreak(() =>
        options.logger?.warn('AI circuit opened: model calls fail fast', { halfOpenAfterMs: options.halfOpenAfterMs }),
      );
      this.breaker.onReset(() => options.logger?.info('AI circuit closed: the model endpoint answers again'));
    }
  }

  async run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (!this.breaker) return this.runOnce(task);
    try {
      return await this.breaker.execute(() => this.runOnce(task));
    } catch (err) {
      if (err instanceof BrokenCircuitError) throw new AppError('AI_PROVIDER_FAILED', { isOperational: true });
      throw err;
    }
  }

  private async runOnce<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.queue.pending >= this.options.concurrency && this.queue.size >= this.options.maxQueue) {
      throw new AppError('AI_BUSY', { isOperational: true });
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new AppError('AI_TIMEOUT', { isOperational: true });
        controller.abort(err);
        reject(err);
      }, this.options.timeoutMs);
    });
    try {
      const work = this.queue.add(() => task(controller.signal), { signal: controller.signal });
      // The losing promise of the race must not become an unhandled rejection.
      work.catch(() => undefined);
      return await Promise.race([work, deadline]);
    } catch (err) {
      if (controller.signal.aborted) {
        this.options.logger?.warn('AI provider call timed out', { code: '2101', timeoutMs: this.options.timeoutMs });
        throw controller.signal.reason as AppError;
      }
      const failure = err instanceof AppError ? err : new AppError('AI_PROVIDER_FAILED', { cause: err, isOperational: true });
      if (failure.cause !== undefined)
        this.options.logger?.warn('AI provider call failed', { code: failure.code, detail: detailOf(failure.cause) });
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The provider's or parser's own text, for the log only. */
const detailOf = (cause: unknown): string => (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)).slice(0, 2000);
