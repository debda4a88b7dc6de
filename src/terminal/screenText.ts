/**
 * Terminal output as the text a person would have seen, rendered by a real terminal emulator
 * (`@xterm/headless`, the parser and buffer of xterm.js, VS Code's own terminal): colour and cursor
 * escapes applied and removed, carriage-return redraws (progress bars) collapsed to their final
 * state, backspaces applied, lines wider than the terminal joined again (wrapping undone).
 *
 * Rendering is on demand and synchronous (reads are synchronous), from raw text whose lines are
 * separated by `\n` (a `\r` before it is ignored). To bound the emulator's memory (one row costs
 * about 12 bytes per column), the text is rendered in batches of lines, the emulator reset between
 * batches: a cursor movement that reaches across a batch boundary (every BATCH_LINES lines) is not
 * replayed. Whether the alternate screen (vim, less) is active carries over between batches;
 * what is drawn there never appears in the rendered scrollback, as in a person's terminal.
 */
import { Terminal } from '@xterm/headless';

/** Raw lines per emulator batch. */
const BATCH_LINES = 200;
/** Characters per emulator batch (a longer single line is a batch of its own). */
const BATCH_CHARS = 64 * 1024;
const ENTER_ALTERNATE = '\x1b[?1049h';
/** Emulator scrollback (rows) between renders; a render raises it for its batch, then restores it. */
const BASE_SCROLLBACK = 1000;

/**
 * @xterm/headless only offers an asynchronous `write()`; its input handler's `parse()` is the
 * synchronous step that `write()` schedules. The version is pinned in package.json, and the unit
 * tests render through it, so a change of this internal fails a test instead of a user.
 */
interface SyncCore {
  _core?: { _inputHandler?: { parse?: (data: string) => unknown } };
}

export interface RenderOptions {
  /** The text starts while the alternate screen is active (a send into a running vim). */
  startInAlternate?: boolean;
  /**
   * Keep the trailing blanks of the last line up to the cursor (a prompt such as `Name: ` keeps
   * its space). Default false: trailing blanks are removed from every line.
   */
  keepCursorBlanks?: boolean;
}

/** What rendering produced: the normal buffer's lines, and the visible screen if alternate. */
export interface Rendered {
  /** Lines of the normal buffer (scrollback and screen), wrapped rows joined, oldest first. */
  lines: string[];
  /** The visible alternate screen, trailing blank rows removed, when it is active at the end. */
  alternateScreen?: string[];
}

/** One emulator of a session's size, reused for every render of that session. Not thread-safe. */
export class TextRenderer {
  private readonly term: Terminal;
  private readonly parse: (data: string) => void;

  /** `cols` × `rows`: the session's terminal size in character cells. */
  constructor(
    private readonly cols: number,
    private readonly rows: number,
  ) {
    // `buffer` is a "proposed" API in the headless build. A `clear` (ED2 + ED3) must not erase
    // the lines before it from the page: ED2 pushes the screen into the scrollback, as many
    // terminals do, and ED3 (erase the scrollback) is swallowed, since our scrollback keeps them.
    this.term = new Terminal({ cols, rows, scrollback: BASE_SCROLLBACK, logLevel: 'off', allowProposedApi: true, scrollOnEraseInDisplay: true });
    this.term.parser.registerCsiHandler({ final: 'J' }, (params) => params[0] === 3);
    const handler = (this.term as unknown as SyncCore)._core?._inputHandler;
    const parse = handler?.parse;
    if (typeof parse !== 'function') {
      throw new Error('@xterm/headless has no synchronous input parser (internal _core._inputHandler.parse); pin the version in package.json');
    }
    this.parse = (data) => void parse.call(handler, data);
  }

  /** Renders `raw` (see the module comment) and returns the normal buffer's lines and the alternate screen. */
  render(raw: string, options: RenderOptions = {}): Rendered {
    const lines = raw.split('\n');
    const out: string[] = [];
    let alternate = options.startInAlternate ?? false;
    let alternateScreen: string[] | undefined;
    for (let i = 0; i < lines.length; ) {
      let end = i;
      let chars = 0;
      while (end < lines.length && end - i < BATCH_LINES && (end === i || chars + lines[end].length <= BATCH_CHARS)) {
        chars += lines[end].length;
        end++;
      }
      const last = end === lines.length;
      this.term.reset();
      // A UTF-16 unit takes at most 2 cells (wide CJK): a raw line wraps into at most
      // ceil(2 × length / cols) rows, and all of them must stay in the buffer.
      const needed = Math.ceil((2 * chars) / this.cols) + (end - i) + this.rows;
      if (this.term.options.scrollback! < needed) this.term.options.scrollback = needed;
      if (alternate) this.parse(ENTER_ALTERNATE);
      this.parse(lines.slice(i, end).map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).join('\r\n'));
      out.push(...this.normalLines(last && (options.keepCursorBlanks ?? false)));
      alternate = this.term.buffer.active.type === 'alternate';
      if (last && alternate) alternateScreen = this.visibleScreen();
      i = end;
    }
    this.release();
    return alternateScreen ? { lines: out, alternateScreen } : { lines: out };
  }

  /** Renders `raw` and returns what the screen shows at the end (the alternate screen if active). */
  screen(raw: string, startInAlternate = false): string[] {
    this.term.reset();
    const lines = raw.split('\n');
    const needed = Math.ceil((2 * raw.length) / this.cols) + lines.length + this.rows;
    if (this.term.options.scrollback! < needed) this.term.options.scrollback = needed;
    if (startInAlternate) this.parse(ENTER_ALTERNATE);
    this.parse(lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).join('\r\n'));
    const screen = this.visibleScreen();
    this.release();
    return screen;
  }

  /** Frees the rows of the last render: an idle session keeps only an empty screen (about rows × cols × 12 bytes). */
  private release(): void {
    if (this.term.options.scrollback !== BASE_SCROLLBACK) this.term.options.scrollback = BASE_SCROLLBACK;
    this.term.reset();
  }

  private visibleScreen(): string[] {
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    for (let y = buffer.baseY; y < buffer.baseY + this.rows; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
    while (rows.length && !rows[rows.length - 1]) rows.pop();
    return rows;
  }

  private normalLines(keepCursorBlanks: boolean): string[] {
    const buffer = this.term.buffer.normal;
    const cursorRow = buffer.baseY + buffer.cursorY;
    let end = cursorRow;
    for (let y = buffer.length - 1; y > end; y--) {
      if (buffer.getLine(y)?.translateToString(true)) {
        end = y;
        break;
      }
    }
    const out: string[] = [];
    let current = '';
    for (let y = 0; y <= end; y++) {
      const line = buffer.getLine(y);
      if (!line) break;
      const continues = y < end && buffer.getLine(y + 1)?.isWrapped === true;
      // A wide character that did not fit in the last column left that cell empty and wrapped:
      // the empty cell is not part of the text.
      const lastCell = continues ? line.getCell(this.cols - 1) : undefined;
      const padded = lastCell !== undefined && lastCell.getChars() === '' && lastCell.getWidth() === 1;
      let text = continues ? line.translateToString(false, 0, padded ? this.cols - 1 : this.cols) : line.translateToString(true);
      if (!continues && keepCursorBlanks && y === cursorRow && text.length < buffer.cursorX) {
        text = line.translateToString(false, 0, buffer.cursorX);
      }
      current += text;
      if (!continues) {
        out.push(current);
        current = '';
      }
    }
    return out;
  }

  dispose(): void {
    this.term.dispose();
  }
}
