/**
 * The lines of a byte stream split at `\n`, in time linear in the bytes: each chunk is searched
 * once, from its start, and never again. A line that lies within one chunk is a view of it; the
 * pieces of a line that spans chunks are copied once each into a buffer that doubles as it grows
 * (not kept as a list of chunks: a client sending one byte per write would make one object per
 * byte). A line longer than a bound is not kept: once it passes the bound, what was held of it and
 * every further byte up to its newline go to a watcher (which looks at each once) and are dropped;
 * the line is then given as an {@link OverlongLine} in its place among the lines.
 */
import { checkInteger } from '../common/integerInput';

/** Looks at the bytes of a line too long to keep, piece by piece, in order. */
export interface LineWatcher {
  push(piece: Buffer): void;
}

/** A line that passed the bound, in place of its bytes: its length and the watcher that saw them. */
export class OverlongLine<W extends LineWatcher> {
  /**
   * @param bytes the line's length in bytes, its newline not counted.
   * @param watcher the watcher that was given every byte of it.
   */
  constructor(
    readonly bytes: number,
    readonly watcher: W,
  ) {}
}

/**
 * Splits a byte stream into lines (see the module comment): {@link push} each chunk received, then
 * take the lines it completed with {@link next} until it returns undefined. Holds at most
 * `maxLineBytes` of an unfinished line, plus the complete lines not taken yet.
 */
export class LineSplitter<W extends LineWatcher> {
  /** Complete lines not taken yet: `lines[head]` is the next. */
  private lines: (Buffer | OverlongLine<W>)[] = [];
  private head = 0;
  /** The unfinished line: its first `unfinishedLength` bytes (undefined while there is none or it passed the bound). */
  private unfinished: Buffer | undefined;
  /** Bytes of the unfinished line so far, those dropped included. */
  private unfinishedLength = 0;
  /** Whether {@link unfinished} is a buffer of ours to write into (not a view of a received chunk). */
  private owned = false;
  /** The watcher of the unfinished line once it passed the bound (its bytes are dropped). */
  private overlong: W | undefined;

  /**
   * @param maxLineBytes longest line kept, in bytes without its `\n` (a `\r` before it counts);
   *   a positive safe integer.
   * @param watch makes the watcher of a line that passes the bound (called once per such line).
   * @throws RangeError when `maxLineBytes` is not a positive safe integer.
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly watch: () => W,
  ) {
    checkInteger(maxLineBytes, 'maxLineBytes', { min: 1, note: 'in bytes' }, (m) => new RangeError(m));
  }

  /** Bytes of the unfinished line received so far, those dropped included (0 when every byte received ended a line). */
  get unfinishedBytes(): number {
    return this.unfinishedLength;
  }

  /** Bytes of the unfinished line held: at most `maxLineBytes`, and 0 once it passed the bound. */
  get heldBytes(): number {
    return this.overlong ? 0 : this.unfinishedLength;
  }

  /** Adds the next bytes of the stream; the lines they complete become available to {@link next}. */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.add(chunk.subarray(start, newline));
      this.lines.push(this.take());
      start = newline + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
  }

  /**
   * The next complete line (without its `\n`), an {@link OverlongLine} in place of one that passed
   * the bound, or undefined when none is complete.
   */
  next(): Buffer | OverlongLine<W> | undefined {
    if (this.head === this.lines.length) return undefined;
    const line = this.lines[this.head]!;
    this.head++;
    if (this.head === this.lines.length) {
      this.lines = [];
      this.head = 0;
    }
    return line;
  }

  /** Drops every line and the unfinished one. */
  clear(): void {
    this.lines = [];
    this.head = 0;
    this.take();
  }

  /**
   * Appends `piece` to the unfinished line (as a view when it is the first piece); once the line
   * passes the bound, gives what was held and every further piece to its watcher instead.
   */
  private add(piece: Buffer): void {
    const length = this.unfinishedLength + piece.length;
    if (this.overlong) {
      if (piece.length > 0) this.overlong.push(piece);
      this.unfinishedLength = length;
      return;
    }
    if (length > this.maxLineBytes) {
      const watcher = this.watch();
      if (this.unfinishedLength > 0) watcher.push(this.unfinished!.subarray(0, this.unfinishedLength));
      watcher.push(piece);
      this.overlong = watcher;
      this.unfinished = undefined;
      this.owned = false;
      this.unfinishedLength = length;
      return;
    }
    if (piece.length === 0) return;
    if (this.unfinishedLength === 0) {
      this.unfinished = piece; // a view of the chunk: copied only if another piece follows
    } else {
      if (!this.owned || this.unfinished!.length < length) {
        const grown = Buffer.allocUnsafe(Math.min(this.maxLineBytes, Math.max(length, 2 * this.unfinishedLength, 4096)));
        this.unfinished!.copy(grown, 0, 0, this.unfinishedLength);
        this.unfinished = grown;
        this.owned = true;
      }
      piece.copy(this.unfinished!, this.unfinishedLength);
    }
    this.unfinishedLength = length;
  }

  /** The unfinished line as a complete one (or its {@link OverlongLine}); the splitter starts a new line. */
  private take(): Buffer | OverlongLine<W> {
    const line = this.overlong
      ? new OverlongLine(this.unfinishedLength, this.overlong)
      : this.unfinished === undefined
        ? Buffer.alloc(0)
        : this.unfinished.subarray(0, this.unfinishedLength);
    this.unfinished = undefined;
    this.unfinishedLength = 0;
    this.owned = false;
    this.overlong = undefined;
    return line;
  }
}
