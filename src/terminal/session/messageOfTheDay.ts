/**
 * The message of the day: what a session's shell printed before its first prompt (a banner, what
 * the person's startup files echo), as an open's result shows it to the agent. Its newest
 * MOTD_MAX_BYTES bytes are kept, appending at the cost of each chunk's own length (byteTail.ts
 * ViewportBuffer). It is redacted once, when the first prompt came, as every text an agent reads
 * is (secretRedactor.ts: the built-in rules and the person's `dsh.terminal.secretPatterns`, lines
 * wrapped at the terminal's width read joined); the line the byte bound cut at its start, which
 * may hold the tail of a secret no rule knows without its head, is left out first.
 */
import { ViewportBuffer } from '../output/byteTail';
import type { SecretRedactor } from '../secrets/secretRedactor';

/** Most UTF-8 bytes of output before the first prompt kept as the message of the day. */
export const MOTD_MAX_BYTES = 4096;

/** See the module comment. */
export class MessageOfTheDay {
  private readonly buffer = new ViewportBuffer(MOTD_MAX_BYTES);
  /** The kept text, the same redacted, and whether redaction was on then; set by `settle`. */
  private settled = { raw: '', redacted: '', redactedOn: false };

  /** Appends output that came before the first prompt. */
  push(text: string): void {
    this.buffer.append(text);
  }

  /**
   * Takes what was kept and redacts it with `redactor` (never rejects: a redaction that fails or
   * runs past its bound withholds the text). Called once the first prompt came.
   * @param columns the terminal's width (columns).
   */
  async settle(redactor: SecretRedactor, columns: number): Promise<void> {
    const { text, dropped } = this.buffer.result();
    // The line the bound cut is left out whole: its kept part may be the tail of a secret.
    const cutLineEnd = text.indexOf('\n');
    const raw = dropped === 0 ? text : cutLineEnd < 0 ? '' : text.slice(cutLineEnd + 1);
    // Read in the same turn as redactAll reads it, so the two agree.
    const redactedOn = redactor.enabled;
    const redacted = await redactor.redact(raw, columns);
    this.settled = { raw, redacted, redactedOn };
  }

  /**
   * The text as an agent may read it now: redacted while `redactor` is on. Redaction turned on
   * after the open redacts it here with the built-in rules (secretRedactor.ts redactLine); turned
   * off, the kept text is shown as it is.
   */
  agentText(redactor: SecretRedactor): string {
    const { raw, redacted, redactedOn } = this.settled;
    if (!redactor.enabled) return raw;
    return redactedOn ? redacted : redactor.redactLine(raw);
  }
}
