/**
 * The lines of a byte stream split at `\n`, in time linear in the bytes: each chunk is searched
 * once, from its start, and never again. A line that lies within one chunk is a view of it; the
 * pieces of a line that spans chunks are copied once each into a buffer that doubles as it grows
 * (not kept as a list of chunks: a client sending one byte per write would make one object per
 * byte). Lines longer than a bound are refused as soon as they pass it, newline or not.
 */

/** Thrown by {@link LineSplitter.push} when a line passes the bound; the splitter is emptied. */
export class LineTooLongError extends Error {
  /**
   * @param maxLineBytes the bound (bytes, the newline not counted).
   * @param why what the limit is for, appended to the message.
   */
  constructor(
    readonly maxLineBytes: number,
    why: string,
  ) {
    super(`a message of more than ${maxLineBytes} bytes${maxLineBytes % 1048576 === 0 ? ` (${maxLineBytes / 1048576} MiB)` : ''}: ${why}`);
  }
}

/**
 * Splits a byte stream into lines (see the module comment): {@link push} each chunk received, then
 * take the lines it completed with {@link next} until it returns undefined.
 */
export class LineSplitter {
  /** Complete lines not taken yet: `lines[head]` is the next. */
  private lines: Buffer[] = [];
  private head = 0;
  /** The unfinished line: its first `unfinishedLength` bytes (undefined while there is none). */
  private unfinished: Buffer | undefined;
  private unfinishedLength = 0;
  /** Whether {@link unfinished} is a buffer of ours to write into (not a view of a received chunk). */
  private owned = false;

  /**
   * @param maxLineBytes longest line accepted, in bytes without its `\n` (a `\r` before it counts);
   *   a positive safe integer.
   * @param why what the bound is for, said in {@link LineTooLongError}'s message.
   * @throws RangeError when `maxLineBytes` is not a positive safe integer.
   */
  constructor(
    private readonly maxLineBytes: number,
    private readonly why: string,
  ) {
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes <= 0) throw new RangeError(`maxLineBytes must be a positive whole number of bytes, not ${maxLineBytes}`);
  }

  /** Bytes of the unfinished line received so far (0 when every byte received ended a line). */
  get unfinishedBytes(): number {
    return this.unfinishedLength;
  }

  /**
   * Adds the next bytes of the stream; the lines they complete become available to {@link next}.
   * @throws LineTooLongError when a line passes `maxLineBytes`; everything held is dropped then.
   */
  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      this.add(chunk.subarray(start, newline));
      this.lines.push(this.take());
      start = newline + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
  }

  /** The next complete line (without its `\n`), or undefined when none is complete. */
  next(): Buffer | undefined {
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

  /** Appends `piece` to the unfinished line (as a view when it is the first piece). */
  private add(piece: Buffer): void {
    const length = this.unfinishedLength + piece.length;
    if (length > this.maxLineBytes) {
      this.clear();
      throw new LineTooLongError(this.maxLineBytes, this.why);
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

  /** The unfinished line as a complete one; the splitter starts a new line. */
  private take(): Buffer {
    const line = this.unfinished === undefined ? Buffer.alloc(0) : this.unfinished.subarray(0, this.unfinishedLength);
    this.unfinished = undefined;
    this.unfinishedLength = 0;
    this.owned = false;
    return line;
  }
}
