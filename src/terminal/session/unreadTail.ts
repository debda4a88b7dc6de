/**
 * The newest output not yet handed out, bounded in bytes: a background job's unread output,
 * handed out read-and-advance. Kept in a ViewportBuffer (byteTail.ts), as a send's viewport is:
 * appending costs the chunk's own length whatever is already held, chunks the bound no longer
 * needs are let go as they age, and what `take` hands out is the newest at most `maxBytes` bytes,
 * starting on a code point and never with the rest of an escape sequence, with every byte left
 * out counted.
 */
import { ViewportBuffer } from '../output/byteTail';

/** Unread terminal output, at most `maxBytes` UTF-8 bytes when taken (oldest dropped first). */
export class UnreadTail {
  private buffer: ViewportBuffer;

  /** @param maxBytes the most UTF-8 bytes `take` hands out. */
  constructor(private readonly maxBytes: number) {
    this.buffer = new ViewportBuffer(maxBytes);
  }

  /** Appends `text` (terminal output as it arrived). */
  push(text: string): void {
    this.buffer.append(text);
  }

  /**
   * Hands out and forgets what is held: `text` the newest at most `maxBytes` bytes since the last
   * take, `droppedBytes` the UTF-8 bytes left out before it.
   */
  take(): { text: string; droppedBytes: number } {
    const { text, dropped } = this.buffer.result();
    this.buffer = new ViewportBuffer(this.maxBytes);
    return { text, droppedBytes: dropped };
  }
}
