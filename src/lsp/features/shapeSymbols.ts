/**
 * What the model sees of symbol answers (plain Node): a workspace symbol search and a document's
 * outline, as `dsh_symbols` shows them. Paths are placed by the same rule as `dsh_lsp`
 * (`placeUri`); a symbol's position is where its name starts, found on its line when the source
 * gave one range for the whole declaration; names and details bounded, pages and folding as
 * `./present.ts` shapes them.
 */
import { characterToModelColumn, modelColumnToCharacter } from '../position';
import { anchorToSymbol } from '../symbolAnchor';
import { checkPage, FileCount, shapePage } from '../pageSummary';
import { textHead } from '../../common/textHead';
import { PlacedPath, placeUri } from '../placeUri';
import type { Range } from '../types';
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import {
  cachedLines,
  countByPathSliced,
  DETAIL_MAX_UNITS,
  foldSliced,
  ModelRange,
  NAME_MAX_UNITS,
  Paged,
  PresentOptions,
  ReadLines,
  toModelRange,
} from './present';
import type { SymbolItem, SymbolKindName } from './types';

/**
 * A symbol as the model sees it. `line`/`column` is where its name starts (feed it to `dsh_lsp`);
 * `endLine`/`endColumn` where its declaration ends (exclusive). Outline entries carry `children`.
 */
export interface ShownSymbol extends ModelRange {
  /** At most {@link NAME_MAX_UNITS} UTF-16 code units (then `…`, and `cut`); so is `containerName`. */
  readonly name: string;
  readonly kind: string;
  /** At most {@link DETAIL_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly detail?: string;
  readonly containerName?: string;
  /** `name`, `detail` or `containerName` was longer than its bound and is cut (it ends in `…`). */
  readonly cut?: true;
  readonly path: string;
  readonly external?: true;
  readonly nodeModules?: true;
  readonly children?: readonly ShownSymbol[];
}

/** Workspace symbols: a flat page, best matches first. */
export interface ShapedSymbols extends Paged {
  /** Per-file counts in listing order, bounded (the rest counted in `moreFiles`). */
  readonly files: readonly FileCount[];
  readonly symbols: readonly ShownSymbol[];
}

/** A file's outline: a page of its symbols in document order (pre-order), as a tree. */
export interface ShapedOutline extends Paged {
  readonly outline: readonly ShownSymbol[];
}

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

/**
 * The name's start to the declaration's end (see {@link ShownSymbol}); the name's range when it
 * lies outside. A source that gives one range for the whole declaration (`SymbolInformation`):
 * the name is looked up on the declaration's first line, from its start, as a whole identifier.
 */
function symbolRange(s: SymbolItem, lines: readonly string[] | undefined): Range {
  let sel = s.selectionRange;
  const text = lines?.[sel.start.line];
  const empty = sel.start.line === sel.end.line && sel.start.character === sel.end.character;
  if (sameRange(sel, s.range) && !empty && text !== undefined) {
    const from = characterToModelColumn(text, sel.start.character);
    try {
      const { occurrences } = anchorToSymbol(text, from, s.name);
      const column = occurrences.find((c) => c >= from);
      if (column !== undefined) {
        const start = modelColumnToCharacter(text, column).character;
        sel = { start: { line: sel.start.line, character: start }, end: { line: sel.start.line, character: start + s.name.length } };
      }
    } catch {
      // the name is not written on that line (a computed or synthesized name): keep the range
    }
  }
  const endsAfter = s.range.end.line > sel.end.line || (s.range.end.line === sel.end.line && s.range.end.character >= sel.end.character);
  return { start: sel.start, end: endsAfter ? s.range.end : sel.end };
}

async function showSymbol(s: SymbolItem, place: PlacedPath, lines: ReadLines, children?: ShownSymbol[]): Promise<ShownSymbol> {
  const name = textHead(s.name, NAME_MAX_UNITS);
  const detail = s.detail ? textHead(s.detail, DETAIL_MAX_UNITS) : undefined;
  const containerName = s.containerName ? textHead(s.containerName, NAME_MAX_UNITS) : undefined;
  const cut =
    name !== s.name || (detail !== undefined && detail !== s.detail) || (containerName !== undefined && containerName !== s.containerName);
  return {
    name,
    kind: s.kind,
    ...(detail ? { detail } : {}),
    ...(containerName ? { containerName } : {}),
    ...(cut ? { cut: true as const } : {}),
    path: place.path,
    ...(await (async () => {
      const l = await lines(s.uri);
      return toModelRange(symbolRange(s, l), l);
    })()),
    ...(place.where === 'external' ? { external: true as const } : {}),
    ...(place.where === 'nodeModules' ? { nodeModules: true as const } : {}),
    ...(children && children.length > 0 ? { children } : {}),
  };
}

/**
 * Shape workspace symbols: duplicates (same name, kind and range in the same file) removed, ranked
 * by `score` (higher first; then workspace before `node_modules` before outside, path, line),
 * folded and paged.
 * @param scored the symbols with their match score (`./match.ts`).
 * @throws RangeError for a bad `offset` / `limit` (the tool validates first); LspError `cancelled`
 *   when `options.signal` aborts (checked at each pause that yields).
 */
export async function shapeWorkspaceSymbols(
  scored: ReadonlyArray<{ symbol: SymbolItem; score: number }>,
  options: PresentOptions,
): Promise<ShapedSymbols> {
  checkPage(options.offset, options.limit);
  // A search over a big workspace gives tens of thousands of symbols: every loop over them yields
  // every few ms, and each file is placed once (not once per symbol).
  const slice = new TimeSlice();
  const seen = new Set<string>();
  const rank = { workspace: 0, nodeModules: 1, external: 2 } as const;
  const places = new Map<string, PlacedPath>();
  const placed: Array<{ symbol: SymbolItem; score: number; place: PlacedPath; rank: number }> = [];
  for (const x of scored) {
    await slice.pause(options.signal);
    const s = x.symbol;
    let place = places.get(s.uri);
    if (!place) places.set(s.uri, (place = placeUri(options.roots, s.uri)));
    const k = `${place.where}\u0000${place.path}#${s.name}#${s.kind}#${s.selectionRange.start.line}:${s.selectionRange.start.character}`;
    if (seen.has(k)) continue;
    seen.add(k);
    placed.push({ ...x, place, rank: rank[place.where] });
  }
  const sorted = await slicedSort(
    placed,
    (a, b) =>
      b.score - a.score ||
      a.rank - b.rank ||
      (a.place.path < b.place.path ? -1 : a.place.path > b.place.path ? 1 : 0) ||
      a.symbol.selectionRange.start.line - b.symbol.selectionRange.start.line,
    slice,
    options.signal,
  );
  const { listed, collapsed } = await foldSliced(sorted, slice, options.signal);
  const files = await countByPathSliced(listed, slice, options.signal);
  const { page, paging } = shapePage({
    listed,
    offset: options.offset,
    limit: options.limit,
    files,
    collapsed,
    seeMore: 'page with offset, or narrow the query or kinds',
  });
  const lines = cachedLines(options.readLines);
  const symbols = await Promise.all(page.map((p) => showSymbol(p.symbol, p.place, lines)));
  return { ...paging, files: paging.files ?? [], symbols };
}

/**
 * The symbols of the given kinds (`kinds` undefined: all of them, a new array of the same items): a
 * symbol of another kind is dropped and its kept descendants take its place; a kept symbol is a
 * copy whose `children` are its kept descendants (`children: undefined` when none is kept). Yields
 * through `slice` every few ms, a step per symbol at any depth (an outline may hold a million).
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function keepKinds(
  items: readonly SymbolItem[],
  kinds: readonly SymbolKindName[] | undefined,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<SymbolItem[]> {
  if (!kinds) return [...items];
  const out: SymbolItem[] = [];
  for (const s of items) {
    await slice.pause(signal);
    const children = s.children ? await keepKinds(s.children, kinds, slice, signal) : undefined;
    if (kinds.includes(s.kind)) out.push({ ...s, ...(children && children.length > 0 ? { children } : { children: undefined }) });
    else if (children) {
      for (const c of children) {
        await slice.pause(signal);
        out.push(c);
      }
    }
  }
  return out;
}

/**
 * Shape a document's outline: symbols in document order (by start line, then character; ties keep
 * the source's order), flattened pre-order for paging; the page is rebuilt as a tree (an entry
 * whose parent is on another page is a root of this page, with the parent's name as
 * `containerName` unless it has one). `total` counts every symbol at every depth. The flattening
 * yields every few ms (a source decides how many symbols an outline has: a million is a few
 * seconds of work in slices), then only the page's entries are shown.
 * @throws RangeError for a bad `offset` / `limit` (the tool validates first); LspError `cancelled`
 *   when `options.signal` aborts (checked at each pause that yields).
 */
export async function shapeOutline(tree: readonly SymbolItem[], options: PresentOptions): Promise<ShapedOutline> {
  checkPage(options.offset, options.limit);
  const slice = new TimeSlice();
  const signal = options.signal;
  const flat: Array<{ item: SymbolItem; parent: number }> = [];
  const byStart = (a: SymbolItem, b: SymbolItem) =>
    a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
  // Each call awaits before it goes deeper, so the native stack stays shallow at any depth.
  const visit = async (items: readonly SymbolItem[], parent: number): Promise<void> => {
    const sorted = items.length > 1 ? await slicedSort(items, byStart, slice, signal) : items;
    for (const item of sorted) {
      await slice.pause(signal);
      const me = flat.length;
      flat.push({ item, parent });
      if (item.children) await visit(item.children, me);
    }
  };
  await visit(tree, -1);
  const from = options.offset;
  const to = Math.min(flat.length, from + options.limit);
  const lines = cachedLines(options.readLines);
  const kids = new Map<number, ShownSymbol[]>();
  const roots: ShownSymbol[] = [];
  for (let i = to - 1; i >= from; i--) {
    const { item, parent } = flat[i]!;
    const withContainer = parent >= 0 && parent < from && !item.containerName ? { ...item, containerName: flat[parent]!.item.name } : item;
    const shown = await showSymbol(withContainer, placeUri(options.roots, item.uri), lines, kids.get(i)?.reverse());
    if (parent >= from) {
      const list = kids.get(parent) ?? [];
      list.push(shown);
      kids.set(parent, list);
    } else roots.push(shown);
  }
  roots.reverse();
  const { paging } = shapePage({ listed: flat, offset: from, limit: options.limit, seeMore: 'page with offset' });
  return { ...paging, outline: roots };
}
