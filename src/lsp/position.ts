/**
 * The one position converter between the model and the seam (plain Node, no `vscode` import).
 *
 * - Model positions (what the `dsh_lsp` tool takes and shows): 1-based `line`, 1-based `column`
 *   counted in characters, i.e. Unicode code points (`🍋` is one column, a tab is one column).
 * - Seam positions ({@link Position}, LSP 3.17): 0-based `line`, 0-based `character` counted in
 *   UTF-16 code units (`🍋` is two units), see
 *   https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#position
 *
 * Lines are split on `\n`, `\r\n` and `\r` (LSP's end-of-line rule); line terminators are never
 * part of a line's text, so CRLF files convert like LF files. A text ending in a line terminator
 * has a last, empty line (as in VS Code's `TextDocument.lineCount`).
 *
 * Column past the end of a line: **clamped** to the end of the line (model column `length + 1`),
 * reported with `clamped: true`. This follows LSP ("if the character value is greater than the
 * line length it defaults back to the line length") and forgives models that miscount; the tool
 * shows the position actually used. Column 0 or below and line numbers outside `1..N` are errors.
 */

import { checkInteger, isIntegerIn } from '../common/integerInput';
import { LspError, Position } from './types';

/** A model position: 1-based line, 1-based column counted in Unicode code points. */
export interface ModelPosition {
  readonly line: number;
  readonly column: number;
}

/** Result of {@link toLspPosition}: the seam position, whether the column was clamped, and the line's text. */
export interface ConvertedPosition {
  readonly position: Position;
  /** True when the model column was past the end of the line and was moved to the end. */
  readonly clamped: boolean;
  /** The text of the line (without its terminator). */
  readonly lineText: string;
}

const EOL = /\r\n|\r|\n/;

/**
 * Split a document into lines by LSP's end-of-line rule (`\n`, `\r\n`, `\r`); terminators are
 * dropped. `''` is one empty line; `'a\n'` is two lines, `['a', '']`.
 */
export function splitLines(text: string): string[] {
  return text.split(EOL);
}

/** Number of code points in `s` (astral characters count once). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * Convert a 1-based model column (code points) to a 0-based UTF-16 character on `lineText`.
 * Columns past the end (`> codePointLength(lineText) + 1`) clamp to the end of the line.
 * @param lineText the line, without its terminator.
 * @param column 1-based column in code points; integer >= 1.
 * @returns `{character, clamped}`.
 * @throws LspError `column_out_of_range` when `column` is not an integer >= 1.
 */
export function modelColumnToCharacter(lineText: string, column: number): { character: number; clamped: boolean } {
  if (!isIntegerIn(column, 1)) {
    const max = codePointLength(lineText) + 1;
    throw new LspError(
      'column_out_of_range',
      `column ${String(column)} is invalid: columns are 1-based and counted in characters; valid columns on this line are 1..${max}`,
      { column, validRange: [1, max] },
    );
  }
  let remaining = column - 1;
  let i = 0;
  while (remaining > 0 && i < lineText.length) {
    const c = lineText.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < lineText.length && isLowSurrogate(lineText.charCodeAt(i + 1));
    i += pair ? 2 : 1;
    remaining--;
  }
  return { character: i, clamped: remaining > 0 };
}

/**
 * Convert a 0-based UTF-16 character on `lineText` to a 1-based model column (code points).
 * A character past the end of the line means the end (LSP rule): column `codePointLength + 1`.
 * A character pointing between the two halves of a surrogate pair rounds down to the pair's start.
 * @throws LspError `invalid_request` when `character` is not an integer >= 0.
 */
export function characterToModelColumn(lineText: string, character: number): number {
  checkInteger(
    character,
    'character',
    { min: 0, note: 'a 0-based LSP character (UTF-16 code units)' },
    (m) => new LspError('invalid_request', m),
  );
  let column = 1;
  let i = 0;
  const end = Math.min(character, lineText.length);
  while (i < end) {
    const c = lineText.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < lineText.length && isLowSurrogate(lineText.charCodeAt(i + 1));
    if (pair && i + 1 === end) break; // `end` points inside the pair: round down to its start
    i += pair ? 2 : 1;
    column++;
  }
  return column;
}

/**
 * Model position -> seam position, on a document given as its lines (see {@link splitLines}) or
 * its whole text.
 * @param doc the document's lines, or its text.
 * @param pos 1-based line, 1-based column in code points.
 * @returns the LSP position (0-based line, 0-based UTF-16 character), `clamped` when the column
 *   was past the end of the line, and the line's text.
 * @throws LspError `line_out_of_range` (quoting the valid range `1..N`) when the line is not an
 *   integer in `1..N`; `column_out_of_range` when the column is not an integer >= 1.
 */
export function toLspPosition(doc: readonly string[] | string, pos: ModelPosition): ConvertedPosition {
  const lines = typeof doc === 'string' ? splitLines(doc) : doc;
  const lineText = lineAt(lines, pos.line);
  const { character, clamped } = modelColumnToCharacter(lineText, pos.column);
  return { position: { line: pos.line - 1, character }, clamped, lineText };
}

/**
 * Seam position -> model position, on a document given as its lines or its text.
 * Characters past the end of the line map to the end (LSP rule).
 * @throws LspError `line_out_of_range` when `pos.line` is not in `0..N-1` (message quotes the
 *   1-based range `1..N`); `invalid_request` for a negative or non-integer character.
 */
export function toModelPosition(doc: readonly string[] | string, pos: Position): ModelPosition {
  const lines = typeof doc === 'string' ? splitLines(doc) : doc;
  const lineText = lineAt(lines, pos.line + 1);
  return { line: pos.line + 1, column: characterToModelColumn(lineText, pos.character) };
}

function lineAt(lines: readonly string[], line1: number): string {
  const n = lines.length;
  if (!isIntegerIn(line1, 1, n)) {
    throw new LspError(
      'line_out_of_range',
      `line ${String(line1)} is out of range: lines are 1-based and this file has ${n} line${n === 1 ? '' : 's'}; valid lines are 1..${n}`,
      { line: line1, validRange: [1, n] },
    );
  }
  return lines[line1 - 1]!;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
