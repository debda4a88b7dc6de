/**
 * A bounded excerpt of one source line around a column (plain Node, no `vscode` import): what a
 * tool result or an error shows of the line it used, so a minified file's line of megabytes never
 * reaches the model whole.
 */
import { characterToModelColumn, modelColumnToCharacter } from './position';

/** Most UTF-16 code units of a line that are shown; a longer line is cut to a window of this size. */
export const LINE_TEXT_MAX_UNITS = 200;

/** What marks a cut end of a {@link LineWindow} (one character, not part of the line). */
export const CUT_MARKER = '…';

/** A line as shown: whole, or a window around a column. */
export interface LineWindow {
  /**
   * The line when it has at most {@link LINE_TEXT_MAX_UNITS} UTF-16 code units; otherwise that
   * many code units around the column (fewer by one where a surrogate pair would be split), with
   * {@link CUT_MARKER} before and/or after where the line was cut.
   */
  readonly text: string;
  /**
   * Present only when the line was cut at its start: the 1-based column (code points) of the line
   * where the shown text begins, after the leading marker. A column `c` of the line is then the
   * `(c - start)`-th code point (0-based) after the marker.
   */
  readonly start?: number;
}

/**
 * The window of `lineText` to show around `column`: half the bound before the column's
 * character, the rest after (shifted when the line ends sooner), never splitting a surrogate pair.
 * Costs time linear in the part of the line before the window (to count its columns), nothing
 * after it.
 * @param lineText the line, without its terminator.
 * @param column 1-based column in code points (clamped to the line).
 */
export function lineWindow(lineText: string, column: number, max = LINE_TEXT_MAX_UNITS): LineWindow {
  if (lineText.length <= max) return { text: lineText };
  const at = modelColumnToCharacter(lineText, Number.isInteger(column) ? Math.max(1, column) : 1).character;
  let begin = Math.max(0, at - Math.floor(max / 2));
  let end = Math.min(lineText.length, begin + max);
  begin = Math.max(0, end - max);
  if (begin > 0 && isLowSurrogate(lineText.charCodeAt(begin))) begin++;
  if (end < lineText.length && isHighSurrogate(lineText.charCodeAt(end - 1))) end--;
  const text = `${begin > 0 ? CUT_MARKER : ''}${lineText.slice(begin, end)}${end < lineText.length ? CUT_MARKER : ''}`;
  return begin > 0 ? { text, start: characterToModelColumn(lineText, begin) } : { text };
}

/**
 * The start of `text` as shown in a result or an error: whole when it has at most `max` UTF-16
 * code units, else its first `max` units (one fewer where a surrogate pair would be split) and
 * {@link CUT_MARKER}. For a token or a model-given string that may be megabytes long.
 */
export function textHead(text: string, max = LINE_TEXT_MAX_UNITS): string {
  if (text.length <= max) return text;
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}${CUT_MARKER}`;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
