/**
 * Counts of control functions lowered to the least count with the same result on a terminal of a
 * given size. A program's output is text, and some control functions make the emulator work in
 * proportion to their count, not to their bytes: xterm.js (src/common/InputHandler.ts) loops
 * `Ps` times for REP (`CSI Ps b`, repeat the preceding character), IL/DL (`CSI Ps L/M`, insert or
 * delete lines), SU/SD (`CSI Ps S/T`, scroll) and CHT/CBT (`CSI Ps I/Z`, tab forward/back), so
 * `printf 'x\e[300000000b'` (11 bytes) costs 300 million printed cells. Each bound below is proven
 * against the definition of the function (ECMA-48 5th edition, section 8.3, and xterm.js):
 *
 * - IL, DL, SU, SD: each step moves the rows between the cursor (or the top margin) and the
 *   bottom margin by one and brings in one blank row; after as many steps as there are rows in
 *   that region every row of it is blank, and further steps replace blank rows by equal blank
 *   rows. Bound: `rows`.
 * - CHT, CBT: each step moves the cursor to the next (previous) tab stop, or stays at the last
 *   (first) column; after `cols` steps it stays. Bound: `cols`.
 * - ICH, DCH, ECH (`CSI Ps @/P/X`): the cells from the cursor to the right margin are shifted,
 *   deleted or erased; a count past the row's width does what the width does. Bound: `cols`.
 * - REP: see `repeatBound`.
 */

/** The emulator's size: `cols` × `rows` cells on screen, `bufferRows` rows kept (screen and scrollback). */
export interface Geometry {
  cols: number;
  rows: number;
  bufferRows: number;
}

/**
 * Final characters of the CSI sequences (no prefix, no intermediates) whose first parameter is a
 * count that `boundCount` lowers.
 */
export const COUNTED_FINALS = ['@', 'I', 'L', 'M', 'P', 'S', 'T', 'X', 'Z', 'b'] as const;
export type CountedFinal = (typeof COUNTED_FINALS)[number];

/**
 * The least count of `CSI count final` with the same result as `count` on a terminal of
 * `geometry` (see the module comment); `count` itself when it is already small enough. A count
 * of 0 means 1 (ECMA-48 default) and is returned as it is.
 */
export function boundCount(final: CountedFinal, count: number, geometry: Geometry): number {
  switch (final) {
    case 'L':
    case 'M':
    case 'S':
    case 'T':
      return Math.min(count, geometry.rows);
    case 'I':
    case 'Z':
    case '@':
    case 'P':
    case 'X':
      return Math.min(count, geometry.cols);
    case 'b': {
      const { least, period } = repeatBound(geometry);
      return count <= least ? count : least + ((count - least) % period);
    }
  }
}

/**
 * Bound of REP: `CSI n b` prints the preceding character (one cell or two: a wide character) n
 * more times, wrapping at the right margin as printing does. Once the repeats filled more rows than
 * the buffer keeps plus a screen (`least` repeats of the narrowest character fill
 * `bufferRows + rows + 2` rows), every row the buffer keeps was written by the REP after every row
 * that held earlier text was pushed out or overwritten, and each further full row is again `cols`
 * (narrow) or `floor(cols / 2)` (wide) copies. So any two counts from `least` on that differ by a
 * multiple of both (`period`) leave the same rows, the same cursor column and the same pending
 * wrap. Without autowrap every repeat lands in the last column and the count past `cols` does not
 * matter at all.
 */
export function repeatBound(geometry: Geometry): { least: number; period: number } {
  const cols = Math.max(1, geometry.cols);
  const wide = Math.max(1, Math.floor(cols / 2));
  return { least: (geometry.bufferRows + geometry.rows + 2) * cols, period: (cols / gcd(cols, wide)) * wide };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
