/**
 * Rendering of what a send or a read returns as text for a model (screenText.ts does the terminal
 * emulation): escapes and redraws applied, capped in UTF-8 bytes, and never lost to the renderer
 * (a rendering that fails falls back to the raw text, with a warning in the log).
 */
import type { RenderOptions, Rendered, TextRenderer } from './screenText';
import { tailByBytes } from './byteTail';
import type { ReadResult } from '../types';
import { errorMessage } from '../../common/errorMessage';
import type { Log } from '../../common/log';

/** Terminal text as a model reads it: `\r\n` → `\n`, trailing newlines dropped. */
export function normalizeOutput(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
}

/**
 * A send's viewport as a person saw it: escapes and redraws applied, trailing blank lines
 * dropped, the blanks before the cursor kept (`Name: `). When a full-screen program holds the
 * alternate screen at the end, its visible screen follows. At most `maxReadBytes` UTF-8 bytes
 * (the newest kept). `limited`: the rendering was cut short (screenText.ts, Rendered.limited).
 * `render` is TextRenderer.render of the session's size (screenTextThread.ts runs it off this thread).
 */
export async function viewportText(
  render: (raw: string, options: RenderOptions) => Promise<Rendered>,
  raw: string,
  startInAlternate: boolean,
  maxReadBytes: number,
  log: Log,
): Promise<{ text: string; limited?: boolean }> {
  try {
    const { lines, alternateScreen, limited } = await render(raw, { startInAlternate, keepCursorBlanks: true });
    let text = normalizeOutput(lines.join('\n'));
    if (alternateScreen?.length) text = text ? `${text}\n${alternateScreen.join('\n')}` : alternateScreen.join('\n');
    return { text: tailByBytes(text, maxReadBytes).text, limited };
  } catch (error) {
    // Never lose a send's result to the renderer: fall back to the raw text.
    log.warn(`rendering the viewport failed, returning raw text: ${errorMessage(error)}`);
    return { text: normalizeOutput(raw) };
  }
}

/** Renders of one page, at most, while it is made to fit the byte cap (see fewerLines). */
const MAX_FIT_RENDERS = 4;

/**
 * A scrollback page as model text: rendered, at most `maxReadBytes` UTF-8 bytes, without hiding a
 * line from paging. A rendering can be larger than the raw page (a tab becomes spaces); then the
 * page is taken again with fewer lines (its oldest left to the next page, `lineEnd` stopping
 * before them, `truncated` set), as Scrollback.page does with raw lines: only a page of a single
 * line larger than the cap loses that line's head. `pageOf(count)` returns the raw page of the
 * same request with at most `count` lines (the same newest line); `page` is `pageOf` of the
 * count asked for. The raw page when rendering fails. On the caller's thread; renderedPageAsync
 * renders through screenTextThread.ts.
 */
export function renderedPage(
  renderer: () => TextRenderer,
  page: ReadResult,
  pageOf: (count: number) => ReadResult,
  maxReadBytes: number,
  log: Log,
): ReadResult {
  try {
    for (let renders = 1; ; renders++) {
      const rendered = renderer().render(page.text);
      const fewer = fewerLines(page, rendered, maxReadBytes, renders);
      if (fewer === undefined) return pageText(page, rendered, maxReadBytes);
      page = { ...pageOf(fewer), truncated: true };
    }
  } catch (error) {
    return rawPage(page, error, log);
  }
}

/** renderedPage with `render` (TextRenderer.render of the session's size) run off this thread. */
export async function renderedPageAsync(
  render: (raw: string) => Promise<Rendered>,
  page: ReadResult,
  pageOf: (count: number) => ReadResult,
  maxReadBytes: number,
  log: Log,
): Promise<ReadResult> {
  try {
    for (let renders = 1; ; renders++) {
      const rendered = await render(page.text);
      const fewer = fewerLines(page, rendered, maxReadBytes, renders);
      if (fewer === undefined) return pageText(page, rendered, maxReadBytes);
      page = { ...pageOf(fewer), truncated: true };
    }
  } catch (error) {
    return rawPage(page, error, log);
  }
}

/**
 * How many of `page`'s lines (the newest) to render instead, when its rendering `rendered` is
 * larger than `maxReadBytes`; undefined when it fits, or when the page is a single line (its head
 * is then cut). When each raw line rendered as one line, the newest rendered lines that fit say
 * it exactly; otherwise (a redraw merged or added lines) the share of the cap does. Always fewer
 * than the page has; after MAX_FIT_RENDERS - 1 renders, one line, so that a page is rendered at
 * most MAX_FIT_RENDERS times.
 */
function fewerLines(page: ReadResult, rendered: Rendered, maxReadBytes: number, renders: number): number | undefined {
  const shown = page.lineEnd - page.lineBegin;
  if (shown <= 1) return undefined;
  const sizes = rendered.lines.map((line) => Buffer.byteLength(line, 'utf8') + 1);
  const bytes = sizes.reduce((n, size) => n + size, 0) - 1;
  if (bytes <= maxReadBytes) return undefined;
  if (renders >= MAX_FIT_RENDERS - 1) return 1;
  let fit = 0;
  if (sizes.length === shown) {
    for (let used = -1, i = sizes.length - 1; i >= 0 && used + sizes[i]! <= maxReadBytes; i--) {
      used += sizes[i]!;
      fit++;
    }
  } else {
    fit = Math.floor((shown * maxReadBytes) / bytes);
  }
  return Math.max(1, Math.min(shown - 1, fit));
}

function pageText(page: ReadResult, { lines, limited }: Rendered, maxReadBytes: number): ReadResult {
  const rendered = tailByBytes(lines.join('\n'), maxReadBytes);
  const result: ReadResult = { ...page, text: rendered.text, truncated: page.truncated || rendered.dropped > 0 };
  if (limited) result.renderLimited = true;
  return result;
}

function rawPage(page: ReadResult, error: unknown, log: Log): ReadResult {
  log.warn(`rendering a page failed, returning raw text: ${errorMessage(error)}`);
  return page;
}
