/**
 * Runs `work` over every item with at most `concurrency` at once. Once
 * `signal` aborts no new item starts; items already started finish (they
 * get the signal too) and are returned. Results keep the items' order.
 */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, signal: AbortSignal) => Promise<R>,
  signal: AbortSignal,
): Promise<Array<R | undefined>> {
  const results: Array<R | undefined> = items.map(() => undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!signal.aborted && next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, signal);
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(concurrency) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return results;
}
