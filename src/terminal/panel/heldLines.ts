/**
 * Plain text a terminal emulator need not parse: of a long run of ordinary output, only the newest
 * rows decide what the emulator's screen and scrollback show, so the panel mirror's emulator
 * (mirrorEmulatorWorker.ts) holds such text back and parses only its newest part when it must
 * (before a snapshot, a resize, or output that is not plain). 100 MB of ordinary lines cost
 * `@xterm/headless` about 1.3 s of CPU, one 50 MB line about 0.6 s; held, a few hundred rows of
 * each are parsed.
 *
 * Why dropping older text leaves the same state. Say the emulator parsed A, which ended in the
 * parser's ground state, and plain text B then C follow ({@link isPlainText}: printable characters,
 * CR, LF and HT; nothing that changes a mode, the pen, a charset or the tab stops). Parsing A then C
 * leaves the state that A, B and C leave when either
 * - *lines:* B ends with CR LF and C holds at least `2 × rows + scrollback + 1` CR LF pairs: after
 *   C's first CR LF the cursor is in column 0 either way (on different rows), and from there the
 *   same text is parsed; or
 * - *one long line:* B and the start of C are printable ASCII only (one cell each, no tab, no line
 *   end), B is a whole number of rows long (`cols` characters each) and C's ASCII start fills at
 *   least `2 × rows + scrollback + 1` rows: after B the cursor is in the column it was in before B
 *   (from column 0 it waits at the right margin instead, where the next character wraps to
 *   column 0), so C's rows wrap at the same places.
 *
 * From there, at most `rows` line feeds or wraps bring the cursor to the bottom row (what it wrote
 * on rows that held older text may leave some of that text beside it); from then on each one
 * scrolls, and each row written is a new blank one. After `rows` more the screen holds only such
 * rows, after `scrollback` more so does the scrollback; the pen, modes and tab stops are A's either
 * way. This needs every line feed and wrap at the bottom row to scroll and to write on a new row:
 * the scroll region must be the whole screen (below a smaller one nothing scrolls), insert mode off
 * and wraparound on. The caller checks all three on the emulator ({@link mayHoldIn}).
 */
import type { Terminal } from '@xterm/headless';
import { scrollRegion } from './skipAhead';
import { checkInteger } from '../../common/integerInput';

/** Most UTF-16 units held: past it, held text that cannot be shortened is given back to be parsed. */
export const MAX_HELD_UNITS = 1024 * 1024;

/** Any unit that is not printable, CR, LF or HT: C0 controls, DEL and C1 controls (U+0080–U+009F). */
const NOT_PLAIN = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

/** True when `text` holds only printable characters (U+0020–U+007E, U+00A0 on), CR, LF and HT. */
export function isPlainText(text: string): boolean {
  return !NOT_PLAIN.test(text);
}

/**
 * True when plain text may be held back from `term`, which parsed everything it was given: its
 * scroll region is the whole screen, insert mode is off and wraparound on (see the module comment).
 */
export function mayHoldIn(term: Terminal): boolean {
  const region = scrollRegion(term);
  const modes = term.modes;
  return region !== undefined && region.top === 0 && region.bottom === term.rows - 1 && !modes.insertMode && modes.wraparoundMode;
}

/** Rows (CR LF pairs, or rows of a long line) of the newest held text an emulator of `rows` rows and `scrollback` lines of scrollback needs (see the module comment). */
export function rowsToKeep(rows: number, scrollback: number): number {
  return 2 * rows + scrollback + 1;
}

/** The emulator's size: `cols` × `rows` cells, `scrollback` lines. */
export interface HeldGeometry {
  cols: number;
  rows: number;
  scrollback: number;
}

/**
 * Plain text held back from an emulator, in order. Of it only the newest part is kept (see the
 * module comment): once it holds more than twice {@link rowsToKeep} CR LF pairs, what comes
 * before the newest ones is dropped, up to just after a CR LF; once it ends with a stretch of
 * printable ASCII that fills twice as many rows, whole rows of that stretch are dropped. Every text held must be plain
 * and continue text that ended in the parser's ground state; the caller gives the emulator
 * {@link take}'s text before anything else.
 */
export class HeldLines {
  private parts: string[] = [];
  private units = 0;
  /** CR LF pairs in `parts`, a pair split between two parts included. */
  private lineEnds = 0;
  private endsWithCr = false;
  /** Length of the printable ASCII (U+0020–U+007E) the held text ends with. */
  private asciiRun = 0;
  /** CR LF pairs, or rows of a long line, kept of the newest text ({@link rowsToKeep}). */
  private keep = 0;
  private cols = 0;
  /** UTF-16 units dropped so far, never parsed. */
  dropped = 0;

  /** @throws RangeError when a size is not a positive whole number (`scrollback` may be 0) */
  constructor(geometry: HeldGeometry) {
    this.resize(geometry);
  }

  /** UTF-16 units held. */
  get size(): number {
    return this.units;
  }

  /** The emulator's new size; give it {@link take}'s text before it resizes. @throws RangeError as the constructor */
  resize(geometry: HeldGeometry): void {
    const { cols, rows, scrollback } = geometry;
    for (const [name, n, min] of [
      ['cols', cols, 1],
      ['rows', rows, 1],
      ['scrollback', scrollback, 0],
    ] as const)
      checkInteger(n, name, { min, note: "part of an emulator's size" }, (m) => new RangeError(m));
    this.cols = cols;
    this.keep = rowsToKeep(rows, scrollback);
  }

  /**
   * Holds plain `text`. Returns what the emulator must parse now: '' while the text is held, or
   * everything held (`text` included) when more than {@link MAX_HELD_UNITS} would be held.
   */
  hold(text: string): string {
    if (text.length === 0) return '';
    if (this.endsWithCr && text.charCodeAt(0) === 0x0a) this.lineEnds++;
    for (let at = text.indexOf('\r\n'); at >= 0; at = text.indexOf('\r\n', at + 2)) this.lineEnds++;
    this.endsWithCr = text.charCodeAt(text.length - 1) === 0x0d;
    let start = text.length;
    while (start > 0 && isAscii(text.charCodeAt(start - 1))) start--;
    this.asciiRun = start === 0 ? this.asciiRun + text.length : text.length - start;
    this.parts.push(text);
    this.units += text.length;
    if (this.lineEnds > 2 * this.keep) this.dropOldLines();
    if (this.asciiRun >= 2 * this.keep * this.cols) this.dropOldRows();
    return this.units > MAX_HELD_UNITS ? this.take() : '';
  }

  /** Everything held, in order; nothing is held after. */
  take(): string {
    const text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.parts = [];
    this.units = 0;
    this.lineEnds = 0;
    this.endsWithCr = false;
    this.asciiRun = 0;
    return text;
  }

  /** Drops what comes before the newest `keep` CR LF pairs, up to and including the CR LF before them. */
  private dropOldLines(): void {
    let found = 0;
    let start = this.units;
    for (let p = this.parts.length - 1; p >= 0; p--) {
      const part = this.parts[p]!;
      start -= part.length;
      let cut = -1;
      // A pair split between this part and the next lies after every pair inside this part.
      if (part.charCodeAt(part.length - 1) === 0x0d && this.parts[p + 1]?.charCodeAt(0) === 0x0a && ++found > this.keep)
        cut = start + part.length + 1;
      for (let at = part.lastIndexOf('\r\n'); cut < 0 && at >= 0; at = at > 0 ? part.lastIndexOf('\r\n', at - 1) : -1) {
        if (++found > this.keep) cut = start + at + 2;
      }
      if (cut >= 0) {
        this.remove(0, cut);
        this.lineEnds = this.keep;
        return;
      }
    }
  }

  /** Drops whole rows from the start of the printable ASCII the held text ends with, leaving `keep` rows of it or a little more. */
  private dropOldRows(): void {
    const rows = Math.floor(this.asciiRun / this.cols) - this.keep;
    if (rows <= 0) return;
    const start = this.units - this.asciiRun;
    this.remove(start, start + rows * this.cols);
    this.asciiRun -= rows * this.cols;
  }

  /**
   * Removes units [`from`, `to`) of the held text. The parts are sliced, not joined: a string
   * of 128 KiB or more goes to V8's large-object space and costs about 50 times as much to make.
   */
  private remove(from: number, to: number): void {
    const kept: string[] = [];
    let at = 0;
    for (const part of this.parts) {
      const end = at + part.length;
      if (end <= from || at >= to) kept.push(part);
      else {
        if (at < from) kept.push(part.slice(0, from - at));
        if (end > to) kept.push(part.slice(to - at));
      }
      at = end;
    }
    this.parts = kept;
    this.units -= to - from;
    this.dropped += to - from;
  }
}

/** True for printable ASCII, U+0020–U+007E: one cell each. */
function isAscii(c: number): boolean {
  return c >= 0x20 && c < 0x7f;
}
