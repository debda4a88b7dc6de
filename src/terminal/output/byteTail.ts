/**
 * Tails of text bounded by UTF-8 bytes: a string's tail cut on a code point boundary, the same for
 * terminal text (never starting inside an escape sequence), and the per-send viewport, the bounded
 * tail of one send's output kept as it arrives.
 */
import { CLEAN_START_LOOKBACK, cleanStart } from './escapeScan';

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
 * As tailByBytes, for terminal text: when the cut falls inside an escape sequence, the rest of that
 * sequence is dropped too (escapeScan.ts cleanStart), so the tail starts cleanly, as text or with
 * a whole sequence. Never more than `maxBytes` bytes; `dropped` counts every byte left out.
 */
export function terminalTailByBytes(text: string, maxBytes: number): { text: string; dropped: number } {
  const tail = tailByBytes(text, maxBytes);
  if (tail.dropped === 0) return tail;
  const at = text.length - tail.text.length;
  const start = cleanStart(text, at);
  if (start === at) return tail;
  const kept = text.slice(start);
  return { text: kept, dropped: tail.dropped + utf8Length(text.slice(at, start)) };
}

/**
 * The tail of one send's output, at most `maxBytes` UTF-8 bytes, counting what it dropped.
 * Amortised: text is kept in chunks; whole chunks that the bound no longer needs are let go as
 * they age (no copy), and only `result()` cuts the oldest kept chunk on a code point boundary,
 * past an escape sequence the cut would fall in (terminalTailByBytes).
 */
export class ViewportBuffer {
  private chunks: string[] = [];
  /** UTF-8 bytes of each chunk in `chunks`. */
  private sizes: number[] = [];
  /** Index of the oldest kept chunk; those before it are gone. */
  private head = 0;
  private size = 0;
  private dropped = 0;

  constructor(private readonly maxBytes: number) {}

  append(text: string): void {
    if (!text) return;
    const n = utf8Length(text);
    this.chunks.push(text);
    this.sizes.push(n);
    this.size += n;
    // Let the oldest chunks go while the newer ones alone still fill the bound and the look-back
    // before the cut that tells whether it falls inside an escape sequence (terminalTailByBytes).
    while (this.size - this.sizes[this.head]! >= this.maxBytes + CLEAN_START_LOOKBACK) {
      this.size -= this.sizes[this.head]!;
      this.dropped += this.sizes[this.head]!;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  /** The kept text and how many bytes in all were dropped from its oldest end. */
  result(): { text: string; dropped: number } {
    const { text, dropped } = terminalTailByBytes(this.chunks.slice(this.head).join(''), this.maxBytes);
    this.chunks = [text];
    this.sizes = [this.size - dropped];
    this.head = 0;
    this.size -= dropped;
    this.dropped += dropped;
    return { text, dropped: this.dropped };
  }
}
