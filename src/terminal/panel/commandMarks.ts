/**
 * Command marks in a person's view of a session (the terminal panel's mirror): a gutter and
 * scrollbar mark on the line where each command was typed, and a dim status line after its
 * output, as VS Code's shell integration decorations show a command and its exit status, without
 * claiming VS Code shell integration.
 *
 * Why this construction (VS Code's source, as 1.100 and 1.139 ship it):
 * - `ShellIntegrationAddon` (src/vs/platform/terminal/common/xterm/shellIntegrationAddon.ts) reads
 *   `OSC 633` (VS Code's), `OSC 133` (FinalTerm's) and `OSC 1337` (iTerm2's) in every terminal,
 *   extension terminals included. Each 633 / 133 command sequence creates the CommandDetection
 *   capability; `MainThreadTerminalShellIntegration`
 *   (src/vs/workbench/api/browser/mainThreadTerminalShellIntegration.ts) exposes
 *   `terminal.shellIntegration` to every extension as soon as that capability exists, and with it
 *   `executeCommand`, which types into the terminal. The panel is a Pseudoterminal whose input
 *   belongs to the agent's session: that must never happen, so neither is ever written.
 * - `OSC 1337 ; SetMark ST` creates only the BufferMarkDetection capability and adds a buffer mark at
 *   the cursor's line (`addMark()`, xterm.js `registerMarker`). The `DecorationAddon`
 *   (src/vs/workbench/contrib/terminal/browser/xterm/decorationAddon.ts) draws each such mark as a
 *   gutter decoration (codicon `circle-small-filled`, default colour) and a scrollbar (overview
 *   ruler) mark, where `terminal.integrated.shellIntegration.decorationsEnabled` shows
 *   decorations (default: both). The terminal's hover lists the sequence as seen; no other
 *   capability follows from it. A SetMark carries no exit status (neither the 1337 nor the 633
 *   form has a colour or a hover message there), so the status is text: a dim line after the
 *   command's output, green `✓`, red `✗`, or yellow for a command a signal ended.
 *
 * How, given that the panel is given output only through PacedMirror, whose PanelFilter empties
 * every OSC string but hyperlinks (OSC 8) so that a program cannot claim any of the above:
 * - The status line is our own text, pushed at the prompt that ends the command; the mirror's
 *   emulator reads it like any output, so it stays in place through a skip-ahead.
 * - The mark is pushed as a *sentinel*, `OSC 8 ; dsh-mark=<nonce>.<rows> ; ST`: an OSC 8 with
 *   parameters and no URI, which PanelFilter passes and xterm.js ignores (neither opens nor closes
 *   a link). What the mirror writes to the terminal passes through {@link CommandMarks.written},
 *   which replaces it with `DECSC, CUU rows, OSC 1337 ; SetMark, DECRC`: the mark lands `rows` rows
 *   above the cursor at the command's start, on the prompt line the command was typed at (its
 *   first row, for a command that wraps or spans lines), and the cursor is where it was. The nonce
 *   is random per mirror: a program cannot print a sentinel that becomes a mark.
 *
 * Where VS Code's mark navigation cannot take buffer marks, none is written (the status lines
 * stay): in 1.100, `MarkNavigationAddon._getMarkers`
 * (src/vs/workbench/contrib/terminal/browser/xterm/markNavigationAddon.ts) collects a terminal's
 * buffer marks with `markers().next()` on a new generator each turn, so "Scroll To Previous
 * Command" (Ctrl+Up) or "Select To Previous Command" in a terminal that has one and no
 * CommandDetection loops until `RangeError: Invalid array length`, the window frozen meanwhile.
 * 1.139 spreads the generator instead; {@link GUTTER_MARKS_FROM} is the first version verified.
 *
 * What the person sees: a mark beside every command's prompt line, and its status line once it
 * ends (before the next prompt; after a full-screen program, once it left the alternate screen).
 * The mirror's emulator reads the sentinels too (given {@link CommandMarks.nonce}): where the
 * terminal is given the emulator's state instead of the output (commands run before the panel
 * terminal opened, a skip-ahead), the lines it redraws carry their marks again (skipAhead.ts), as
 * far as the emulator keeps them (its scrollback: the newest lines a snapshot writes; not while a
 * full-screen program shows, for marks on the screen's rows; not after it started over from the
 * session's tail). The status lines are text, so they stay in any case. Output printed before the
 * mirror subscribed has neither. DECSC/DECRC use the terminal's one saved-cursor slot: a program
 * that restores a cursor it never saved finds the mark's line instead.
 */
import { randomBytes } from 'node:crypto';
import type { CommandEvent, CommandRecord } from '../history/commandRecord';
import type { ListeningSocket } from '../../proc/listeningSockets';
import { visibleText } from '../input/input';

/** iTerm2's "Set Mark" (OSC 1337 ; SetMark), which VS Code turns into a buffer mark. */
export const SET_MARK = '\x1b]1337;SetMark\x07';

/** The first VS Code version verified to navigate buffer marks without looping (see above). */
export const GUTTER_MARKS_FROM = '1.139.0';

/**
 * Whether VS Code `version` (`vscode.version`, e.g. `1.139.1` or `1.140.0-insider`) is given
 * gutter marks: from {@link GUTTER_MARKS_FROM} on. An unreadable version is not.
 */
export function gutterMarksSupported(version: string): boolean {
  const parse = (v: string) => /^(\d+)\.(\d+)\.(\d+)/.exec(v)?.slice(1).map(Number);
  const have = parse(version);
  const need = parse(GUTTER_MARKS_FROM)!;
  if (!have) return false;
  for (let k = 0; k < 3; k++) if (have[k] !== need[k]) return have[k]! > need[k]!;
  return true;
}

/** The largest row distance a mark is placed above the cursor (the prompt line scrolled further is gone from the screen). */
const MAX_MARK_ROWS = 9999;
/** Echo read between a prompt and its command's start; past it the row count stops. */
const MAX_ECHO_UNITS = 64 * 1024;
/** How much of an output chunk's end is read to tell whether the cursor is at a line's start. */
const TAIL_UNITS = 256;

/** Escape sequences (CSI, OSC, other ESC), as the line-start check skips them. */
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~])/g;
/** Leaving the alternate screen restores the cursor where the program started: a line's start. */
const LEAVE_ALTERNATE = /\x1b\[\?(?:1049|1047|47)l/g;

/**
 * One mirror's command marks: give it the session's output and command events on their way to the
 * mirror (`output`, `event`: what to push), and what the mirror writes on its way to the terminal
 * (`written`). `cols` is the terminal's width in cells; with `gutter` false the sentinels are
 * removed instead of becoming marks (a VS Code that cannot take them), status lines stay.
 */
export class CommandMarks {
  private readonly open: string;
  private readonly sentinels: RegExp;
  private cols: number;
  /** The cursor is at the start of a line, as the end of the output so far says. */
  private atLineStart = true;
  /**
   * From a prompt to its command's start: the rows its prompt and echo took. A view subscribes at
   * a prompt (or while a command runs, and then a prompt resets it): counting starts at once.
   */
  private echo: EchoRows | undefined;
  /** The end of the last write, held back while it may be the start of a sentinel. */
  private held = '';

  /**
   * @param cols the terminal's width in cells
   * @param gutter false where marks are removed instead (see the class comment)
   * @param nonce this mirror's secret in its sentinels (random by default); the mirror's emulator is
   *   given it too ({@link markSentinelRows}), so that it keeps the marks where it redraws lines
   */
  constructor(
    cols = 80,
    private readonly gutter = true,
    readonly nonce = randomBytes(12).toString('hex'),
  ) {
    this.cols = Math.max(1, cols);
    this.open = markSentinel(nonce, undefined);
    this.sentinels = new RegExp(`${this.open.replace(/[\]\\[.]/g, '\\$&')}(\\d{1,4});\\x07`, 'g');
    this.echo = new EchoRows(this.cols);
  }

  /**
   * Output the session printed before the view subscribed, on its way to the mirror: read for
   * where it leaves the cursor only (the rows of a prompt's echo count from after it); returned unchanged.
   */
  printedBefore(text: string): string {
    if (text) this.atLineStart = endsAtLineStart(text, this.atLineStart);
    return text;
  }

  /** The terminal's new width in cells. */
  resize(cols: number): void {
    if (cols >= 1) this.cols = cols;
  }

  /** Session output on its way to the mirror: read, and returned unchanged. */
  output(text: string): string {
    if (!text) return text;
    this.atLineStart = endsAtLineStart(text, this.atLineStart);
    this.echo?.feed(text);
    return text;
  }

  /**
   * A command event on its way to the mirror: the text to push in its place ('' for none). A
   * prompt that ends a command gives the command's status line, on a line of its own; a command's
   * start gives the mark's sentinel. `note` (see {@link listeningNote}) ends the status line.
   */
  event(event: CommandEvent, note?: string): string {
    if (event.kind === 'start') {
      const rows = Math.min(MAX_MARK_ROWS, this.echo?.rows ?? 0);
      this.echo = undefined;
      return markSentinel(this.nonce, rows);
    }
    let text = '';
    if (event.ended) {
      text = `${this.atLineStart ? '' : '\r\n'}${statusLine(event.ended, note)}\r\n`;
      this.atLineStart = true;
    }
    this.echo = new EchoRows(this.cols);
    return text;
  }

  /** What the mirror writes, on its way to the terminal: sentinels become marks. */
  written(text: string): string {
    let out = this.held + text;
    this.held = '';
    if (out.includes(this.open)) out = out.replace(this.sentinels, (_, rows: string) => (this.gutter ? markText(Number(rows)) : ''));
    // A sentinel cut between two writes: its start waits for the rest.
    const esc = out.lastIndexOf('\x1b', out.length - 1);
    if (esc >= 0 && out.length - esc < this.open.length + 6) {
      const tail = out.slice(esc);
      const partial =
        tail.length < this.open.length
          ? this.open.startsWith(tail)
          : tail.startsWith(this.open) && /^\d{0,4};?$/.test(tail.slice(this.open.length));
      if (partial) {
        this.held = tail;
        out = out.slice(0, esc);
      }
    }
    return out;
  }
}

/**
 * The sentinel of a mark `rows` (0–9999) rows above the cursor, for the mirror whose nonce is
 * `nonce`: `OSC 8 ; dsh-mark=<nonce>.<rows> ; BEL`; with `rows` undefined, its opening up to the
 * rows. See the module comment.
 */
export function markSentinel(nonce: string, rows: number | undefined): string {
  const open = `\x1b]8;dsh-mark=${nonce}.`;
  return rows === undefined ? open : `${open}${rows};\x07`;
}

/**
 * The rows of a mark's sentinel read by an emulator's OSC 8 handler, whose `data` is what follows
 * `OSC 8 ;` (`dsh-mark=<nonce>.<rows>;`, the empty URI after the last `;`); undefined for any other
 * OSC 8 (a hyperlink, a sentinel with another nonce: a program cannot print one that counts).
 */
export function markSentinelRows(data: string, nonce: string): number | undefined {
  const prefix = `dsh-mark=${nonce}.`;
  if (!data.startsWith(prefix)) return undefined;
  const m = /^(\d{1,4});$/.exec(data.slice(prefix.length));
  return m ? Number(m[1]) : undefined;
}

/** What the terminal is given for a mark `rows` above the cursor: DECSC, CUU, SetMark, DECRC. */
function markText(rows: number): string {
  return `\x1b7${rows > 0 ? `\x1b[${rows}A` : ''}${SET_MARK}\x1b8`;
}

/**
 * The status line of an ended command, as the panel shows it after the command's output: dim,
 * `✓ command <index> · exit 0 · <duration>` in green, `✗ … exit <code> …` in red, `✗ command
 * <index> · <signal> (exit <code>) · …` in yellow for one a signal ended, `■ command <index> ·
 * stopped by <signal> · …` in yellow for one a signal stopped (Ctrl-Z), `■ command <index> ·
 * session exited` for one the shell's exit ended; then, for an agent's command whose sender said
 * who let it run, ` · approved by <who>`; then ` · <note>` when a note is given (the session's
 * listening ports). Attributes are reset after it and the rest of the line is erased (ECMA-48 EL).
 */
export function statusLine(record: CommandRecord, note?: string): string {
  const duration = formatDuration(record.durationMs);
  const [colour, text] =
    record.state === 'stopped'
      ? ['33', `■ command ${record.index} · stopped by ${record.signal ?? 'a signal'} · ${duration}`]
      : record.state === 'interrupted'
        ? ['33', `✗ command ${record.index} · ${record.signal ?? 'signal'} (exit ${record.exitCode ?? '?'}) · ${duration}`]
        : record.exitCode === 0
          ? ['32', `✓ command ${record.index} · exit 0 · ${duration}`]
          : record.exitCode === undefined
            ? ['2', `■ command ${record.index} · ${record.state === 'running' ? 'running' : 'session exited'} · ${duration}`]
            : ['31', `✗ command ${record.index} · exit ${record.exitCode} · ${duration}`];
  const approved = record.approvedBy ? ` · approved by ${record.approvedBy.replace(/[\x00-\x1f\x7f-\x9f]/g, '?')}` : '';
  return `\x1b[0;2;${colour}m${text}${approved}${note ? ` · ${note}` : ''}\x1b[0m\x1b[K`;
}

/** Sockets a status line names, at most; `+N more` counts the rest. */
const NOTE_SOCKETS = 3;
/** Characters of a listening process's command line a status line shows. */
const NOTE_COMMAND_CHARS = 40;

/**
 * The status line's note for the sockets a session's processes listen on, e.g. `listening
 * 127.0.0.1:5173 (node vite)`, IPv6 addresses in brackets; undefined when none. Command lines are
 * a program's own text: invisible characters are shown visibly (input.ts `visibleText`), so none
 * acts on the person's terminal.
 */
export function listeningNote(sockets: readonly ListeningSocket[]): string | undefined {
  if (sockets.length === 0) return undefined;
  const shown = sockets.slice(0, NOTE_SOCKETS).map((s) => {
    const host = s.address.includes(':') ? `[${s.address}]` : s.address;
    const command = s.command.length > NOTE_COMMAND_CHARS ? `${s.command.slice(0, NOTE_COMMAND_CHARS)}…` : s.command;
    return `${s.protocol === 'udp' ? 'udp ' : ''}${host}:${s.port} (${visibleText(command)})`;
  });
  const more = sockets.length > NOTE_SOCKETS ? ` +${sockets.length - NOTE_SOCKETS} more` : '';
  return `listening ${shown.join(', ')}${more}`;
}

/** A status line's text as a person copies it from the terminal (attributes gone). */
export const STATUS_LINE_TEXT = /^[✓✗■] command \d+ · /;

/** `1.2 s` under a minute, `3 min 04 s` from one on. */
function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/**
 * Whether output ending with `text` leaves the cursor at a line's start, judged from its last
 * TAIL_UNITS units: after a line feed (escape sequences and other controls after it aside), or
 * after leaving the alternate screen with nothing printed since; `before` when the tail prints
 * nothing. A carriage return alone does not count: the line keeps what was printed on it.
 */
function endsAtLineStart(text: string, before: boolean): boolean {
  const tail = text.length > TAIL_UNITS ? text.slice(-TAIL_UNITS) : text;
  let from = 0;
  let left = false;
  for (const m of tail.matchAll(LEAVE_ALTERNATE)) {
    from = m.index + m[0].length;
    left = true;
  }
  const visible = tail
    .slice(from)
    .replace(ESCAPES, '')
    .replace(/[\x00-\x09\x0b-\x1f\x7f]/g, '');
  if (!visible) return left || before;
  return visible.endsWith('\n');
}

/**
 * How many rows below its prompt's row the cursor is, read from the prompt's text and the echo of
 * what was typed at it, in a terminal `cols` cells wide: line feeds, wrapping (with the pending
 * wrap of a full row, as xterm.js has it), carriage return, backspace, tab, and the cursor
 * movements a line editor uses (CUU, CUD, CNL, CPL; CUF, CUB, CHA for the column). Other
 * sequences are skipped. Wide characters (East Asian wide, emoji) take two cells.
 */
class EchoRows {
  private row = 0;
  private col = 0;
  private state: 'ground' | 'esc' | 'csi' | 'osc' | 'osc-esc' = 'ground';
  private params = '';
  private units = 0;

  constructor(private readonly cols: number) {}

  get rows(): number {
    return Math.max(0, this.row);
  }

  feed(text: string): void {
    if (this.units > MAX_ECHO_UNITS) return;
    this.units += text.length;
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      switch (this.state) {
        case 'ground':
          this.ground(c);
          break;
        case 'esc':
          this.state = c === 0x5b ? 'csi' : c === 0x5d ? 'osc' : c >= 0x20 && c <= 0x2f ? 'esc' : 'ground';
          this.params = '';
          break;
        case 'csi':
          if (c >= 0x40 && c <= 0x7e) {
            this.csi(c);
            this.state = 'ground';
          } else if (c === 0x1b) {
            this.state = 'esc';
          } else if (this.params.length < 16) {
            this.params += ch;
          }
          break;
        case 'osc':
          if (c === 0x07) this.state = 'ground';
          else if (c === 0x1b) this.state = 'osc-esc';
          break;
        case 'osc-esc':
          this.state = c === 0x5c ? 'ground' : 'osc';
          break;
      }
    }
  }

  private ground(c: number): void {
    if (c === 0x1b) {
      this.state = 'esc';
    } else if (c === 0x0d) {
      this.col = 0;
    } else if (c === 0x0a || c === 0x0b || c === 0x0c) {
      this.row++;
      this.col = Math.min(this.col, this.cols - 1);
    } else if (c === 0x08) {
      this.col = Math.max(0, Math.min(this.col, this.cols - 1) - 1);
    } else if (c === 0x09) {
      this.col = Math.min(this.cols - 1, (Math.floor(this.col / 8) + 1) * 8);
    } else if (c >= 0x20 && c !== 0x7f && !(c >= 0x80 && c < 0xa0)) {
      const width = isWide(c) ? 2 : isZeroWidth(c) ? 0 : 1;
      if (this.col + width > this.cols) {
        this.row++;
        this.col = 0;
      }
      this.col += width;
    }
  }

  private csi(final: number): void {
    if (/[^0-9;]/.test(this.params)) return; // private or intermediate: not a cursor movement we follow
    const n = Math.max(1, Number(this.params.split(';')[0] || 1));
    switch (String.fromCharCode(final)) {
      case 'A':
        this.row -= n;
        break;
      case 'B':
      case 'e':
        this.row += n;
        break;
      case 'E':
        this.row += n;
        this.col = 0;
        break;
      case 'F':
        this.row -= n;
        this.col = 0;
        break;
      case 'C':
        this.col = Math.min(this.cols - 1, this.col + n);
        break;
      case 'D':
        this.col = Math.max(0, Math.min(this.col, this.cols - 1) - n);
        break;
      case 'G':
      case '`':
        this.col = Math.min(this.cols - 1, n - 1);
        break;
    }
  }
}

/** East Asian wide and fullwidth characters and emoji: two cells (an approximation of wcwidth). */
function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) ||
    (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
    (c >= 0xac00 && c <= 0xd7a3) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0xff00 && c <= 0xff60) ||
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1f64f) ||
    (c >= 0x1f900 && c <= 0x1f9ff) ||
    (c >= 0x20000 && c <= 0x3fffd)
  );
}

/** Combining marks and zero-width characters: no cell of their own. */
function isZeroWidth(c: number): boolean {
  return (c >= 0x300 && c <= 0x36f) || (c >= 0x200b && c <= 0x200f) || (c >= 0xfe00 && c <= 0xfe0f) || c === 0xfeff;
}
