/**
 * The position a navigation tool actually uses for a model position (plain Node, no `vscode`
 * import): the 1-based line and column the model gave, re-anchored to a symbol or snapped from a
 * declaration keyword to the declared name, clamped to the line, and converted once to LSP.
 */
import { lineWindow } from './lineWindow';
import { codePointLength, toLspPosition } from './position';
import { snapToDeclaredName } from './declaredName';
import { anchorToSymbol } from './symbolAnchor';
import { Position } from './types';
import type { LINE_TEXT_MAX_UNITS } from './lineWindow';

/** The position the tool actually used, as shown to the model (1-based). */
export interface UsedPosition {
  line: number;
  column: number;
  /**
   * The text of that line; a line longer than {@link LINE_TEXT_MAX_UNITS} UTF-16 code units is cut
   * to a window of that size around {@link column}, each cut end marked with `…` (see
   * {@link lineWindow}).
   */
  lineText: string;
  /**
   * Present only when {@link lineText} was cut at its start: the 1-based column of the line where
   * the shown text begins, after the leading `…` (column `c` is the `(c - lineTextStart)`-th
   * character, 0-based, after it).
   */
  lineTextStart?: number;
  /** The token at the column (identifier or character), `''` on whitespace. */
  token: string;
  /** Why the column differs from the one given (symbol re-anchoring, keyword snapping, clamping). */
  note?: string;
}

/**
 * The position a tool uses for a 1-based model position: re-anchored to `symbol` (nearest
 * occurrence at identifier boundaries) or, without one, a column on a declaration keyword snapped
 * to the declared name; then converted once to LSP (`toLspPosition`), a column past the end
 * clamped to the end. Shared by `dsh_lsp` and `dsh_call_hierarchy`.
 * @param lines the document's lines (`splitLines`).
 * @returns the LSP position and the {@link UsedPosition} to show.
 * @throws LspError `line_out_of_range` (quoting `1..N`), `column_out_of_range`, `symbol_not_found`.
 */
export function resolveModelPosition(
  lines: readonly string[],
  line: number,
  column: number,
  symbol?: string,
): { position: Position; used: UsedPosition } {
  // Re-anchor, then convert once (line_out_of_range quotes 1..N).
  const converted0 = toLspPosition(lines, { line, column: 1 });
  const lineText = converted0.lineText;
  let used: number;
  let note: string | undefined;
  let tokenText: string;
  if (symbol !== undefined) {
    const anchor = anchorToSymbol(lineText, column, symbol);
    used = anchor.column;
    tokenText = symbol;
    if (used !== column) note = `re-anchored to '${symbol}' at column ${used}${occurrencesNote(anchor.occurrences)}`;
  } else {
    const snap = snapToDeclaredName(lineText, column);
    used = snap.column;
    tokenText = snap.token;
    note = snap.note;
  }
  const converted = toLspPosition(lines, { line, column: used });
  if (converted.clamped) {
    const end = codePointLength(lineText) + 1;
    note = `${note ? note + '; ' : ''}column ${used} is past the end of the line; used column ${end}`;
    used = end;
  }
  const shown = lineWindow(lineText, used);
  return {
    position: converted.position,
    used: {
      line,
      column: used,
      lineText: shown.text,
      ...(shown.start !== undefined ? { lineTextStart: shown.start } : {}),
      token: tokenText,
      ...(note ? { note } : {}),
    },
  };
}

/** Most occurrence columns a note names. */
const OCCURRENCES_SHOWN = 10;

/** `''` for one occurrence; else their columns, the first {@link OCCURRENCES_SHOWN} and a count when there are more. */
function occurrencesNote(occurrences: readonly number[]): string {
  if (occurrences.length <= 1) return '';
  if (occurrences.length <= OCCURRENCES_SHOWN) return ` (occurrences at columns ${occurrences.join(', ')})`;
  return ` (${occurrences.length} occurrences, the first at columns ${occurrences.slice(0, OCCURRENCES_SHOWN).join(', ')}, …)`;
}
