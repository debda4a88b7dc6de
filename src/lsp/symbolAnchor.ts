/**
 * Re-anchoring a model column to a symbol on the line (plain Node, no `vscode` import), because
 * models miscount columns.
 */
import { quoteInput } from '../common/quoteInput';
import { textHead } from '../common/textHead';
import { lineWindow } from './lineWindow';
import { LspError } from './types';

const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200C\u200D]/u;

/** Result of {@link anchorToSymbol}. */
export interface SymbolAnchor {
  /** 1-based column (code points) where the chosen occurrence of the symbol starts. */
  readonly column: number;
  /** 1-based start columns of every occurrence on the line, in order. */
  readonly occurrences: readonly number[];
}

/** Longest `symbol` a tool accepts (UTF-16 code units): an identifier, never a line. */
export const SYMBOL_MAX_UNITS = 200;

/**
 * What is wrong with a model-given `symbol`, as a message the model can act on (quoting at most
 * the bound of it), or undefined when it is usable: a string of 1..{@link SYMBOL_MAX_UNITS} UTF-16
 * code units on one line. The bound also bounds the search ({@link anchorToSymbol} costs the
 * line's length times the symbol's).
 */
export function symbolProblem(symbol: unknown): string | undefined {
  if (typeof symbol !== 'string' || symbol.length === 0)
    return `symbol, when given, must be the non-empty identifier text on the line (got ${typeof symbol === 'string' ? '""' : typeof symbol})`;
  if (symbol.length > SYMBOL_MAX_UNITS)
    return `symbol must be at most ${SYMBOL_MAX_UNITS} UTF-16 code units, the identifier text on the line (got ${symbol.length}, starting ${JSON.stringify(textHead(symbol, 40))})`;
  if (/[\r\n]/.test(symbol)) return `symbol must be text on one line, got ${quoteInput(symbol)}`;
  return undefined;
}

/**
 * Re-anchor a model column to an occurrence of `symbol` on the line, because models miscount
 * columns. An occurrence counts only at identifier boundaries: where the symbol begins (ends)
 * with an identifier character (Unicode `ID_Continue`, `$`, ZWJ/ZWNJ), the character before
 * (after) must not be one, so `symbol: 'clk'` does not match inside `clk2` or `my_clk`. Among
 * occurrences, the one nearest to `column` wins (distance 0 when the column lies inside it; ties go
 * to the earlier one).
 * @param lineText the line, without its terminator.
 * @param column 1-based column in code points (any integer; only used for nearness).
 * @param symbol the exact, case-sensitive text to find; non-empty, single line.
 * @throws LspError `invalid_request` for a symbol {@link symbolProblem} refuses; `symbol_not_found` when no
 *   occurrence exists (the message and `details.lineText` quote the line, a long one cut to a
 *   window around `column` by {@link lineWindow}, with `details.lineTextStart` then).
 */
export function anchorToSymbol(lineText: string, column: number, symbol: string): SymbolAnchor {
  const problem = symbolProblem(symbol);
  if (problem) throw new LspError('invalid_request', problem);
  const cps = Array.from(lineText);
  const sym = Array.from(symbol);
  const checkBefore = IDENTIFIER_CHAR.test(sym[0]!);
  const checkAfter = IDENTIFIER_CHAR.test(sym[sym.length - 1]!);
  const occurrences: number[] = [];
  outer: for (let i = 0; i + sym.length <= cps.length; i++) {
    for (let k = 0; k < sym.length; k++) if (cps[i + k] !== sym[k]) continue outer;
    if (checkBefore && i > 0 && IDENTIFIER_CHAR.test(cps[i - 1]!)) continue;
    if (checkAfter && i + sym.length < cps.length && IDENTIFIER_CHAR.test(cps[i + sym.length]!)) continue;
    occurrences.push(i + 1);
  }
  if (occurrences.length === 0) {
    const shown = lineWindow(lineText, column);
    throw new LspError(
      'symbol_not_found',
      `symbol ${JSON.stringify(symbol)} does not occur as a whole identifier on the line: ${JSON.stringify(shown.text)}${shown.start !== undefined ? ` (the line from column ${shown.start})` : ''}`,
      {
        symbol,
        lineText: shown.text,
        ...(shown.start !== undefined ? { lineTextStart: shown.start } : {}),
      },
    );
  }
  const distance = (start: number) =>
    column < start ? start - column : column >= start + sym.length ? column - (start + sym.length - 1) : 0;
  let best = occurrences[0]!;
  for (const o of occurrences) if (distance(o) < distance(best)) best = o;
  return { column: best, occurrences };
}
