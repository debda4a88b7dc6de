/**
 * Timing shared by the benchmarks (in the host and the plain-Node scripts): a monotonic clock,
 * medians and quantiles, the run count, and a fair comparison of two calls (warmed up, then
 * alternated so neither always runs on a warmer server).
 */

/** Measured runs per comparison: $DSH_BENCH_RUNS, default 30. */
export const RUNS = Number(process.env.DSH_BENCH_RUNS ?? 30);

/** The median of `xs` (ms). */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The `q` quantile (0–1, nearest rank) of `xs`; throws when there are no samples. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const value = s[Math.min(s.length - 1, Math.floor(q * s.length))];
  if (value === undefined) throw new Error('no samples to take a quantile of');
  return value;
}

/** A monotonic clock in milliseconds (fractional), for measuring durations. */
export const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** Wall time of one call of `f`, in ms. */
export async function time(f: () => PromiseLike<unknown>): Promise<number> {
  const t = now();
  await f();
  return now() - t;
}

/** Median ms of `a` and of `b` over RUNS runs each, after 3 warm-up calls of each, alternating which goes first. */
export async function compareMedians(a: () => PromiseLike<unknown>, b: () => PromiseLike<unknown>): Promise<{ a: number; b: number }> {
  for (let i = 0; i < 3; i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2) {
      ta.push(await time(a));
      tb.push(await time(b));
    } else {
      tb.push(await time(b));
      ta.push(await time(a));
    }
  }
  return { a: median(ta), b: median(tb) };
}
