/**
 * A sort that yields (plain Node, no `vscode` import): `Array.prototype.sort` of 100 000 items holds
 * the thread for the whole sort (hundreds of ms on a busy machine), so long lists on a shared
 * thread are sorted in runs of {@link RUN_ITEMS} items, then merged pairwise, with a
 * {@link TimeSlice} pause between runs and every {@link RUN_ITEMS} merged items. Stable, like
 * `Array.prototype.sort`.
 */
import { TimeSlice } from './timeSlice';

/** Items sorted at once, and merged between two pauses. */
export const RUN_ITEMS = 1024;

/**
 * A new array of `items` sorted by `compare` (negative: `a` first; stable for ties).
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function slicedSort<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<T[]> {
  let src: T[] = [];
  for (let i = 0; i < items.length; i += RUN_ITEMS) {
    await slice.pause(signal);
    const run = items.slice(i, i + RUN_ITEMS).sort(compare);
    for (const x of run) src.push(x);
  }
  let dst: T[] = new Array<T>(src.length);
  for (let width = RUN_ITEMS; width < src.length; width *= 2) {
    let out = 0;
    let sinceCheck = 0;
    for (let lo = 0; lo < src.length; lo += 2 * width) {
      const mid = Math.min(lo + width, src.length);
      const hi = Math.min(lo + 2 * width, src.length);
      let i = lo;
      let j = mid;
      while (i < mid || j < hi) {
        // Ties take the left run's item first: the merge keeps the order of equal items.
        dst[out++] = j >= hi || (i < mid && compare(src[i]!, src[j]!) <= 0) ? src[i++]! : src[j++]!;
        if (++sinceCheck === RUN_ITEMS) {
          sinceCheck = 0;
          await slice.pause(signal);
        }
      }
    }
    [src, dst] = [dst, src];
  }
  return src;
}
