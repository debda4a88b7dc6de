/**
 * Paging: what a read of a PTY session returns. A page of the scrollback or of one command's
 * output, or the screen, rendered as model text on this thread (the person's view) or in the
 * render thread with secrets redacted (what an agent reads); and searches of the scrollback.
 */
import type { TerminalConfig } from '../config';
import { TerminalError, invalidArgument } from '../errors';
import { checkInteger } from '../../common/integerInput';
import { quoteInput } from '../../common/quoteInput';
import type { Log } from '../../common/log';
import type { CommandHistory } from '../history/commandHistory';
import { renderedPage, renderedPageAsync } from '../output/outputText';
import { type RenderedScreen, TextRenderer } from '../output/screenText';
import type { ScreenTextThread } from '../output/screenTextThread';
import type { Scrollback } from '../output/scrollback';
import type { SearchThreads } from '../output/matchPool';
import { type SearchRequest, type SearchResult, searchScrollback } from '../output/scrollbackSearch';
import { redactPage } from '../secrets/pageContext';
import type { SecretRedactor } from '../secrets/secretRedactor';
import type { ReadRequest, ReadResult } from '../types';

/** Lines a read returns when it names no count. */
const DEFAULT_READ_COUNT = 500;
/** Raw scrollback lines rendered for a `screen: true` read: enough to redraw a full-screen program. */
const SCREEN_TAIL_LINES = 400;

/** A session's reads and searches over its scrollback and command record. */
export class SessionPages {
  /** Renders model text on this thread (see screenText.ts); created on first use. */
  private renderer: TextRenderer | undefined;

  /**
   * @param cells the terminal, read for its size (columns and rows) at each read.
   * @param renderThread renders model text off this thread (readAsync).
   * @param redactor redacts secrets in everything an agent reads (readAsync, search).
   */
  constructor(
    private readonly scrollback: Scrollback,
    private readonly commands: CommandHistory,
    private readonly config: TerminalConfig,
    private readonly log: Log,
    private readonly cells: { readonly cols: number; readonly rows: number },
    private readonly renderThread: ScreenTextThread,
    private readonly redactor: SecretRedactor,
  ) {}

  /**
   * A page, a command's page or the screen, rendered on this thread (readAsync renders off it).
   * Not redacted: the person's view (the panel's backlog); what an agent reads is readAsync.
   */
  read(request: ReadRequest): ReadResult {
    const source = this.readSource(request);
    if (source.kind === 'screen') return screenPage(source.tail, this.render().screen(source.tail.text));
    if (request.raw) return source.page;
    return renderedPage(() => this.render(), source.page, source.pageOf, this.config.maxReadBytes, this.log);
  }

  /** As read, rendered in the render thread: the caller's thread is not held by the render. */
  async readAsync(request: ReadRequest): Promise<ReadResult> {
    const page = await this.unredactedReadAsync(request);
    const shown = request.screen ? 0 : page.lineEnd - page.lineBegin;
    return {
      ...page,
      text: await redactPage(
        this.scrollback,
        (text) => this.redactor.redact(text, this.cells.cols),
        page.text,
        page.firstLineNumber,
        shown,
      ),
    };
  }

  /**
   * Searches the scrollback or a command's output (scrollbackSearch.ts), snippets redacted, in
   * `threads`, the owner's share of the pattern pool.
   */
  search(request: SearchRequest, threads: SearchThreads): Promise<SearchResult> {
    return searchScrollback(this.scrollback, this.commands, request, (texts) => this.redactor.redactAll(texts, this.cells.cols), threads);
  }

  /** The terminal's size in character cells now. */
  cellSize(): { cols: number; rows: number } {
    return { cols: this.cells.cols, rows: this.cells.rows };
  }

  /** Frees this thread's renderer; a later read makes a new one. */
  dispose(): void {
    this.renderer?.dispose();
    this.renderer = undefined;
  }

  private async unredactedReadAsync(request: ReadRequest): Promise<ReadResult> {
    const source = this.readSource(request);
    const size = this.cellSize();
    if (source.kind === 'screen') return screenPage(source.tail, await this.renderThread.screen(size, source.tail.text));
    if (request.raw) return source.page;
    return renderedPageAsync((raw) => this.renderThread.render(size, raw), source.page, source.pageOf, this.config.maxReadBytes, this.log);
  }

  /**
   * The raw text a read renders: the scrollback's tail for the screen, else the page asked for,
   * and `pageOf(count)`, the same page with at most `count` lines (the same newest line).
   * @throws TerminalError INVALID_ARGUMENT for an offset or count out of range, a `raw` or `screen`
   *   that is not a boolean, screen with command, or a command the record does not hold.
   */
  private readSource(
    request: ReadRequest,
  ): { kind: 'screen'; tail: ReadResult } | { kind: 'page'; page: ReadResult; pageOf: (count: number) => ReadResult } {
    const offset = checkInteger(request.offset, 'offset', { min: 0 }, invalidArgument, 0);
    const count = checkInteger(request.count, 'count', { min: 1 }, invalidArgument, DEFAULT_READ_COUNT);
    // A string "false" is truthy: anything but a boolean would pick the wrong kind of page.
    for (const name of ['raw', 'screen'] as const) {
      const value: unknown = request[name];
      if (value !== undefined && typeof value !== 'boolean')
        throw new TerminalError('INVALID_ARGUMENT', `${name} must be true or false, or left out (got ${quoteInput(value)})`);
    }
    if (request.screen && request.command !== undefined)
      throw new TerminalError('INVALID_ARGUMENT', 'give screen or command, not both: the screen is not part of any command');
    if (request.screen) return { kind: 'screen', tail: this.scrollback.page(0, SCREEN_TAIL_LINES, this.config.maxReadBytes) };
    const { command } = request;
    const pageOf = (lines: number) =>
      command === undefined
        ? this.scrollback.page(offset, lines, this.config.maxReadBytes)
        : this.commands.outputPage(command, offset, lines, this.config.maxReadBytes);
    return { kind: 'page', page: pageOf(count), pageOf };
  }

  private render(): TextRenderer {
    this.renderer ??= new TextRenderer(this.cells.cols, this.cells.rows);
    return this.renderer;
  }
}

/** A screen read: the scrollback tail's page fields with the rendered screen as its text. */
function screenPage(tail: ReadResult, screen: RenderedScreen): ReadResult {
  const result: ReadResult = { ...tail, offset: 0, lineBegin: 0, lineEnd: 0, truncated: false, text: screen.lines.join('\n') };
  if (screen.limited) result.renderLimited = true;
  return result;
}
