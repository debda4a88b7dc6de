/**
 * Ranges as providers hand them over: LSP `Range` objects and `vscode.Range`s both have
 * `start`/`end` with 0-based `line` and 0-based UTF-16 `character`. Plain Node, no `vscode` import.
 */
import type { Range } from './types';

/** Anything with LSP-shaped `start` and `end` positions. */
export interface RangeLike {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** True when `r` has numeric `start`/`end` `line` and `character` (an LSP or VS Code range). */
export function isRange(r: unknown): r is RangeLike {
  const x = r as RangeLike | null | undefined;
  return (
    !!x &&
    typeof x.start?.line === 'number' &&
    typeof x.start?.character === 'number' &&
    typeof x.end?.line === 'number' &&
    typeof x.end?.character === 'number'
  );
}

/** A plain copy of a range-like object (no class instance, no extra fields). */
export function plainRange(r: RangeLike): Range {
  return { start: { line: r.start.line, character: r.start.character }, end: { line: r.end.line, character: r.end.character } };
}
