/**
 * Bounded scrollback and the per-send viewport. Text in, lines out; no terminal content leaves
 * except through `Scrollback.page()` / `ViewportBuffer.result()`.
 *
 * Bounds (in this order): at most `maxLines` complete lines (oldest dropped first), then at most
 * `maxBytes` UTF-8 bytes in all (a `\n` per line counted) (oldest lines dropped, then the head of a single oversized line
 * cut on a code point boundary). Reads are capped separately by their own byte limit.
 *
 * A line longer than `maxLineBytes` is stored as several lines, each but the last ending with
 * LINE_SPLIT_MARKER, cut on code point boundaries: with `maxLineBytes` ≤ the read cap, every byte of
 * a 200 000-byte line is reachable by paging (a page never has to cut a line's head away).
 */

/** Limits of a scrollback, in lines and UTF-8 bytes. */
export interface ScrollbackLimits {
  maxLines: number;
  maxBytes: number;
  /** Longest stored line in UTF-8 bytes, marker included (≥ 16); longer ones are split. Default: maxBytes. */
  maxLineBytes?: number;
}

/** Visible end of a stored piece of a line that was split because it was too long (U+23CE, 3 bytes). */
export const LINE_SPLIT_MARKER = '⏎';
const LINE_SPLIT_MARKER_BYTES = 3;

const utf8Length = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Keeps the last `maxBytes` UTF-8 bytes of `text`, never splitting a code point (a surrogate pair
 * stays whole). Returns the kept tail and the number of bytes dropped.
 */
export function tailByBytes(text: string, maxBytes: number): { text: string; dropped: number } {
  const total = utf8Length(text);
  if (total <= maxBytes) return { text, dropped: 0 };
  const buf = Buffer.from(text, 'utf8');
  let start = buf.length - maxBytes;
  // Skip UTF-8 continuation bytes (10xxxxxx) so the cut lands on a code point's first byte.
  while (start < buf.length && (buf.readUInt8(start) & 0xc0) === 0x80) start++;
  return { text: buf.subarray(start).toString('utf8'), dropped: start };
}

/**
 * Where a scrollback stands in absolute coordinates, counted since it was created: line numbers
 * 0-based (the numbers `ReadResult.firstLineNumber` uses), bytes as stored (UTF-8, one `\n` per
 * complete line, split markers included). Nothing here moves when old lines are evicted.
 */
export interface ScrollbackPosition {
  /** Number of the oldest retained line. */
  firstLine: number;
  /** Number of the line being written: the unfinished line when `open`, else the next one. */
  endLine: number;
  /** An unfinished line (no newline yet) is retained. */
  open: boolean;
  /** Bytes ever evicted or cut from the oldest end: the absolute offset where retained text starts. */
  firstByte: number;
  /** Bytes ever stored: the absolute offset of the end. */
  endByte: number;
}

/** Line-oriented bounded history of a session's output. */
export class Scrollback {
  private lines: string[] = [];
  private lineBytes: number[] = [];
  private head = 0;
  private partial = '';
  private bytes = 0;
  /** Absolute number of the oldest retained line (lines ever evicted before it). */
  private evicted = 0;
  /** Bytes of the lines evicted, and of heads cut from an oversized unfinished line. */
  private evictedBytes = 0;
  private readonly maxLineBytes: number;

  constructor(private readonly limits: ScrollbackLimits) {
    this.maxLineBytes = Math.max(16, limits.maxLineBytes ?? limits.maxBytes);
  }

  /** Appends decoded output. `\r\n` and `\n` end lines; a trailing `\r` of a line is dropped. */
  append(text: string): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      let line = this.partial + text.slice(start, nl);
      this.partial = '';
      if (line.endsWith('\r')) line = line.slice(0, -1);
      this.pushLine(line);
      start = nl + 1;
    }
    if (start < text.length) {
      this.partial += text.slice(start);
      // An unfinished line that is already too long: its head is final, store it now. The
      // length in UTF-16 units is ≤ its UTF-8 length, so the cheap check comes first.
      if (this.partial.length * 3 > this.maxLineBytes && utf8Length(this.partial) > this.maxLineBytes) {
        const pieces = splitLine(this.partial, this.maxLineBytes);
        this.partial = pieces.pop() ?? '';
        for (const piece of pieces) this.storeLine(piece);
      }
    }
    this.enforce();
  }

  /** Retained lines, counting a non-empty unfinished last line. */
  get totalLines(): number {
    return this.lines.length - this.head + (this.partial ? 1 : 0);
  }

  /** Retained UTF-8 bytes, one `\n` per complete line counted. */
  get totalBytes(): number {
    return this.bytes + utf8Length(this.partial);
  }

  /** The retained range in absolute coordinates (see ScrollbackPosition). */
  position(): ScrollbackPosition {
    const complete = this.lines.length - this.head;
    const partialBytes = this.partial ? utf8Length(this.partial) : 0;
    return {
      firstLine: this.evicted,
      endLine: this.evicted + complete,
      open: this.partial !== '',
      firstByte: this.evictedBytes,
      endByte: this.evictedBytes + this.bytes + partialBytes,
    };
  }

  /**
   * A page ending `offset` lines back from the newest, of up to `count` lines, at most `maxBytes`
   * UTF-8 bytes (newline separators included): the oldest lines that do not fit are left to the
   * next page (`lineEnd` stops before them); only a single line larger than the cap loses its head.
   * `offset` past the end gives an empty page at the oldest line.
   */
  page(offset: number, count: number, maxBytes: number) {
    const total = this.totalLines;
    const end = Math.max(0, total - offset); // absolute index (0 = oldest retained), exclusive
    const begin = Math.max(0, end - count);
    const out: string[] = [];
    let used = 0;
    let truncated = false;
    let first = end;
    for (let i = end - 1; i >= begin; i--) {
      const line = this.lineAt(i);
      const cost = utf8Length(line) + (out.length ? 1 : 0);
      if (used + cost > maxBytes) {
        // Only a page's newest line is ever cut (when it alone exceeds the cap): cutting an older
        // one would hide its head from the next page, which starts at lineEnd.
        if (out.length === 0) {
          out.push(tailByBytes(line, maxBytes).text);
          first = i;
        }
        truncated = true;
        break;
      }
      out.push(line);
      used += cost;
      first = i;
    }
    out.reverse();
    const shown = end - first;
    return {
      offset: total - end,
      lineBegin: total - end,
      lineEnd: total - end + shown,
      totalLines: total,
      firstLineNumber: this.evicted + first,
      truncated,
      text: out.join('\n'),
    };
  }

  /**
   * The raw lines a `page(offset, count, …)` without a byte cap would hold, oldest first, as UTF-8
   * with a `\n` after each line, in an ArrayBuffer of their own that can be transferred to a worker
   * thread: one copy, no string concatenation. `firstLineNumber` is absolute.
   */
  utf8Lines(offset: number, count: number): { firstLineNumber: number; lineCount: number; bytes: Uint8Array } {
    const total = this.totalLines;
    const end = Math.max(0, total - offset);
    const begin = Math.max(0, end - count);
    let size = 0;
    for (let i = begin; i < end; i++) size += this.lineBytes[this.head + i] ?? utf8Length(this.partial) + 1;
    const bytes = Buffer.allocUnsafeSlow(size);
    let at = 0;
    for (let i = begin; i < end; i++) {
      at += bytes.write(this.lineAt(i), at);
      bytes[at++] = 0x0a;
    }
    return { firstLineNumber: this.evicted + begin, lineCount: end - begin, bytes };
  }

  private lineAt(index: number): string {
    // Past the complete lines comes the partial one.
    return this.lines[this.head + index] ?? this.partial;
  }

  private pushLine(line: string): void {
    if (line.length * 3 > this.maxLineBytes && utf8Length(line) > this.maxLineBytes) {
      for (const piece of splitLine(line, this.maxLineBytes)) this.storeLine(piece);
    } else {
      this.storeLine(line);
    }
  }

  private storeLine(line: string): void {
    const n = utf8Length(line) + 1; // the line and its terminator
    this.lines.push(line);
    this.lineBytes.push(n);
    this.bytes += n;
    if (this.lines.length - this.head > this.limits.maxLines) this.dropOldest();
  }

  private dropOldest(): void {
    const dropped = this.lineBytes[this.head];
    if (dropped === undefined) return; // no complete line to drop
    this.bytes -= dropped;
    this.evictedBytes += dropped;
    this.head++;
    this.evicted++;
    if (this.head > 4096 && this.head * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.head);
      this.lineBytes = this.lineBytes.slice(this.head);
      this.head = 0;
    }
  }

  private enforce(): void {
    while (this.lines.length - this.head > 0 && this.bytes + utf8Length(this.partial) > this.limits.maxBytes) {
      this.dropOldest();
    }
    if (utf8Length(this.partial) > this.limits.maxBytes) {
      const cut = tailByBytes(this.partial, this.limits.maxBytes);
      this.partial = cut.text;
      this.evictedBytes += cut.dropped;
    }
  }
}

/**
 * Cuts a line longer than `maxBytes` into pieces on code point boundaries: every piece but the last
 * is at most `maxBytes` bytes including the LINE_SPLIT_MARKER it ends with; the last piece (the
 * rest, unmarked) is at most `maxBytes` bytes as well.
 */
export function splitLine(line: string, maxBytes: number): string[] {
  const room = maxBytes - LINE_SPLIT_MARKER_BYTES;
  const pieces: string[] = [];
  let left = utf8Length(line);
  let start = 0;
  // Walks UTF-16 code units, never between the halves of a surrogate pair; a lone surrogate
  // (an unfinished line may end in one) stays in the rest, untouched.
  while (left > maxBytes) {
    let i = start;
    let bytes = 0;
    for (;;) {
      const c = line.charCodeAt(i);
      const pair = c >= 0xd800 && c <= 0xdbff && (line.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      const size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      if (bytes + size > room && i > start) break;
      bytes += size;
      i += pair ? 2 : 1;
    }
    pieces.push(line.slice(start, i) + LINE_SPLIT_MARKER);
    left -= bytes;
    start = i;
  }
  pieces.push(line.slice(start));
  return pieces;
}

/**
 * The tail of one send's output, at most `maxBytes` UTF-8 bytes, counting what it dropped.
 * Amortised: text is kept in chunks and trimmed only when twice over the bound.
 */
export class ViewportBuffer {
  private chunks: string[] = [];
  private size = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  append(text: string): void {
    if (!text) return;
    this.chunks.push(text);
    this.size += utf8Length(text);
    if (this.size > this.maxBytes * 2) this.trim();
  }

  /** The kept text and how many bytes in all were dropped from its oldest end. */
  result(): { text: string; dropped: number } {
    this.trim();
    return { text: this.chunks.join(''), dropped: this.dropped };
  }

  private trim(): void {
    if (this.size <= this.maxBytes) return;
    const { text, dropped } = tailByBytes(this.chunks.join(''), this.maxBytes);
    this.chunks = [text];
    this.size -= dropped;
    this.dropped += dropped;
  }
}
