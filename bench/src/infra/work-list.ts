/**
 * `work` on each item of `items`, `concurrency` at a time, in list order: each of `concurrency`
 * loops takes the next item when its last one is done (as a worker process takes jobs).
 */
export async function eachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const loop = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
}
