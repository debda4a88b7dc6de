/**
 * Code spans and HTML comments inside one inline block of a note (a paragraph, a heading, a table
 * row, an HTML block), found with CommonMark's rules (plain Node, no `vscode` import): a backtick
 * string closes only on a string of the same length; backslash escapes do not apply inside code;
 * `<!-->` and `<!--->` are complete comments. Wiki links there are not links.
 *
 * All positions are LSP positions: 0-based line, 0-based UTF-16 character.
 */

import type { IgnoredKind } from './parsedNote';

/** Lines [a, b) of a note joined by `\n` as one inline block, with offsets mapped back to positions. */
export class InlineBlock {
  readonly text: string;
  private readonly lineStarts: number[] = [];

  constructor(
    lines: readonly string[],
    private readonly a: number,
    b: number,
  ) {
    this.text = lines.slice(a, b).join('\n');
    let off = 0;
    for (let i = a; i < b; i++) {
      this.lineStarts.push(off);
      off += lines[i]!.length + 1;
    }
  }

  /** The LSP position of offset `o` in {@link text}. */
  position(o: number): { line: number; character: number } {
    // The last line starting at or before `o` (binary search: a block may have many lines and spans).
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: this.a + lo, character: o - this.lineStarts[lo]! };
  }
}

/**
 * Calls `onSpan` with the offsets `[start, end)` in `text` (an {@link InlineBlock}'s text) of each
 * code span (only when `code`) and each HTML comment, in order; backslash-escaped characters
 * outside them are literal. A backtick string with no closer is literal.
 */
export function findInlineSpans(text: string, code: boolean, onSpan: (start: number, end: number, kind: IgnoredKind) => void): void {
  const len = text.length;
  let i = 0;
  while (i < len) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) {
      i += 2; // an escaped character is literal (backslash escapes do not apply inside code; we are outside)
      continue;
    }
    if (code && c === 0x60 /* ` */) {
      let k = i;
      while (k < len && text.charCodeAt(k) === 0x60) k++;
      const run = k - i;
      const close = closingBackticks(text, k, run);
      if (close >= 0) {
        onSpan(i, close + run, 'inline-code');
        i = close + run;
      } else {
        i = k; // no closer: the backticks are literal
      }
      continue;
    }
    if (c === 0x3c /* < */ && text.startsWith('<!--', i)) {
      const endAt = htmlCommentEnd(text, i);
      if (endAt > 0) {
        onSpan(i, endAt, 'html-comment');
        i = endAt;
        continue;
      }
    }
    i++;
  }
}

/** Offset of the first run of exactly `run` backticks at or after `from` in `text` (CommonMark code span closer), or -1. */
function closingBackticks(text: string, from: number, run: number): number {
  const len = text.length;
  let j = from;
  while (j < len) {
    if (text.charCodeAt(j) === 0x60) {
      let m = j;
      while (m < len && text.charCodeAt(m) === 0x60) m++;
      if (m - j === run) return j;
      j = m;
    } else j++;
  }
  return -1;
}

/** Offset after the HTML comment opening at `i` (`<!-->` and `<!--->` are complete comments), or -1 when it never closes. */
function htmlCommentEnd(text: string, i: number): number {
  if (text.startsWith('<!-->', i)) return i + 5;
  if (text.startsWith('<!--->', i)) return i + 6;
  const e = text.indexOf('-->', i + 4);
  return e < 0 ? -1 : e + 3;
}
