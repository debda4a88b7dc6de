/**
 * A bounded excerpt of one source line around a column (plain Node, no `vscode` import): what a
 * tool result or an error shows of the line it used, so a minified file's line of megabytes never
 * reaches the model whole.
 */
import { CUT_MARKER, isHighSurrogate, textHead } from '../common/textHead';
import { characterToModelColumn, modelColumnToCharacter } from './position';

export { CUT_MARKER };

/** Most UTF-16 code units of a line that are shown; a longer line is cut to a window of this size. */
export const LINE_TEXT_MAX_UNITS = 200;

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

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * A model-given value (a token, a path, a symbol) as text in a result or an invocation message:
 * at most {@link LINE_TEXT_MAX_UNITS} UTF-16 code units, with {@link CUT_MARKER} where cut.
 */
export function shownHead(value: unknown): string {
  return textHead(String(value), LINE_TEXT_MAX_UNITS);
}
