/** Running asynchronous work over a list with bounded concurrency (plain Node). */

/**
 * `fn` of every item, at most `limit` of them running at once, started in list order.
 * @returns the results in the items' order; rejects as soon as one `fn` rejects (the others run on).
 */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const runner = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return results;
}
