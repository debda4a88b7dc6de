/**
 * What a new panel emulator reads first: the session's newest output (the mirror rebuilds its
 * emulator from it when output outruns the emulator, see pacedMirror.ts), through a new
 * {@link PanelFilter}, and of that only the newest part whose estimated cost fits a budget.
 *
 * Why a budget: the tail is bounded in bytes (256 KiB), but not what it costs to parse. 256 KiB of
 * insert/delete-line sequences are about 100 M estimated cell writes, 1.3 s of parsing in
 * `@xterm/headless` on this project's 2-core machine; 256 KiB of `x ESC [ 2000000000 b` lines
 * 3.9 s; 256 KiB of ordinary lines about 0.4 M, 70 ms. A rebuild comes at most once a second while
 * such output goes on, and the emulator's thread competes for a CPU with the window that draws the
 * panel. The screen a rebuilt emulator shows is the newest output's either way; a shorter tail only
 * gives it fewer lines of scrollback.
 */
import { PanelFilter } from './panelFilter';

/** Most estimated cost (cell writes, as PanelFilter estimates them) of a tail a new emulator reads: about 50 ms of parsing. */
export const EMULATOR_TAIL_COST = 4 * 1024 * 1024;

/**
 * `tail` (raw output, escapes included) through a new PanelFilter of `cols` × `rows` cells, keeping
 * only its newest pieces (as the filter cuts them) whose estimated cost adds up to at most
 * `maxCost`. When older pieces are left out, the text starts just after the first line feed or at
 * the first ESC after the cut, so it does not begin inside an escape sequence; '' when there is
 * neither.
 */
export function emulatorTail(tail: string, cols: number, rows: number, maxCost = EMULATOR_TAIL_COST): string {
  const { text, ends, costs } = new PanelFilter(cols, rows).filter(tail);
  let first = costs.length;
  for (let cost = 0; first > 0 && cost + costs[first - 1]! <= maxCost; first--) cost += costs[first - 1]!;
  if (first === 0) return text;
  const cut = ends[first - 1]!;
  const lineFeed = text.indexOf('\n', cut);
  const escape = text.indexOf('\x1b', cut);
  const starts = [lineFeed < 0 ? -1 : lineFeed + 1, escape].filter((i) => i >= 0);
  return starts.length === 0 ? '' : text.slice(Math.min(...starts));
}
