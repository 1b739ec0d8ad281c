/** Items handled between two yields to the event loop. */
const SLICE = 500;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * `items.map(fn)` in slices, yielding to the event loop between them: building the in-memory
 * indexes from tens of thousands of goods names must not hold up the requests served meanwhile.
 */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += SLICE) {
    if (start > 0) await yieldToEventLoop();
    const end = Math.min(items.length, start + SLICE);
    for (let i = start; i < end; i++) out.push(fn(items[i]!, i));
  }
  return out;
}
