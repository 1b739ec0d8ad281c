import type { Queue } from 'bullmq';

/** Poll `probe` every 100 ms until it gives a value; fails naming `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Wait until every job id is completed or failed; returns the states by id. */
export async function waitForJobs(queue: Queue, ids: string[], timeoutMs = 15_000): Promise<Record<string, string>> {
  return waitFor(
    `jobs ${ids.join(', ')}`,
    async () => {
      const states: Record<string, string> = {};
      for (const id of ids) states[id] = (await (await queue.getJob(id))?.getState()) ?? 'missing';
      return Object.values(states).every((s) => s === 'completed' || s === 'failed') ? states : undefined;
    },
    timeoutMs,
  );
}
