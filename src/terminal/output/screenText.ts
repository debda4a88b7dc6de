/**
 * Terminal output as the text a person would have seen, rendered by a real terminal emulator
 * (`@xterm/headless`, the parser and buffer of xterm.js, VS Code's own terminal): colour and cursor
 * escapes applied and removed, carriage-return redraws (progress bars) collapsed to their final
 * state, backspaces applied, lines wider than the terminal joined again (wrapping undone).
 *
 * Rendering is on demand and synchronous, from raw text whose lines are
 * separated by `\n` (a `\r` before it is ignored). To bound the emulator's memory (one row costs
 * about 12 bytes per column), the text is rendered in batches of lines, the emulator reset between
 * batches: a cursor movement or an escape sequence that reaches across a batch boundary (every
 * BATCH_LINES lines) is not replayed. Whether the alternate screen (vim, less) is active carries
 * over between batches; what is drawn there never appears in the rendered scrollback, as in a
 * person's terminal.
 *
 * The extension renders in a worker thread (screenTextThread.ts), and a render is bounded in time
 * whatever a program prints, so that a send's result or a read never waits long. Counts that make the emulator loop (`CSI 300000000 b`) are lowered to the least
 * count with the same result before the emulator applies them (escapeCounts.ts); the text is fed
 * in chunks of bounded cost (escapeScan.ts) and the clock (this process's CPU time, and wall
 * time) is checked between chunks. Past either limit the emulator is fed no more: the rest follows
 * RENDER_LIMIT_NOTICE as plain text (escape sequences removed, nothing printable dropped) and the
 * result says `limited`. So one render holds the thread for at most RENDER_WALL_MS plus one chunk
 * (a few ms) plus reading the buffer back and scanning the rest (linear in the text).
 */
import { Terminal } from '@xterm/headless';
import { COUNTED_FINALS, CountedFinal, Geometry, boundCount } from './escapeCounts';
import { plainText, renderChunks } from './escapeScan';

/** Raw lines per emulator batch. */
const BATCH_LINES = 200;
/** Characters per emulator batch (a longer single line is a batch of its own). */
const BATCH_CHARS = 64 * 1024;
const ENTER_ALTERNATE = '\x1b[?1049h';
/** Anything but printable ASCII (U+0020–U+007E) and CR LF line ends: such text needs the emulator. */
const NOT_PLAIN = /[^\x20-\x7e\r\n]|\r(?!\n)/;
/** CAN: ends whatever sequence the previous feed left open (xterm.js's parser is not reset with the buffer). */
const CANCEL = '\x18';
/** Emulator scrollback (rows) between renders; a render raises it for its batch, then restores it. */
const BASE_SCROLLBACK = 1000;

/**
 * CPU time (ms, this process with its helper threads) one render may spend feeding the emulator;
 * the rest of the text is then shown as plain text. CPU time, so that how busy the machine is
 * does not change the result. Printable ASCII skips the emulator; a viewport (256 KiB) of coloured
 * test-runner or compiler output parses well under it, as do 300 cursor jumps with line inserts
 * on a cold start (about 180 ms with the JIT compiling); what reaches it is output built to make
 * an emulator work (floods of insert-line, repeat or scroll sequences). The render runs in a
 * worker thread (screenTextThread.ts); the bound keeps a send's result from waiting long.
 */
export const RENDER_BUDGET_MS = 250;
/**
 * Wall time (ms) one render may spend feeding the emulator, however little CPU time it got: with
 * one chunk more and reading the buffer back, a render holds the thread for about half a second
 * at most, also on a loaded machine.
 */
export const RENDER_WALL_MS = 400;

/**
 * Most UTF-16 units one REP may print when its character is a cluster of several units (a letter
 * with combining marks): xterm.js appends each mark to its cell one by one, several µs each when
 * repeated. Beyond this the count is lowered and the render says `limited`.
 */
export const REPEAT_UNITS = 4096;

/** The line where a render that ran out of time stops, before the plain text of the rest. */
export const RENDER_LIMIT_NOTICE = '⟪rendering stopped here: time budget spent; what follows is plain text, escape sequences removed⟫';

/**
 * @xterm/headless only offers an asynchronous `write()`; its input handler's `parse()` is the
 * synchronous step that `write()` schedules, and its `registerCsiHandler()` hands a handler the
 * parser's own parameters (the public API hands a copy), so a count can be lowered before the
 * built-in handler applies it. The version is pinned in package.json, and the unit tests render
 * through both, so a change of these internals fails a test instead of a user.
 */
interface SyncCore {
  _core?: {
    _inputHandler?: {
      parse?: (data: string) => unknown;
      registerCsiHandler?: (id: { final: string }, callback: (params: { params: Int32Array }) => boolean) => unknown;
    };
  };
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

/** Limits of a renderer (see the module comment). A render stops feeding at whichever limit comes first. */
export interface RenderLimits {
  /** CPU time (ms) one render may spend feeding the emulator. Default RENDER_BUDGET_MS. */
  budgetMs?: number;
  /** Wall time (ms) one render may spend feeding the emulator. Default RENDER_WALL_MS. */
  wallMs?: number;
  /**
   * Lower counts to the least with the same result (escapeCounts.ts) and shorten a REP of a
   * cluster past REPEAT_UNITS. Default true; false feeds the emulator the counts as they are
   * (only to compare the two).
   */
  boundCounts?: boolean;
  /**
   * Take lines of printable ASCII on the normal screen as they are, without the emulator (the
   * same result). Default true; false renders everything through the emulator (only to compare).
   */
  plainFastPath?: boolean;
}

/** What rendering produced: the normal buffer's lines, and the visible screen if alternate. */
export interface Rendered {
  /**
   * Lines of the normal buffer (scrollback and screen), wrapped rows joined, oldest first. When
   * the time budget ran out: the lines rendered so far (and the alternate screen at that point, if
   * active), RENDER_LIMIT_NOTICE, then the plain text of the rest.
   */
  lines: string[];
  /** The visible alternate screen, trailing blank rows removed, when it is active at the end. */
  alternateScreen?: string[];
  /**
   * True when the rendering is not complete: the time budget ran out (see `lines`), or a REP of a
   * cluster was shortened to REPEAT_UNITS units.
   */
  limited?: true;
}

/** What the screen shows at the end; `limited` as in Rendered (then the notice and the plain tail follow). */
export interface RenderedScreen {
  lines: string[];
  limited?: true;
}

/**
 * What TextRenderer.render returns for `raw` when it needs no emulator: on the normal screen, text
 * of printable ASCII whose every CR ends a line (its lines, that CR removed; the plain fast path
 * of render, whatever the terminal's size). Undefined for any other text.
 */
export function renderPlain(raw: string, options: RenderOptions = {}): Rendered | undefined {
  if (options.startInAlternate || NOT_PLAIN.test(raw)) return undefined;
  return { lines: raw.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) };
}

/** One emulator of a session's size, reused for every render of that session. Not thread-safe. */
export class TextRenderer {
  private readonly term: Terminal;
  private readonly parse: (data: string) => void;
  private readonly budgetMs: number;
  private readonly wallMs: number;
  private readonly boundCounts: boolean;
  private readonly plainFastPath: boolean;
  /** Rows of scrollback the emulator keeps now (its `scrollback` option). */
  private scrollback = BASE_SCROLLBACK;
  /** A REP was shortened during the current render. */
  private shortened = false;

  /** `cols` × `rows`: the session's terminal size in character cells. */
  constructor(
    private readonly cols: number,
    private readonly rows: number,
    limits: RenderLimits = {},
  ) {
    this.budgetMs = limits.budgetMs ?? RENDER_BUDGET_MS;
    this.wallMs = limits.wallMs ?? RENDER_WALL_MS;
    this.boundCounts = limits.boundCounts ?? true;
    this.plainFastPath = limits.plainFastPath ?? true;
    // `buffer` is a "proposed" API in the headless build. A `clear` (ED2 + ED3) must not erase
    // the lines before it from the page: ED2 pushes the screen into the scrollback, as many
    // terminals do, and ED3 (erase the scrollback) is swallowed, since our scrollback keeps them.
    this.term = new Terminal({
      cols,
      rows,
      scrollback: BASE_SCROLLBACK,
      logLevel: 'off',
      allowProposedApi: true,
      scrollOnEraseInDisplay: true,
    });
    this.term.parser.registerCsiHandler({ final: 'J' }, (params) => params[0] === 3);
    const handler = (this.term as unknown as SyncCore)._core?._inputHandler;
    const parse = handler?.parse;
    const register = handler?.registerCsiHandler;
    if (typeof parse !== 'function' || typeof register !== 'function') {
      throw new Error(
        '@xterm/headless has no synchronous input parser (internal _core._inputHandler.parse, registerCsiHandler); pin the version in package.json',
      );
    }
    this.parse = (data) => void parse.call(handler, data);
    // Registered after the built-in handlers, so called first; `false` passes the (lowered) count on.
    for (const final of COUNTED_FINALS) register.call(handler, { final }, (params) => this.lower(final, params.params));
  }

  /** Renders `raw` (see the module comment) and returns the normal buffer's lines and the alternate screen. */
  render(raw: string, options: RenderOptions = {}): Rendered {
    const expired = this.clock();
    this.shortened = false;
    const lines = raw.split('\n');
    const out: string[] = [];
    let alternate = options.startInAlternate ?? false;
    let alternateScreen: string[] | undefined;
    for (let i = 0; i < lines.length; ) {
      let end = i;
      let chars = 0;
      while (end - i < BATCH_LINES) {
        const length = lines[end]?.length; // undefined past the last line
        if (length === undefined || (end > i && chars + length > BATCH_CHARS)) break;
        chars += length;
        end++;
      }
      const last = end === lines.length;
      this.term.reset();
      // A UTF-16 unit takes at most 2 cells (wide CJK): a raw line wraps into at most
      // ceil(2 × length / cols) rows, and all of them must stay in the buffer.
      this.reserve(Math.ceil((2 * chars) / this.cols) + (end - i) + this.rows);
      const text = lines
        .slice(i, end)
        .map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
        .join('\r\n');
      // Printable ASCII lines on the normal screen are drawn as they are: the emulator would
      // give back the same lines (wrapped rows joined, written blanks kept), at far greater cost.
      if (!alternate && this.plainFastPath && !NOT_PLAIN.test(text)) {
        out.push(...text.split('\r\n'));
        i = end;
        continue;
      }
      const fed = this.feed(text, alternate, expired);
      const stopped = fed < text.length || (!last && expired());
      out.push(...this.normalLines(last && !stopped && (options.keepCursorBlanks ?? false)));
      alternate = this.term.buffer.active.type === 'alternate';
      if (stopped) {
        if (alternate) out.push(...this.visibleScreen());
        const rest = plainText(text, fed) + (last ? '' : `\n${plainText(lines.slice(end).join('\n'))}`);
        out.push(RENDER_LIMIT_NOTICE);
        for (const line of rest.split('\n')) out.push(line);
        this.release();
        return { lines: out, limited: true };
      }
      if (last && alternate) alternateScreen = this.visibleScreen();
      i = end;
    }
    this.release();
    const result: Rendered = alternateScreen ? { lines: out, alternateScreen } : { lines: out };
    if (this.shortened) result.limited = true;
    return result;
  }

  /** Renders `raw` and returns what the screen shows at the end (the alternate screen if active). */
  screen(raw: string, startInAlternate = false): RenderedScreen {
    const expired = this.clock();
    this.shortened = false;
    this.term.reset();
    const lines = raw.split('\n');
    this.reserve(Math.ceil((2 * raw.length) / this.cols) + lines.length + this.rows);
    const text = lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)).join('\r\n');
    const fed = this.feed(text, startInAlternate, expired);
    const screen = this.visibleScreen();
    this.release();
    if (fed < text.length)
      return { lines: [...screen, RENDER_LIMIT_NOTICE, ...plainText(text, fed).split('\n').slice(-this.rows)], limited: true };
    return this.shortened ? { lines: screen, limited: true } : { lines: screen };
  }

  /** A clock started now: true once this render spent its CPU budget or its wall time. */
  private clock(): () => boolean {
    const wallEnd = performance.now() + this.wallMs;
    const cpuEnd = cpuMs() + this.budgetMs;
    return () => performance.now() >= wallEnd || cpuMs() >= cpuEnd;
  }

  /**
   * Feeds `text` to the freshly reset emulator in chunks of bounded cost, until it is all fed or
   * `expired()` after a chunk. Returns how many UTF-16 units were fed.
   */
  private feed(text: string, alternate: boolean, expired: () => boolean): number {
    this.parse(CANCEL);
    if (alternate) this.parse(ENTER_ALTERNATE);
    const geometry = this.geometry();
    let fed = 0;
    for (const end of renderChunks(text, geometry)) {
      this.parse(text.slice(fed, end));
      fed = end;
      if (fed < text.length && expired()) break;
    }
    return fed;
  }

  /** Raises the emulator's scrollback to `rows` for the current render (release() restores it). */
  private reserve(rows: number): void {
    if (this.scrollback < rows) {
      this.term.options.scrollback = rows;
      this.scrollback = rows;
    }
  }

  private geometry(): Geometry {
    return { cols: this.cols, rows: this.rows, bufferRows: this.scrollback + this.rows };
  }

  /**
   * Lowers the count (first parameter) of a counted CSI sequence in place before the emulator's
   * own handler applies it; returns false so that handler runs.
   */
  private lower(final: CountedFinal, params: Int32Array): boolean {
    const requested = params[0];
    if (!this.boundCounts || requested === undefined) return false;
    let count = boundCount(final, requested, this.geometry());
    if (final === 'b') {
      const units = this.precedingUnits();
      if (units > 2 && Math.max(1, count) * units > REPEAT_UNITS) {
        count = Math.max(1, Math.floor(REPEAT_UNITS / units));
        this.shortened = true;
      }
    }
    if (count !== requested) params[0] = count;
    return false;
  }

  /** UTF-16 units of the cell before the cursor (the character REP repeats), the wide character's when it is one. */
  private precedingUnits(): number {
    const buffer = this.term.buffer.active;
    const line = buffer.getLine(buffer.baseY + buffer.cursorY);
    const x = buffer.cursorX;
    if (!line || x < 1) return 1;
    let cell = line.getCell(x - 1);
    if (cell?.getWidth() === 0 && x > 1) cell = line.getCell(x - 2);
    return cell?.getChars().length || 1;
  }

  /** Frees the rows of the last render: an idle session keeps only an empty screen (about rows × cols × 12 bytes). */
  private release(): void {
    if (this.scrollback !== BASE_SCROLLBACK) {
      this.term.options.scrollback = BASE_SCROLLBACK;
      this.scrollback = BASE_SCROLLBACK;
    }
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

/** CPU time (ms) of this process so far, user and system, all threads. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}
