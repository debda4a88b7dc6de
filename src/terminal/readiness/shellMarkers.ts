/**
 * What the controlled prompt's markers (markers.ts) say about the shell, kept per session: the
 * latest prompt's sequence number and exit status, whether its prompt text followed, which marker
 * came last, whether readline edits the line, and whether typed input still waits to be read.
 */
import { CONTINUATION_TEXT, type MarkerEvent } from './markers';
import type { LastMarker } from './readiness';

/** The marker state of one session's shell. */
export class ShellMarkers {
  /** Sequence number of the latest prompt marker (1-based; 0 before the first prompt). */
  promptSeq = 0;
  /** `$?` the latest prompt marker carried: the exit status of the command before it. */
  promptStatus = 0;
  /** The prompt text (`$ `) followed the latest prompt marker. */
  promptTextSeen = false;
  /** The continuation prompt's text (`> `) followed the latest continuation marker. */
  continuationTextSeen = false;
  /** Text seen since the latest continuation marker while its prompt text is still expected. */
  private afterContinuation: string | undefined;
  last: LastMarker;
  /** Readline edits the shell's line, as the last prompt marker said (undefined: not said). */
  lineEditing: boolean | undefined;
  /**
   * Input was written to the shell at its prompt and no prompt (or continuation prompt) has come
   * since: the shell may still be reading or echoing it (a 1 MiB line takes seconds).
   */
  inputPending = false;

  /** Applies one marker event (not text) in the order the PTY delivered it. */
  apply(event: Exclude<MarkerEvent, { kind: 'text' }>): void {
    this.afterContinuation = undefined;
    switch (event.kind) {
      case 'prompt':
        this.inputPending = false;
        this.promptSeq = event.seq;
        this.promptStatus = event.status;
        if (event.lineEditing !== undefined) this.lineEditing = event.lineEditing;
        this.promptTextSeen = false;
        this.last = 'prompt';
        break;
      case 'prompt-text':
        this.promptTextSeen = true;
        break;
      case 'start':
        this.last = 'start';
        break;
      case 'continuation':
        this.inputPending = false;
        this.last = 'continuation';
        this.continuationTextSeen = false;
        this.afterContinuation = '';
        break;
    }
  }

  /** Takes program text (markers removed) in PTY order: the continuation prompt's text is seen here. */
  text(text: string): void {
    if (this.afterContinuation === undefined) return;
    const seen = this.afterContinuation + text;
    if (seen.length < CONTINUATION_TEXT.length) {
      this.afterContinuation = seen;
      return;
    }
    this.continuationTextSeen = seen.startsWith(CONTINUATION_TEXT);
    this.afterContinuation = undefined;
  }
}
