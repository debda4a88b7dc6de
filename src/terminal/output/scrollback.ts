/**
 * Bounded scrollback. Text in, lines out; no terminal content leaves except through
 * `Scrollback.page()` (the per-send viewport and byte tails are byteTail.ts).
 *
 * Bounds (in this order): at most `maxLines` complete lines (oldest dropped first), then at most
 * `maxBytes` UTF-8 bytes in all (a `\n` per line counted) (oldest lines dropped, then the head of a single oversized line
 * cut on a code point boundary, past an escape sequence the cut falls in). Reads are capped separately by their own byte limit.
 *
 * A line longer than `maxLineBytes` is stored as several lines, each but the last ending with
 * LINE_SPLIT_MARKER, cut on code point boundaries: with `maxLineBytes` ≤ the read cap, every byte of
 * a 200 000-byte line is reachable by paging (a page never has to cut a line's head away).
 */
import { isHighSurrogate, isLowSurrogate } from '../../common/textHead';
import { openSequenceStart } from './escapeScan';
import { terminalTailByBytes } from './byteTail';

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
  /** UTF-8 bytes of the unfinished line so far (0 when not `open`). */
  openBytes: number;
}

/** Line-oriented bounded history of a session's output. */
export class Scrollback {
  /**
   * Complete lines in a ring (capacity a power of two, grown up to the line bound): line `i`
   * (0 = oldest retained) is at `(first + i) & (capacity - 1)`. A ring, not an array shifted from
   * the front, so that millions of lines pass through at constant cost each.
   */
  private lines: string[] = new Array<string>(64).fill('');
  /** UTF-8 bytes of each line in `lines`, its terminator included. */
  private lineBytes = new Float64Array(64);
  /** 1 for a line in `lines` that is a piece of a longer line (it ends with LINE_SPLIT_MARKER) continued by the next line. */
  private continued = new Uint8Array(64);
  private first = 0;
  private count = 0;
  /**
   * The unfinished line as the parts it arrived in (the chunks given to `append`, or slices of
   * them), oldest first, with the UTF-8 bytes of each (as Buffer.byteLength counts them: a lone
   * surrogate is 3). Joined only when read or stored: a line of 50 MB is stored piece by piece,
   * each made of the parts it spans, never copied or walked whole to be cut. A surrogate pair is
   * never split between two parts.
   */
  private partialParts: string[] = [];
  private partialPartBytes: number[] = [];
  /** UTF-16 code units of the unfinished line. */
  private partialLength = 0;
  /**
   * UTF-8 bytes of the unfinished line, kept as it grows: it can arrive in thousands of small
   * writes (a progress bar redrawn with `\r` never ends its line), and counting it again at each
   * one cost more than reading it. Equal to `partialLength` exactly when the line is ASCII.
   */
  private partialBytes = 0;
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
    // One byte count for the whole chunk: when it equals the length, every line in it is ASCII
    // and a line's UTF-8 length is its length (the common case; counting each line costs more).
    const ascii = utf8Length(text) === text.length;
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      const partial = this.partial();
      let line = partial ? partial + text.slice(start, end) : text.slice(start, end);
      // A `\r` that ended the previous chunk's partial line belongs to this `\n`.
      if (nl === start && partial.endsWith('\r')) line = line.slice(0, -1);
      const asciiLine = ascii && this.partialBytes === this.partialLength;
      this.setPartial('');
      this.pushLine(line, asciiLine ? line.length : undefined);
      start = nl + 1;
    }
    if (start < text.length) {
      this.growPartial(text.slice(start), ascii);
      // An unfinished line that is already too long: its head is final, store it now.
      while (this.partialBytes > this.maxLineBytes) this.storePartialHead();
    }
    this.enforce();
  }

  /** Retained lines, counting a non-empty unfinished last line. */
  get totalLines(): number {
    return this.count + (this.partialLength > 0 ? 1 : 0);
  }

  /** Retained UTF-8 bytes, one `\n` per complete line counted. */
  get totalBytes(): number {
    return this.bytes + this.partialBytes;
  }

  /** The unfinished line, its parts joined (and kept joined). */
  private partial(): string {
    if (this.partialParts.length > 1) {
      this.partialParts = [this.partialParts.join('')];
      this.partialPartBytes = [this.partialBytes];
    }
    return this.partialParts[0] ?? '';
  }

  /** Appends `more` (non-empty; ASCII only when `ascii`) to the unfinished line, counting its bytes. */
  private growPartial(more: string, ascii: boolean): void {
    const last = this.partialParts.length - 1;
    const previous = this.partialParts[last];
    // A surrogate pair cut between two chunks: its high half moves over to the low half, so that
    // no part ends in half a pair (alone each half counts 3 bytes, together 4).
    if (
      !ascii &&
      previous !== undefined &&
      isLowSurrogate(more.charCodeAt(0)) &&
      isHighSurrogate(previous.charCodeAt(previous.length - 1))
    ) {
      this.partialBytes -= 3;
      this.partialLength -= 1;
      more = previous.slice(-1) + more;
      if (previous.length === 1) {
        this.partialParts.pop();
        this.partialPartBytes.pop();
      } else {
        this.partialParts[last] = previous.slice(0, -1);
        this.partialPartBytes[last]! -= 3;
      }
    }
    const bytes = ascii ? more.length : utf8Length(more);
    this.partialParts.push(more);
    this.partialPartBytes.push(bytes);
    this.partialLength += more.length;
    this.partialBytes += bytes;
  }

  /** Replaces the unfinished line (a cut of it, or '' once it ended). */
  private setPartial(text: string): void {
    this.partialParts = text ? [text] : [];
    this.partialBytes = text ? utf8Length(text) : 0;
    this.partialPartBytes = text ? [this.partialBytes] : [];
    this.partialLength = text.length;
  }

  /**
   * Stores the head of the unfinished line as a piece ending with LINE_SPLIT_MARKER, at most
   * `maxLineBytes` bytes with the marker, cut on a code point boundary and before an escape
   * sequence the cut would split (see {@link splitLine}).
   * The piece is the parts that fit whole, joined (one flat string of at most `maxLineBytes`: a
   * chain of thousands of one-byte writes would cost 30 bytes per byte kept), and the head of the
   * next part; the rest of the line is never copied or walked.
   */
  private storePartialHead(): void {
    const room = this.maxLineBytes - LINE_SPLIT_MARKER_BYTES;
    const parts = this.partialParts;
    let whole = 0;
    let bytes = 0;
    let units = 0;
    while (bytes + this.partialPartBytes[whole]! <= room) {
      bytes += this.partialPartBytes[whole]!;
      units += parts[whole]!.length;
      whole++;
    }
    // The next part is cut: as many of its code points as fit (at least one in a piece).
    const part = parts[whole]!;
    const partBytes = this.partialPartBytes[whole]!;
    const [cut, cutBytes] = partBytes === part.length ? [room - bytes, room - bytes] : fittingUnits(part, room - bytes, bytes === 0);
    let piece = parts.slice(0, whole).join('') + part.slice(0, cut);
    parts[whole] = part.slice(cut);
    this.partialPartBytes[whole] = partBytes - cutBytes;
    // One splice for all the parts taken (a shift each is a copy of the array each once it is large).
    parts.splice(0, whole);
    this.partialPartBytes.splice(0, whole);
    this.partialBytes -= bytes + cutBytes;
    this.partialLength -= units + cut;
    let pieceBytes = bytes + cutBytes;
    // An escape sequence the cut would split goes whole to the next piece, so that no piece (and no
    // page) starts with the rest of one; unless it starts the piece (it is longer than a piece).
    const open = openSequenceStart(piece, piece.length);
    if (open > 0) {
      const moved = piece.slice(open);
      const movedBytes = utf8Length(moved);
      piece = piece.slice(0, open);
      pieceBytes -= movedBytes;
      parts.unshift(moved);
      this.partialPartBytes.unshift(movedBytes);
      this.partialBytes += movedBytes;
      this.partialLength += moved.length;
    }
    this.storeLine(piece + LINE_SPLIT_MARKER, pieceBytes + LINE_SPLIT_MARKER_BYTES, true);
  }

  /**
   * Stores the head of the unfinished line as a piece now when the line is already longer than
   * a piece holds (maxLineBytes less the marker), though not yet longer than maxLineBytes: any
   * more text on it splits it there, inside what it holds now. A caller that marks where output
   * ends (a command's end) calls this first, so that the end falls on the unfinished line itself,
   * never on a piece that text arriving later would cut before it.
   */
  splitOpenLineAtPieceBound(): void {
    if (this.partialBytes > this.maxLineBytes - LINE_SPLIT_MARKER_BYTES) {
      this.storePartialHead();
      this.enforce();
    }
  }

  /** The retained range in absolute coordinates (see ScrollbackPosition). */
  position(): ScrollbackPosition {
    const complete = this.count;
    const partialBytes = this.partialBytes;
    return {
      firstLine: this.evicted,
      endLine: this.evicted + complete,
      open: this.partialLength > 0,
      firstByte: this.evictedBytes,
      endByte: this.evictedBytes + this.bytes + partialBytes,
      openBytes: this.partialLength > 0 ? partialBytes : 0,
    };
  }

  /**
   * UTF-8 bytes of absolute line `line` (as ScrollbackPosition numbers lines), its terminator
   * left out: of the unfinished line, what it holds so far; undefined for a line not retained.
   */
  byteLengthOf(line: number): number | undefined {
    const index = line - this.evicted;
    if (index < 0 || index >= this.totalLines) return undefined;
    return index < this.count ? this.lineBytes[(this.first + index) & (this.lines.length - 1)]! - 1 : this.partialBytes;
  }

  /**
   * A page ending `offset` lines back from the newest, of up to `count` lines, at most `maxBytes`
   * UTF-8 bytes (newline separators included): the oldest lines that do not fit are left to the
   * next page (`lineEnd` stops before them); only a single line larger than the cap loses its head
   * (with the rest of an escape sequence the cut falls in: terminalTailByBytes).
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
          out.push(terminalTailByBytes(line, maxBytes).text);
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
   * with a `\n` after each line: one copy, no string concatenation. They are written into the
   * buffer `allocate(size)` returns (at least `size` bytes; by default an ArrayBuffer of their own
   * that can be transferred to a worker thread); `bytes` views exactly them. `firstLineNumber` is
   * absolute. `continued` lists, ascending, the indexes (0 = the first of these lines) of the
   * lines that are a piece of a longer line, ending with LINE_SPLIT_MARKER, whose next piece is
   * the next stored line (see the module comment).
   */
  utf8Lines(
    offset: number,
    count: number,
    allocate: (size: number) => Uint8Array = (size) => Buffer.allocUnsafeSlow(size),
  ): { firstLineNumber: number; lineCount: number; bytes: Uint8Array; continued: number[] } {
    const total = this.totalLines;
    const end = Math.max(0, total - offset);
    const begin = Math.max(0, end - count);
    let size = 0;
    for (let i = begin; i < end; i++)
      size += i < this.count ? this.lineBytes[(this.first + i) & (this.lines.length - 1)]! : this.partialBytes + 1;
    const target = allocate(size);
    const bytes = Buffer.from(target.buffer, target.byteOffset, size);
    let at = 0;
    const continued: number[] = [];
    for (let i = begin; i < end; i++) {
      at += bytes.write(this.lineAt(i), at);
      bytes[at++] = 0x0a;
      if (i < this.count && this.continued[(this.first + i) & (this.lines.length - 1)]) continued.push(i - begin);
    }
    return { firstLineNumber: this.evicted + begin, lineCount: end - begin, bytes, continued };
  }

  private lineAt(index: number): string {
    // Past the complete lines comes the partial one.
    return index < this.count ? this.lines[(this.first + index) & (this.lines.length - 1)]! : this.partial();
  }

  /** Stores a complete line; `bytes` is its UTF-8 length when the caller knows it. */
  private pushLine(line: string, bytes?: number): void {
    if (line.length * 3 > this.maxLineBytes && (bytes ?? utf8Length(line)) > this.maxLineBytes) {
      const pieces = splitLine(line, this.maxLineBytes);
      pieces.forEach((piece, i) => this.storeLine(piece, undefined, i < pieces.length - 1));
    } else {
      this.storeLine(line, bytes);
    }
  }

  /** Stores a complete line; `continued`: it is a piece of a longer line, continued by the next. */
  private storeLine(line: string, bytes?: number, continued = false): void {
    const n = (bytes ?? utf8Length(line)) + 1; // the line and its terminator
    if (this.count === this.lines.length) this.grow();
    if (this.count === this.lines.length) this.dropOldest(); // at the line bound: the ring is full
    const at = (this.first + this.count) & (this.lines.length - 1);
    this.lines[at] = line;
    this.lineBytes[at] = n;
    this.continued[at] = continued ? 1 : 0;
    this.count++;
    this.bytes += n;
    if (this.count > this.limits.maxLines) this.dropOldest();
  }

  /** Doubles the ring while it is below the line bound, keeping the lines in order. */
  private grow(): void {
    const capacity = this.lines.length;
    if (capacity > this.limits.maxLines) return;
    const lines = new Array<string>(capacity * 2).fill('');
    const lineBytes = new Float64Array(capacity * 2);
    const continued = new Uint8Array(capacity * 2);
    for (let i = 0; i < this.count; i++) {
      const from = (this.first + i) & (capacity - 1);
      lines[i] = this.lines[from]!;
      lineBytes[i] = this.lineBytes[from]!;
      continued[i] = this.continued[from]!;
    }
    this.lines = lines;
    this.lineBytes = lineBytes;
    this.continued = continued;
    this.first = 0;
  }

  private dropOldest(): void {
    if (this.count === 0) return; // no complete line to drop
    const dropped = this.lineBytes[this.first]!;
    this.bytes -= dropped;
    this.evictedBytes += dropped;
    this.lines[this.first] = ''; // let the string go
    this.first = (this.first + 1) & (this.lines.length - 1);
    this.count--;
    this.evicted++;
  }

  private enforce(): void {
    while (this.count > 0 && this.bytes + this.partialBytes > this.limits.maxBytes) {
      this.dropOldest();
    }
    if (this.partialBytes > this.limits.maxBytes) {
      // Past an escape sequence the cut falls in, as every byte cut of terminal text.
      const cut = terminalTailByBytes(this.partial(), this.limits.maxBytes);
      this.setPartial(cut.text);
      this.evictedBytes += cut.dropped;
    }
  }
}

/**
 * Cuts a line longer than `maxBytes` into pieces on code point boundaries, before an escape
 * sequence a cut would split (unless it starts the piece): every piece but the last
 * is at most `maxBytes` bytes including the LINE_SPLIT_MARKER it ends with; the last piece (the
 * rest, unmarked) is at most `maxBytes` bytes as well.
 */
export function splitLine(line: string, maxBytes: number): string[] {
  const room = maxBytes - LINE_SPLIT_MARKER_BYTES;
  const pieces: string[] = [];
  let left = utf8Length(line);
  let rest = line;
  while (left > maxBytes) {
    let [cut, bytes] = fittingUnits(rest, room, true);
    // An escape sequence the cut would split goes whole to the next piece (see storePartialHead).
    const open = openSequenceStart(rest, cut);
    if (open > 0) {
      bytes -= utf8Length(rest.slice(open, cut));
      cut = open;
    }
    pieces.push(rest.slice(0, cut) + LINE_SPLIT_MARKER);
    left -= bytes;
    rest = rest.slice(cut);
  }
  pieces.push(rest);
  return pieces;
}

/**
 * How many UTF-16 code units from the start of `text` hold at most `maxBytes` UTF-8 bytes, never
 * between the halves of a surrogate pair (a lone surrogate counts 3 bytes, as Buffer.byteLength
 * counts it), and their bytes; with `atLeastOne`, the first code point even when it alone is larger.
 */
function fittingUnits(text: string, maxBytes: number, atLeastOne: boolean): [units: number, bytes: number] {
  let i = 0;
  let bytes = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const pair = isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(i + 1));
    const size = pair ? 4 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
    if (bytes + size > maxBytes && !(atLeastOne && i === 0)) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return [i, bytes];
}
