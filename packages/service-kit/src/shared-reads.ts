/**
 * Identical reads that arrive together share one run, and a caller never gets a run that started
 * before it arrived: it joins the run queued to start next (once the one under way is over, or on
 * the next turn of the event loop when none is).
 * So every answer was read after its request came in (a list reloaded after a save shows the
 * save), while N identical requests cost at most two runs at a time instead of N. Libraries such
 * as `promise-coalesce` or singleflight hand a late caller the run already under way, whose
 * snapshot may predate the caller's own write; hence this small class.
 */
const noop = () => undefined;

export class SharedReads<T> {
  private readonly running = new Map<string, Promise<T>>();
  private readonly queued = new Map<string, Promise<T>>();

  /** The answer of `read` for `key`, from a run that starts at or after this call. */
  run(key: string, read: () => Promise<T>): Promise<T> {
    const queued = this.queued.get(key);
    if (queued) return queued;
    // A new run starts once the one under way is over, or, with none, on the next turn of the
    // event loop: requests parsed in the same turn (a burst) then share it at no added wait.
    const running = this.running.get(key);
    const after = running ? running.then(noop, noop) : new Promise<void>((resolve) => setImmediate(resolve));
    const next = after.then(() => this.start(key, read));
    this.queued.set(key, next);
    return next;
  }

  /** Keys with a run under way or queued (for tests and metrics). */
  get size(): number {
    return new Set([...this.running.keys(), ...this.queued.keys()]).size;
  }

  /** The queued run of `key` starts: later callers queue the one after it. */
  private start(key: string, read: () => Promise<T>): Promise<T> {
    this.queued.delete(key);
    const run = (async () => read())();
    this.running.set(key, run);
    const done = () => {
      if (this.running.get(key) === run) this.running.delete(key);
    };
    run.then(done, done);
    return run;
  }
}
