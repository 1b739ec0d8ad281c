import PQueue from 'p-queue';
import { AppError } from '@bo/service-kit';

export interface AiRunnerOptions {
  concurrency: number;
  /** Calls allowed to wait for a slot; one more is refused as busy rather than queued unboundedly. */
  maxQueue: number;
  /** Deadline of one call, queueing and retries included. */
  timeoutMs: number;
}

/**
 * Every provider call goes through here: at most `concurrency` at once, a bounded wait queue
 * (full → 2103 busy), one deadline that also covers the wait (→ 2101 timeout, and the call is
 * aborted), and any other failure reported as 2102 unless it is already an application error.
 * The deadline is enforced here as well as passed down, so a provider that ignores its abort
 * signal still cannot make a request hang.
 */
export class AiRunner {
  private readonly queue: PQueue;

  constructor(private readonly options: AiRunnerOptions) {
    this.queue = new PQueue({ concurrency: options.concurrency });
  }

  async run<T>(task: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (this.queue.pending >= this.options.concurrency && this.queue.size >= this.options.maxQueue) {
      throw new AppError('AI_BUSY', { isOperational: true });
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const err = new AppError('AI_TIMEOUT', {
          message: `The AI provider did not answer within ${this.options.timeoutMs} ms`,
          isOperational: true,
        });
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
      if (controller.signal.aborted) throw controller.signal.reason as AppError;
      if (err instanceof AppError) throw err;
      throw new AppError('AI_PROVIDER_FAILED', {
        message: `The AI provider failed: ${err instanceof Error ? err.message : String(err)}`.slice(0, 500),
        cause: err,
        isOperational: true,
      });
    } finally {
      clearTimeout(timer);
    }
  }
}
