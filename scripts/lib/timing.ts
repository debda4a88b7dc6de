/** Timing helpers the benchmark scripts share. */

/** A monotonic clock in milliseconds (fractional), for measuring durations. */
export const now = (): number => Number(process.hrtime.bigint()) / 1e6;

/** The `q` quantile (0–1, nearest rank) of `xs`; throws when there are no samples. */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const value = s[Math.min(s.length - 1, Math.floor(q * s.length))];
  if (value === undefined) throw new Error('no samples to take a quantile of');
  return value;
}
