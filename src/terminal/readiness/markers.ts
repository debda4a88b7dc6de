/**
 * The controlled prompt's markers and a streaming parser that removes them from PTY output.
 *
 * The shell prints OSC sequences (ECMA-48 "operating system command", `ESC ] … BEL`) that
 * terminals ignore: `ESC ] 6973 ; <nonce> ; <kind> ; <fields> BEL` with kind
 * - `P;<status>;<seq>;<editing>`: PS1 was shown; `status` is `$?` of the last command, `seq` counts
 *   prompts, `editing` is `e` while readline edits the line (`set -o emacs` or `vi`), `n` when line
 *   editing is off (absent in older shells' markers: unknown);
 * - `S;<seq>`: PS0, the shell starts executing what it read after prompt `seq`;
 * - `C`: PS2, the shell waits for the rest of a command;
 * - `D;<seq>`: not printed by the shell but written by the session itself into the PTY's output
 *   (ptyDrain.ts): everything the terminal's programs wrote before it has been read.
 * Only markers with this session's nonce count; anything else passes through as program output.
 */

/** OSC number used for our markers; arbitrary, unassigned by xterm. */
export const MARKER_OSC = '6973';

/** The drain marker `seq` (1-based) of the session with `nonce`, as written into the PTY's output. */
export function drainMarker(nonce: string, seq: number): string {
  return `${OSC_START}${MARKER_OSC};${nonce};D;${seq}${BEL}`;
}
/** Visible text of the controlled PS1, after its marker. */
export const PROMPT_TEXT = '$ ';
/**
 * What a send writes around text typed into bash's line editor: a private key sequence bound to
 * readline's `kill-whole-line` (the line starts empty whatever earlier keys left on it), then the
 * text as one bracketed paste (xterm ctlseqs "Bracketed Paste Mode"; readline inserts everything
 * between the brackets literally, so nothing in it acts as an editing key). Text cannot end the
 * paste early: ESC is refused in text (input.ts).
 */
export const KILL_LINE_KEYS = '\x1b[6973~';
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';
/** Visible text of the controlled PS2, after its marker. */
export const CONTINUATION_TEXT = '> ';

const OSC_START = '\x1b]';
const BEL = '\x07';
/** A marker is short; anything longer without BEL is not ours and is released as text. */
const MAX_MARKER_LENGTH = 96;

export type MarkerEvent =
  | { kind: 'text'; text: string }
  /** `lineEditing`: readline edits the line (`set -o emacs`/`vi`); undefined when the marker does not say. */
  | { kind: 'prompt'; status: number; seq: number; lineEditing?: boolean }
  /** The controlled PS1 text was seen after a prompt marker. */
  | { kind: 'prompt-text' }
  | { kind: 'start'; seq: number }
  | { kind: 'continuation' }
  /** The session's own drain marker came through the PTY (ptyDrain.ts). */
  | { kind: 'drain'; seq: number };

/**
 * Stateful parser: feed decoded PTY chunks with `push`; it returns text and marker events in
 * order. A marker (or the prompt text after it) split across chunks is held back until complete.
 */
export class MarkerParser {
  private pending = '';
  /** Index in PROMPT_TEXT of the next character expected after a prompt marker; -1 when none is expected. */
  private promptTextIndex = -1;
  private readonly prefix: string;

  constructor(nonce: string) {
    this.prefix = `${OSC_START}${MARKER_OSC};${nonce};`;
  }

  push(chunk: string): MarkerEvent[] {
    const events: MarkerEvent[] = [];
    const data = this.pending + chunk;
    this.pending = '';
    let text = '';
    const flushText = () => {
      if (text) events.push({ kind: 'text', text });
      text = '';
    };
    let i = 0;
    while (i < data.length) {
      if (this.promptTextIndex >= 0) {
        if (data[i] === PROMPT_TEXT[this.promptTextIndex]) {
          this.promptTextIndex++;
          i++;
          if (this.promptTextIndex === PROMPT_TEXT.length) {
            this.promptTextIndex = -1;
            events.push({ kind: 'prompt-text' });
          }
          continue;
        }
        // Not our prompt text after all (e.g. redrawn prompt): release what was swallowed.
        text += PROMPT_TEXT.slice(0, this.promptTextIndex);
        this.promptTextIndex = -1;
      }
      const esc = data.indexOf('\x1b', i);
      if (esc < 0) {
        text += data.slice(i);
        break;
      }
      text += data.slice(i, esc);
      const rest = data.slice(esc);
      if (rest.length < this.prefix.length) {
        if (this.prefix.startsWith(rest)) {
          this.pending = rest;
          break;
        }
        text += '\x1b';
        i = esc + 1;
        continue;
      }
      if (!rest.startsWith(this.prefix)) {
        text += '\x1b';
        i = esc + 1;
        continue;
      }
      const bel = rest.indexOf(BEL, this.prefix.length);
      if (bel < 0) {
        if (rest.length <= MAX_MARKER_LENGTH) {
          this.pending = rest;
          break;
        }
        text += '\x1b';
        i = esc + 1;
        continue;
      }
      const event = parseFields(rest.slice(this.prefix.length, bel));
      if (!event) {
        text += rest.slice(0, bel + 1);
      } else {
        flushText();
        events.push(event);
        if (event.kind === 'prompt') this.promptTextIndex = 0;
      }
      i = esc + bel + 1;
    }
    flushText();
    return events;
  }
}

function parseFields(body: string): MarkerEvent | undefined {
  const parts = body.split(';');
  const int = (s: string | undefined) => (s !== undefined && /^\d+$/.test(s) ? Number(s) : undefined);
  switch (parts[0]) {
    case 'P': {
      const status = int(parts[1]);
      const seq = int(parts[2]);
      if (status === undefined || seq === undefined || parts.length > 4) return undefined;
      if (parts[3] === 'e' || parts[3] === 'n') return { kind: 'prompt', status, seq, lineEditing: parts[3] === 'e' };
      return parts[3] === undefined ? { kind: 'prompt', status, seq } : undefined;
    }
    case 'S': {
      const seq = int(parts[1]);
      return seq === undefined ? undefined : { kind: 'start', seq };
    }
    case 'C':
      return parts.length === 1 ? { kind: 'continuation' } : undefined;
    case 'D': {
      const seq = int(parts[1]);
      return seq === undefined || parts.length !== 2 ? undefined : { kind: 'drain', seq };
    }
    default:
      return undefined;
  }
}
