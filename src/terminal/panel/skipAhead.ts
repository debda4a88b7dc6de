/**
 * The text that brings a person's terminal to the state of an emulator that read everything a
 * session printed, when the terminal was not given all of it: "skip ahead". Built from a headless
 * xterm.js (`@xterm/headless`, the emulator of VS Code's terminal) with its serialize addon
 * (`@xterm/addon-serialize`), which writes rows back as text and SGR sequences.
 *
 * Written into the terminal, the skip-ahead text:
 * 1. leaves the alternate screen, soft-resets (DECSTR: SGR, scroll region, origin, insert and
 *    keypad modes, charsets, saved cursor; the cursor stays where it is) and turns mouse reports
 *    off, so what follows draws as written;
 * 2. starts a new line and erases below it, then writes a dim notice line (e.g. `… 93 MB not shown
 *    here: dsh_terminal_read pages it`) and the newest lines of the emulator's scrollback;
 * 3. scrolls all of that into the terminal's scrollback (one line feed per screen row from the
 *    bottom), so the screen is blank, and draws the emulator's normal screen from its top left cell;
 * 4. draws the alternate screen over it when the emulator shows one (`ESC [ ? 1049 h`);
 * 5. restores the scroll region, the cursor (row and column), its visibility, the pen (SGR), and
 *    the modes that change what the person's keys send (application cursor keys and keypad,
 *    bracketed paste, focus and mouse reports with their encoding), insert, origin and wraparound.
 *
 * So the screen after it is the emulator's screen, cell for cell, and the keys the person types
 * (Take Over) are encoded as the program asked. Not carried over: a pending wrap at the right
 * margin (the cursor stands on the last column instead), tab stops, charsets, the saved cursor.
 */
import type { Terminal } from '@xterm/headless';
import type { SerializeAddon } from '@xterm/addon-serialize';

/** Internals of @xterm/headless 6.0.0 read here (pinned in package.json; the unit tests check them). */
interface CoreState {
  _core?: {
    coreService?: { isCursorHidden?: boolean };
    coreMouseService?: { activeEncoding?: string };
    buffer?: { scrollTop?: number; scrollBottom?: number };
  };
}

/** The headless emulator and its loaded serialize addon. */
export interface Emulator {
  term: Terminal;
  serializer: SerializeAddon;
}

/**
 * Lines to mark where a snapshot redraws them: `lines`, absolute line numbers of the emulator's
 * normal buffer (0-based, as xterm.js `IMarker.line`), and the `text` written at the start of each
 * such line, with the cursor in its first cell (a command mark's sentinel, commandMarks.ts).
 */
export interface LineMarks {
  lines: readonly number[];
  text: string;
}

/** `bytes` as a person reads it: `512 bytes`, `3.4 kB`, `93 MB` (decimal units, as `ls -h --si`). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** The notice line written before the newest lines when `skippedBytes` of output were not shown. */
export function skipNotice(skippedBytes: number): string {
  return `… ${formatBytes(skippedBytes)} not shown here: dsh_terminal_read pages it`;
}

/**
 * Everything `emulator` shows, for a terminal of its size that is still blank: the addon's own
 * serialization of the newest `newestLines` scrollback lines and the screen (alternate screen and
 * modes included), plus what the addon leaves out (see the module comment); `marks` are written on
 * the lines they name. One serialization, not one per range between marks: a line wrapped across
 * two ranges, or across the scrollback and the screen, stays one line, and the rows the addon's
 * line feeds scroll in under a coloured pen keep that colour (BCE).
 */
export function initialText(emulator: Emulator, newestLines: number, marks?: LineMarks): string {
  const { term, serializer } = emulator;
  const normal = term.buffer.normal;
  const first = Math.max(0, normal.baseY - newestLines);
  let text = serializer.serialize({ scrollback: newestLines, excludeModes: true });
  const marked = (marks?.lines ?? []).filter((line) => line >= first && !normal.getLine(line)?.isWrapped);
  // A scrollback line's mark goes after the CR LF that starts it: the addon writes one between
  // each two rows of the normal buffer (first in its text) but where the lower row continues the
  // upper, and none elsewhere (a row's cells and SGR, a wrap it forces, the cursor's moves). The
  // mark's DECSC/DECRC keep the pen the addon set.
  let out = '';
  let copied = 0;
  let at = 0;
  let row = first;
  for (const line of marked) {
    if (line >= normal.baseY) break;
    for (; row < line; row++) {
      if (normal.getLine(row + 1)?.isWrapped) continue;
      const next = text.indexOf('\r\n', at);
      if (next < 0) return normalAndScreenText(emulator, newestLines, marks) + cursorAndModes(term); // not the text the addon is known to write
      at = next + 2;
    }
    out += text.slice(copied, at) + marks!.text;
    copied = at;
  }
  text = out + text.slice(copied);
  // The screen's rows are the emulator's rows (the addon's own text, on a blank terminal).
  return text + screenMarks(term, marked, marks) + cursorAndModes(term);
}

/**
 * The skip-ahead text (see the module comment) from `emulator`'s state, for a terminal of the
 * emulator's size in any state: `skippedBytes` (UTF-8 bytes of output not shown; 0 writes no
 * notice) and at most `newestLines` lines of scrollback before the screen; `marks` are written on
 * the lines they name.
 */
export function skipAheadText(emulator: Emulator, skippedBytes: number, newestLines: number, marks?: LineMarks): string {
  let text = '\x1b[?1049l\x1b[!p\x1b[?9l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1016l\r\n\x1b[J';
  if (skippedBytes > 0) text += `\x1b[2m${skipNotice(skippedBytes)}\x1b[0m\r\n`;
  return text + normalAndScreenText(emulator, newestLines, marks) + cursorAndModes(emulator.term);
}

/**
 * From the cursor at the start of an empty line, at the bottom of a terminal of the emulator's size
 * or with blank rows below it (scroll region whole, origin mode off): at most `newestLines` newest
 * scrollback lines of the normal buffer, one line feed per screen row but one (so they scroll into
 * the terminal's scrollback and the screen is blank), then the screen from its top left cell, by the
 * serialize addon (the alternate screen over it when the emulator shows one). The scrollback lines
 * are serialized in ranges split at marked lines, the mark's text written at each one's start; the
 * screen's marked rows are reached by CUP afterwards (none while the alternate screen shows: a mark
 * there would land on it). A marked row that continues a wrapped line is not split at and not marked.
 */
function normalAndScreenText(emulator: Emulator, newestLines: number, marks: LineMarks | undefined): string {
  const { term, serializer } = emulator;
  const normal = term.buffer.normal;
  const first = Math.max(0, normal.baseY - newestLines);
  const marked = (marks?.lines ?? []).filter((line) => line >= first && !normal.getLine(line)?.isWrapped);
  let text = '';
  if (first < normal.baseY) {
    let start = first;
    for (const line of [...marked.filter((l) => l < normal.baseY), normal.baseY]) {
      if (line > start)
        text += `${serializer.serialize({ range: { start, end: line - 1 }, excludeModes: true, excludeAltBuffer: true })}\x1b[0m\r\n`;
      if (line < normal.baseY) text += marks!.text;
      start = line;
    }
  }
  // The addon's own serialization of the screen (and the alternate screen), for a blank screen.
  text += `${'\n'.repeat(term.rows - 1)}\x1b[H${serializer.serialize({ scrollback: 0, excludeModes: true })}`;
  return text + screenMarks(term, marked, marks);
}

/** CUP to each of the `marked` lines on the screen and the mark's text there; none while the alternate screen shows (a mark there would land on it). */
function screenMarks(term: Terminal, marked: readonly number[], marks: LineMarks | undefined): string {
  if (!marks || term.buffer.active.type !== 'normal') return '';
  const top = term.buffer.normal.baseY;
  return marked
    .filter((line) => line >= top)
    .map((line) => `\x1b[${line - top + 1};1H${marks.text}`)
    .join('');
}

/**
 * The scroll region (DECSTBM) of `term`'s active buffer: its `top` and `bottom` rows, 0-based and
 * inclusive; undefined when the emulator's internals do not say (an @xterm/headless other than the
 * pinned one).
 */
export function scrollRegion(term: Terminal): { top: number; bottom: number } | undefined {
  const buffer = (term as unknown as CoreState)._core?.buffer;
  if (typeof buffer?.scrollTop !== 'number' || typeof buffer.scrollBottom !== 'number') return undefined;
  return { top: buffer.scrollTop, bottom: buffer.scrollBottom };
}

/** The scroll region, cursor position and visibility, and the input modes of `term`, as sequences. */
function cursorAndModes(term: Terminal): string {
  const core = (term as unknown as CoreState)._core;
  const buffer = term.buffer.active;
  const modes = term.modes;
  let text = '';
  const { top, bottom } = scrollRegion(term) ?? { top: 0, bottom: term.rows - 1 };
  if (top !== 0 || bottom !== term.rows - 1) text += `\x1b[${top + 1};${bottom + 1}r`;
  if (modes.originMode) text += '\x1b[?6h';
  const row = buffer.cursorY - (modes.originMode ? top : 0);
  text += `\x1b[${row + 1};${Math.min(buffer.cursorX, term.cols - 1) + 1}H`;
  if (modes.applicationCursorKeysMode) text += '\x1b[?1h';
  if (modes.applicationKeypadMode) text += '\x1b=';
  if (modes.bracketedPasteMode) text += '\x1b[?2004h';
  if (modes.insertMode) text += '\x1b[4h';
  if (modes.reverseWraparoundMode) text += '\x1b[?45h';
  if (modes.sendFocusMode) text += '\x1b[?1004h';
  if (!modes.wraparoundMode) text += '\x1b[?7l';
  const tracking = { x10: '\x1b[?9h', vt200: '\x1b[?1000h', drag: '\x1b[?1002h', any: '\x1b[?1003h', none: '' } as const;
  text += tracking[modes.mouseTrackingMode];
  const encoding = core?.coreMouseService?.activeEncoding;
  if (encoding === 'SGR') text += '\x1b[?1006h';
  if (encoding === 'SGR_PIXELS') text += '\x1b[?1016h';
  if (core?.coreService?.isCursorHidden) text += '\x1b[?25l';
  return text;
}
