/**
 * Rendering of what a send or a read returns as text for a model (screenText.ts does the terminal
 * emulation): escapes and redraws applied, capped in UTF-8 bytes, and never lost to the renderer
 * (a rendering that fails falls back to the raw text, with a warning in the log).
 */
import type { RenderOptions, Rendered, TextRenderer } from './screenText';
import { tailByBytes } from './scrollback';
import type { ReadResult } from './types';
import { errorMessage } from '../common/errorMessage';
import type { Log } from '../common/log';

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

/**
 * A scrollback page as model text: rendered, then capped at `maxReadBytes` again (a tab becomes
 * spaces), `truncated` when either cap cut it; the raw page when rendering fails. On the caller's
 * thread; renderedPageAsync renders through screenTextThread.ts.
 */
export function renderedPage(renderer: () => TextRenderer, page: ReadResult, maxReadBytes: number, log: Log): ReadResult {
  try {
    return pageText(page, renderer().render(page.text), maxReadBytes);
  } catch (error) {
    return rawPage(page, error, log);
  }
}

/** renderedPage with `render` (TextRenderer.render of the session's size) run off this thread. */
export async function renderedPageAsync(render: (raw: string) => Promise<Rendered>, page: ReadResult, maxReadBytes: number, log: Log): Promise<ReadResult> {
  try {
    return pageText(page, await render(page.text), maxReadBytes);
  } catch (error) {
    return rawPage(page, error, log);
  }
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
