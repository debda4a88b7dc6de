/**
 * The newest output not yet handed out, bounded in bytes: a background job's unread output.
 *
 * Appending costs the chunk's own length, whatever is already held: chunks are kept as they came
 * with a running UTF-8 byte count, and only once they hold twice the bound are they joined and cut
 * to it, so each byte is joined and measured a bounded number of times (a cut per bound's worth of
 * output, not a pass over the whole buffer per chunk). What `take` hands out is the same as
 * cutting after every chunk: the newest at most `maxBytes` bytes, starting on a code point and
 * never with the rest of an escape sequence (scrollback.ts terminalTailByBytes), with every byte
 * left out counted.
 */
import { terminalTailByBytes } from './scrollback';

/** Unread terminal output, at most `maxBytes` UTF-8 bytes when taken (oldest dropped first). */
export class UnreadTail {
  private chunks: string[] = [];
  /** UTF-8 bytes of `chunks`. */
  private bytes = 0;
  /** Bytes cut since the last `take`. */
  private dropped = 0;

  /** @param maxBytes the most UTF-8 bytes `take` hands out (at most twice that is held meanwhile). */
  constructor(private readonly maxBytes: number) {}

  /** Appends `text` (terminal output as it arrived). */
  push(text: string): void {
    if (text === '') return;
    this.chunks.push(text);
    this.bytes += Buffer.byteLength(text, 'utf8');
    if (this.bytes > 2 * this.maxBytes) this.cut();
  }

  /**
   * Hands out and forgets what is held: `text` the newest at most `maxBytes` bytes since the last
   * take, `droppedBytes` the UTF-8 bytes left out before it.
   */
  take(): { text: string; droppedBytes: number } {
    if (this.bytes > this.maxBytes) this.cut();
    const out = { text: this.chunks.join(''), droppedBytes: this.dropped };
    this.chunks = [];
    this.bytes = 0;
    this.dropped = 0;
    return out;
  }

  /** Joins what is held and keeps its clean tail of at most `maxBytes` bytes. */
  private cut(): void {
    const { text, dropped } = terminalTailByBytes(this.chunks.join(''), this.maxBytes);
    this.chunks = text === '' ? [] : [text];
    this.bytes -= dropped;
    this.dropped += dropped;
  }
}
