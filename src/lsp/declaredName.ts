/**
 * Declaration-keyword snapping (plain Node): a column on `export`, `function`, `const`, … moves to
 * the declared name, because models often point at the keyword.
 */
import { shownHead } from './lineWindow';
import { characterToModelColumn } from './position';

/** Words that start a declaration but never name it, across common languages. */
const DECLARATION_KEYWORDS = new Set([
  'export',
  'default',
  'declare',
  'async',
  'function',
  'function*',
  'class',
  'interface',
  'type',
  'enum',
  'const',
  'let',
  'var',
  'abstract',
  'public',
  'private',
  'protected',
  'static',
  'readonly',
  'override',
  'namespace',
  'module',
  'get',
  'set',
  'def',
  'fn',
  'pub',
  'struct',
  'impl',
  'trait',
  'func',
  'val',
  'final',
  'record',
  'extern',
  'unsafe',
  'mut',
]);

/** Result of {@link snapToDeclaredName}. */
export interface Snap {
  /** The 1-based column to use. */
  readonly column: number;
  /**
   * The identifier (or other token) at that column, `''` when the column is on no token; one
   * longer than 200 UTF-16 code units is cut there and ends with `…` (see shownHead).
   */
  readonly token: string;
  /** Set when the column moved: says from which keyword to which name. */
  readonly note?: string;
}

/**
 * When `column` (1-based, code points) lies on a declaration keyword (`export`, `function`,
 * `const`, …), move it to the first identifier after the keywords on the same line, i.e. the
 * declared name (`export default async function helper()` -> `helper`). Otherwise the column
 * stays and `token` names the word under it, so the tool can say which token was used.
 */
export function snapToDeclaredName(lineText: string, column: number): Snap {
  const at = column - 1;
  let word: { start: number; end: number; text: string } | undefined;
  // One pass over the words (0-based code point indices, end exclusive), counting code points
  // only between consecutive words, so a minified line of megabytes costs linear time; it stops
  // at the word under the column, or at the declared name after a keyword there.
  for (const w of wordsOf(lineText)) {
    if (word === undefined) {
      if (w.end <= at) continue;
      if (w.start > at) break;
      word = w;
      if (!DECLARATION_KEYWORDS.has(w.text)) return { column, token: shownHead(w.text) };
      continue;
    }
    if (DECLARATION_KEYWORDS.has(w.text)) continue;
    const name = shownHead(w.text);
    return {
      column: w.start + 1,
      token: name,
      note: `column ${column} is on the keyword '${word.text}'; used the declared name '${name}' at column ${w.start + 1}`,
    };
  }
  if (word === undefined) {
    const cp = codePointAt(lineText, at);
    return { column, token: cp !== undefined && !/\s/.test(cp) ? cp : '' };
  }
  return {
    column,
    token: word.text,
    note: `column ${column} is on the keyword '${word.text}' and no declared name follows on this line; pass the column of the name or 'symbol'`,
  };
}

/** The identifiers of `lineText` in order, with 0-based code point start and end (exclusive). */
function* wordsOf(lineText: string): Generator<{ start: number; end: number; text: string }> {
  const re = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/gu;
  let unit = 0; // UTF-16 index where the previous word ended
  let cp = 0; // code points before `unit`
  for (const m of lineText.matchAll(re)) {
    cp += characterToModelColumn(lineText.slice(unit, m.index), m.index - unit) - 1;
    const end = m.index + m[0].length;
    const len = characterToModelColumn(m[0], m[0].length) - 1;
    yield { start: cp, end: cp + len, text: m[0] };
    cp += len;
    unit = end;
  }
}

/** The code point at 0-based code point index `index` of `text`, or undefined past its end. */
function codePointAt(text: string, index: number): string | undefined {
  let k = 0;
  for (const c of text) if (k++ === index) return c;
  return undefined;
}
