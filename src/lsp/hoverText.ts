/**
 * Hover contents as plain text for the model (plain Node), whatever shape the language feature
 * answered with.
 */
import { textHead } from '../common/textHead';

/** Most UTF-16 code units of hover text an answer shows (at most 24 KiB of UTF-8 for text without control characters). */
export const HOVER_MAX_UNITS = 8000;

/** Hover text as `dsh_lsp` answers with it (see {@link shownHover}). */
export interface ShownHover {
  /** The text, or `null` (no hover); cut to {@link HOVER_MAX_UNITS} UTF-16 code units plus `…` when longer. */
  readonly hover: string | null;
  /** Present when `hover` was cut. */
  readonly hoverCut?: true;
  /** The whole text's length in UTF-16 code units, present when `hover` was cut. */
  readonly hoverUnits?: number;
}

/**
 * Flattened hover text bounded for an answer: whole when it has at most {@link HOVER_MAX_UNITS}
 * UTF-16 code units, else its start (a surrogate pair never split, `…` appended), `hoverCut` and
 * the whole length in `hoverUnits`.
 */
export function shownHover(text: string | null): ShownHover {
  if (text === null || text.length <= HOVER_MAX_UNITS) return { hover: text };
  return { hover: textHead(text, HOVER_MAX_UNITS), hoverCut: true, hoverUnits: text.length };
}

/**
 * Flatten hover contents of every shape VS Code and LSP use, without `instanceof` (objects may
 * come from another extension's copy of the API):
 * - a string (a `MarkedString` in markdown);
 * - `{value, kind?}` / `{value, isTrusted?, …}` (`MarkdownString`, LSP `MarkupContent`);
 * - `{language, value}` (a code `MarkedString`);
 * - an array of those, or `{contents}` objects (`Hover`) holding those.
 *
 * Markdown code fences are removed (their content kept), so `const x: 1` reads as plain text.
 * Empty parts (blank text, fences with nothing inside) are dropped; when nothing is left the
 * answer is `null` (no hover), never an empty code block. Parts are joined by a blank line and
 * duplicates removed.
 */
export function flattenHover(contents: unknown): string | null {
  const parts: string[] = [];
  const visit = (c: unknown, depth: number): void => {
    if (c === null || c === undefined || depth > 4) return;
    if (typeof c === 'string') {
      parts.push(markdownToText(c));
      return;
    }
    if (Array.isArray(c)) {
      for (const x of c) visit(x, depth + 1);
      return;
    }
    if (typeof c === 'object') {
      const o = c as { value?: unknown; language?: unknown; contents?: unknown };
      if (typeof o.value === 'string') {
        parts.push(typeof o.language === 'string' ? o.value.trim() : markdownToText(o.value));
      } else if (o.contents !== undefined) {
        visit(o.contents, depth + 1);
      }
    }
  };
  visit(contents, 0);
  const unique = [...new Set(parts.filter((p) => p.trim().length > 0))];
  return unique.length > 0 ? unique.join('\n\n') : null;
}

/** Markdown to readable text: code fences dropped (content kept), horizontal rules dropped, trimmed. */
function markdownToText(md: string): string {
  return md
    .split(/\r\n|\r|\n/)
    .filter((l) => !/^\s*(```|~~~)/.test(l) && !/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(l))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
