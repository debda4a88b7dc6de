/**
 * What every feature answer shares as the model sees it (plain Node): LSP ranges converted to
 * 1-based lines and character columns with `characterToModelColumn` (the one converter), a
 * document's lines read once per answer, the bounds of names a source gave, the paging fields and
 * options as `dsh_lsp` shows them (`summarize`), and hits under `node_modules` or outside the
 * workspace folded into counts when the workspace has hits of its own. The answers themselves:
 * `./shapeSymbols.ts`, `./shapeDiagnostics.ts`, `./shapeCalls.ts`.
 */
import { characterToModelColumn } from '../position';
import type { CappedPage, CollapsedGroup, FileCount } from '../pageSummary';
import type { PlacedPath } from '../placeUri';
import type { Range } from '../types';
import { uriKey } from '../uri';
import type { TimeSlice } from '../timeSlice';

/**
 * Most UTF-16 code units of a name a source gave, as an answer shows it (a symbol's `name` and
 * `containerName`, a call item's `name`, `otherItems`, a diagnostic's `source` and `code`); a
 * longer one is cut, ending in `…`, and its entry flagged `cut`.
 */
export const NAME_MAX_UNITS = 200;
/** Most UTF-16 code units of a `detail` (symbols, call items) as an answer shows it; then as {@link NAME_MAX_UNITS}. */
export const DETAIL_MAX_UNITS = 400;

/** Reads a document's lines (split by `splitLines`; for a very big document only its first lines, see `headLines`), `undefined` when unreadable. */
export type ReadLines = (uri: string) => Promise<readonly string[] | undefined>;

/** A range as the model sees it: 1-based lines, 1-based character columns, `endColumn` exclusive. */
export interface ModelRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** Paging fields every answer has (as in `dsh_lsp`): one capped page, shaped by `shapePage` (`../pageSummary.ts`). */
export type Paged = CappedPage;

/** Options shared by the shapers. */
export interface PresentOptions {
  /** Workspace roots (URI strings): the resolved (real-path) folder first, then folders as opened. */
  readonly roots: readonly string[];
  readonly offset: number;
  readonly limit: number;
  readonly readLines: ReadLines;
  /** Aborts the shaping (`LspError` `cancelled`, checked where a long pass yields). */
  readonly signal?: AbortSignal;
}

/** A cache around `readLines`: each URI is read once per answer. */
export function cachedLines(readLines: ReadLines): ReadLines {
  const cache = new Map<string, Promise<readonly string[] | undefined>>();
  return (uri) => {
    const k = uriKey(uri);
    let p = cache.get(k);
    if (!p) cache.set(k, (p = readLines(uri).catch(() => undefined)));
    return p;
  };
}

/** An LSP range -> {@link ModelRange}; without the document's lines a column is the UTF-16 character + 1. */
export function toModelRange(range: Range, lines: readonly string[] | undefined): ModelRange {
  const col = (line: number, character: number) => {
    const text = lines?.[line];
    return text === undefined ? character + 1 : characterToModelColumn(text, character);
  };
  return {
    line: range.start.line + 1,
    column: col(range.start.line, range.start.character),
    endLine: range.end.line + 1,
    endColumn: col(range.end.line, range.end.character),
  };
}

/**
 * Hits under `node_modules` or outside the workspace folded into counts (per path, in the given
 * order) when the workspace has hits of its own; else every hit is listed. Yields through `slice`
 * every few ms.
 */
export async function foldSliced<T extends { place: PlacedPath }>(
  placed: readonly T[],
  slice: TimeSlice,
  signal?: AbortSignal,
): Promise<{ listed: T[]; collapsed: { nodeModules?: CollapsedGroup; external?: CollapsedGroup } }> {
  const listed: T[] = [];
  const groups = { nodeModules: [] as T[], external: [] as T[] };
  for (const p of placed) {
    await slice.pause(signal);
    if (p.place.where === 'workspace') listed.push(p);
    else groups[p.place.where].push(p);
  }
  if (listed.length === 0) return { listed: [...placed], collapsed: {} };
  const collapsed: { nodeModules?: CollapsedGroup; external?: CollapsedGroup } = {};
  for (const where of ['nodeModules', 'external'] as const) {
    const group = groups[where];
    if (group.length > 0) collapsed[where] = { count: group.length, files: await countByPathSliced(group, slice, signal) };
  }
  return { listed, collapsed };
}

/** How many items each path has, in the order paths first appear, yielding through `slice` every few ms. */
export async function countByPathSliced(
  items: ReadonlyArray<{ place: PlacedPath }>,
  slice: TimeSlice,
  signal?: AbortSignal,
): Promise<FileCount[]> {
  const counts = new Map<string, number>();
  for (const { place } of items) {
    await slice.pause(signal);
    counts.set(place.path, (counts.get(place.path) ?? 0) + 1);
  }
  return [...counts.entries()].map(([path, count]) => ({ path, count }));
}
