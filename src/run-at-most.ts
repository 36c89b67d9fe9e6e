// A bounded number of async jobs at once: one per GPU of a run, for the cases of a bench and the benches of a file.

/** Runs `run` over the items, at most `width` at a time, and gives the results in the items' order. */
export async function runAtMost<T, R>(items: readonly T[], width: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = []
  let next = 0
  const lane = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await run(items[index]!, index)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane))
  return results
}
