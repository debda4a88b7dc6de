/**
 * What the model sees of symbols, diagnostics and call hierarchy answers (plain Node): paths
 * placed by the same rule as `dsh_lsp` (`placeUri`), LSP ranges converted to 1-based lines and
 * character columns with `characterToModelColumn` (the one converter), paging and summaries as
 * `dsh_lsp` shows them (`summarize`), hits under `node_modules` or outside the workspace folded
 * into counts when the workspace has hits of its own.
 * One concept in one file (over 400 lines): what the model sees of a feature answer.
 */
import { characterToModelColumn, modelColumnToCharacter } from '../position';
import { anchorToSymbol } from '../symbolAnchor';
import { capList, capNames, CappedPage, checkPage, CollapsedGroup, FileCount, shapePage } from '../pageSummary';
import { textHead } from '../../common/textHead';
import { formatBytes } from '../../common/toolResultCap';
import { PlacedPath, placeUri } from '../placeUri';
import { preview } from '../previewLine';
import type { Range } from '../types';
import { uriKey } from '../uri';
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import type { CallItem, DiagnosticItem, Severity, SymbolItem, SymbolKindName } from './types';
import { SEVERITIES } from './types';

/**
 * Most UTF-16 code units of a name a source gave, as an answer shows it (a symbol's `name` and
 * `containerName`, a call item's `name`, `otherItems`, a diagnostic's `source` and `code`); a
 * longer one is cut, ending in `…`, and its entry flagged `cut`.
 */
export const NAME_MAX_UNITS = 200;
/** Most UTF-16 code units of a `detail` (symbols, call items) as an answer shows it; then as {@link NAME_MAX_UNITS}. */
export const DETAIL_MAX_UNITS = 400;
/** Most UTF-16 code units of a diagnostic's `message` as an answer shows it; then as {@link NAME_MAX_UNITS}. */
export const DIAGNOSTIC_MESSAGE_MAX_UNITS = 4000;

/** Reads a document's lines (split by `splitLines`; for a very big document only its first lines, see `headLines`), `undefined` when unreadable. */
export type ReadLines = (uri: string) => Promise<readonly string[] | undefined>;

/** A range as the model sees it: 1-based lines, 1-based character columns, `endColumn` exclusive. */
export interface ModelRange {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

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

/** Paging fields every answer has (as in `dsh_lsp`): one capped page, shaped by `shapePage` (`../pageSummary.ts`). */
export type Paged = CappedPage;

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

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

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
  const cut = name !== s.name || (detail !== undefined && detail !== s.detail) || (containerName !== undefined && containerName !== s.containerName);
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
 * Hits under `node_modules` or outside the workspace folded into counts (per path, in the given
 * order) when the workspace has hits of its own; else every hit is listed. Yields through `slice`
 * every few ms.
 */
async function foldSliced<T extends { place: PlacedPath }>(placed: readonly T[], slice: TimeSlice, signal?: AbortSignal): Promise<{ listed: T[]; collapsed: { nodeModules?: CollapsedGroup; external?: CollapsedGroup } }> {
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
async function countByPathSliced(items: ReadonlyArray<{ place: PlacedPath }>, slice: TimeSlice, signal?: AbortSignal): Promise<FileCount[]> {
  const counts = new Map<string, number>();
  for (const { place } of items) {
    await slice.pause(signal);
    counts.set(place.path, (counts.get(place.path) ?? 0) + 1);
  }
  return [...counts.entries()].map(([path, count]) => ({ path, count }));
}

/**
 * Shape workspace symbols: duplicates (same name, kind and range in the same file) removed, ranked
 * by `score` (higher first; then workspace before `node_modules` before outside, path, line),
 * folded and paged.
 * @param scored the symbols with their match score (`./match.ts`).
 * @throws RangeError for a bad `offset` / `limit` (the tool validates first); LspError `cancelled`
 *   when `options.signal` aborts (checked at each pause that yields).
 */
export async function shapeWorkspaceSymbols(scored: ReadonlyArray<{ symbol: SymbolItem; score: number }>, options: PresentOptions): Promise<ShapedSymbols> {
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
  const { page, paging } = shapePage({ listed, offset: options.offset, limit: options.limit, files, collapsed, seeMore: 'page with offset, or narrow the query or kinds' });
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
export async function keepKinds(items: readonly SymbolItem[], kinds: readonly SymbolKindName[] | undefined, slice = new TimeSlice(), signal?: AbortSignal): Promise<SymbolItem[]> {
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
  const byStart = (a: SymbolItem, b: SymbolItem) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
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

/** A diagnostic as the model sees it. */
export interface ShownDiagnostic extends ModelRange {
  readonly path: string;
  readonly severity: Severity;
  /** At most {@link DIAGNOSTIC_MESSAGE_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly message: string;
  /** At most {@link NAME_MAX_UNITS} UTF-16 code units (then `…`, and `cut`); so is `code`. */
  readonly source?: string;
  readonly code?: string;
  /** `message`, `source` or `code` was longer than its bound and is cut (it ends in `…`). */
  readonly cut?: true;
}

/** Per-file counts of diagnostics: `count` and the number of each severity present. */
export interface DiagnosticFileCount {
  readonly path: string;
  readonly count: number;
  readonly error?: number;
  readonly warning?: number;
  readonly information?: number;
  readonly hint?: number;
}

/** A page of diagnostics, errors first. */
export interface ShapedDiagnostics extends CappedPage<DiagnosticFileCount> {
  /** Counts of the listed diagnostics by severity (every file, listed in `files` or not). */
  readonly counts: Readonly<Record<Severity, number>>;
  /** Per-file counts in listing order, bounded (the rest counted in `moreFiles`). */
  readonly files: readonly DiagnosticFileCount[];
  readonly diagnostics: readonly ShownDiagnostic[];
}

/**
 * Shape diagnostics: those less severe than `minSeverity` dropped, duplicates (same file, range,
 * severity, message) removed, sorted by severity (errors first), path, line and column (ties in
 * the given order), folded and paged; `counts` and `files` count every listed diagnostic. A
 * workspace's diagnostics may number hundreds of thousands (a linter on a big repository): every
 * pass over them yields every few ms and each file is placed once, then only the page is shown.
 * @throws RangeError for a bad `offset` / `limit` (the tool validates first); LspError `cancelled`
 *   when `options.signal` aborts (checked at each pause that yields).
 */
export async function shapeDiagnostics(items: readonly DiagnosticItem[], options: PresentOptions & { minSeverity?: Severity }): Promise<ShapedDiagnostics> {
  checkPage(options.offset, options.limit);
  const slice = new TimeSlice();
  const signal = options.signal;
  const maxRank = SEVERITIES.indexOf(options.minSeverity ?? 'hint');
  const seen = new Set<string>();
  const files = new Map<string, { key: string; place: PlacedPath }>();
  const placed: Array<{ d: DiagnosticItem; place: PlacedPath; rank: number }> = [];
  for (const d of items) {
    await slice.pause(signal);
    const rank = SEVERITIES.indexOf(d.severity);
    if (rank > maxRank) continue;
    let file = files.get(d.uri);
    if (!file) files.set(d.uri, (file = { key: uriKey(d.uri), place: placeUri(options.roots, d.uri) }));
    const r = d.range;
    const k = `${file.key}#${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}#${d.severity}#${d.message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    placed.push({ d, place: file.place, rank });
  }
  const sorted = await slicedSort(
    placed,
    (a, b) =>
      a.rank - b.rank ||
      (a.place.path < b.place.path ? -1 : a.place.path > b.place.path ? 1 : 0) ||
      a.d.range.start.line - b.d.range.start.line ||
      a.d.range.start.character - b.d.range.start.character,
    slice,
    signal,
  );
  const { listed, collapsed } = await foldSliced(sorted, slice, signal);
  const counts = { error: 0, warning: 0, information: 0, hint: 0 };
  const perFile = new Map<string, { path: string; count: number } & Partial<Record<Severity, number>>>();
  for (const { d, place } of listed) {
    await slice.pause(signal);
    counts[d.severity]++;
    const f = perFile.get(place.path) ?? { path: place.path, count: 0 };
    f.count++;
    f[d.severity] = (f[d.severity] ?? 0) + 1;
    perFile.set(place.path, f);
  }
  const { page, paging } = shapePage({
    listed,
    offset: options.offset,
    limit: options.limit,
    files: [...perFile.values()],
    collapsed,
    seeMore: "page with offset (errors first, then by path), or pass filePath for one file's problems",
  });
  const lines = cachedLines(options.readLines);
  const diagnostics = await Promise.all(
    page.map(async ({ d, place }): Promise<ShownDiagnostic> => {
      const message = textHead(d.message, DIAGNOSTIC_MESSAGE_MAX_UNITS);
      const source = d.source ? textHead(d.source, NAME_MAX_UNITS) : undefined;
      const code = d.code !== undefined ? textHead(d.code, NAME_MAX_UNITS) : undefined;
      const cut = message !== d.message || source !== (d.source || undefined) || code !== d.code;
      return {
        path: place.path,
        ...toModelRange(d.range, await lines(d.uri)),
        severity: d.severity,
        message,
        ...(source ? { source } : {}),
        ...(code !== undefined ? { code } : {}),
        ...(cut ? { cut: true as const } : {}),
      };
    }),
  );
  const bySeverity = SEVERITIES.filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s}${counts[s] === 1 || s === 'information' ? '' : 's'}`);
  const base = paging.summary;
  return {
    ...paging,
    summary: listed.length === 0 ? base.replace(/^no results/, 'no problems') : `${base} (${bySeverity.join(', ')})`,
    counts,
    files: paging.files ?? [],
    diagnostics,
  };
}

/** Most names of the other items a position prepared to that an answer lists (`otherItems`). */
export const MAX_OTHER_ITEMS = 10;
/** Most bytes of the JSON of `otherItems` (UTF-8). */
export const MAX_OTHER_ITEMS_BYTES = 4 * 1024;

/** A call hierarchy node as the model sees it. */
export interface ShownCall extends ModelRange {
  /** The item's name, at most {@link NAME_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly name: string;
  readonly kind: string;
  /** At most {@link DETAIL_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly detail?: string;
  /** `name` or `detail` was longer than its bound and is cut (it ends in `…`). */
  readonly cut?: true;
  readonly path: string;
  readonly external?: true;
  readonly nodeModules?: true;
  /** Where the calls are: in the caller (incoming) or in the parent item (outgoing); at most {@link MAX_CALL_SITES}. */
  readonly callSites?: ReadonlyArray<ModelRange & { readonly path: string; readonly preview: string }>;
  /** Call sites the source gave beyond {@link callSites} (not listed). */
  readonly moreCallSites?: number;
  /** Already listed higher up this path (a recursion): not expanded again. */
  readonly cycle?: true;
  /** Already expanded elsewhere in this answer: not expanded again. */
  readonly seenAbove?: true;
  /** Not expanded: the depth bound was reached. */
  readonly depthLimit?: true;
  /** Not expanded: the answer's item bound was reached before it (its calls were not asked for). */
  readonly capLimit?: true;
  readonly calls?: readonly ShownCall[];
  /** Calls the source gave beyond {@link calls} (not listed: the per-item bound, the answer's item bound or the byte cap). */
  readonly moreCalls?: number;
}

/** An item with the edges walked from it (see `./callHierarchy.ts`). */
export interface CallTreeNode {
  readonly item: CallItem;
  readonly sites?: { readonly uri: string; readonly ranges: readonly Range[] };
  readonly cycle?: boolean;
  readonly seenAbove?: boolean;
  readonly depthLimit?: boolean;
  /** Not expanded because the walk's item bound was reached. */
  readonly capLimit?: boolean;
  readonly calls?: readonly CallTreeNode[];
  /** Edges the source answered beyond `calls`, not listed. */
  readonly moreCalls?: number;
}

/** Most call sites listed per call (the rest counted in `moreCallSites`). */
export const MAX_CALL_SITES = 20;

/**
 * Convert a walked call tree for the model (paths placed, positions 1-based; call-site previews
 * from the lines). The walk bounds the items; a caller may call an item at any number of places:
 * the first {@link MAX_CALL_SITES} are shown, the rest counted in `moreCallSites`. Names and
 * details longer than {@link NAME_MAX_UNITS} / {@link DETAIL_MAX_UNITS} are cut (the
 * item flagged `cut`). The conversion
 * yields every few ms, a step per item and per call site.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function shapeCallTree(node: CallTreeNode, roots: readonly string[], readLines: ReadLines, signal?: AbortSignal): Promise<ShownCall> {
  const lines = cachedLines(readLines);
  const slice = new TimeSlice();
  const show = async (n: CallTreeNode): Promise<ShownCall> => {
    await slice.pause(signal);
    const place = placeUri(roots, n.item.uri);
    const itemLines = await lines(n.item.uri);
    const siteLines = n.sites ? await lines(n.sites.uri) : undefined;
    const sitePath = n.sites ? placeUri(roots, n.sites.uri).path : '';
    let callSites: Array<ModelRange & { path: string; preview: string }> | undefined;
    if (n.sites) {
      callSites = [];
      for (const r of n.sites.ranges.slice(0, MAX_CALL_SITES)) {
        await slice.pause(signal);
        const text = siteLines?.[r.start.line];
        callSites.push({ path: sitePath, ...toModelRange(r, siteLines), preview: text !== undefined ? preview(text) : '' });
      }
    }
    const name = textHead(n.item.name, NAME_MAX_UNITS);
    const detail = n.item.detail ? textHead(n.item.detail, DETAIL_MAX_UNITS) : undefined;
    return {
      name,
      kind: n.item.kind,
      ...(detail ? { detail } : {}),
      ...(name !== n.item.name || (detail !== undefined && detail !== n.item.detail) ? { cut: true as const } : {}),
      path: place.path,
      ...toModelRange(n.item.selectionRange, itemLines),
      ...(place.where === 'external' ? { external: true as const } : {}),
      ...(place.where === 'nodeModules' ? { nodeModules: true as const } : {}),
      ...(callSites ? { callSites } : {}),
      ...(n.sites && n.sites.ranges.length > MAX_CALL_SITES ? { moreCallSites: n.sites.ranges.length - MAX_CALL_SITES } : {}),
      ...(n.cycle ? { cycle: true as const } : {}),
      ...(n.seenAbove ? { seenAbove: true as const } : {}),
      ...(n.depthLimit ? { depthLimit: true as const } : {}),
      ...(n.capLimit ? { capLimit: true as const } : {}),
      ...(n.calls ? { calls: await Promise.all(n.calls.map(show)) } : {}),
      ...(n.moreCalls ? { moreCalls: n.moreCalls } : {}),
    };
  };
  return show(node);
}

/** Options of {@link shapeCallAnswer}. */
export interface CallAnswerOptions {
  readonly direction: 'incoming' | 'outgoing';
  /** The depth the walk was asked for (1..5). */
  readonly depth: number;
  /** Workspace roots (URI strings), as {@link PresentOptions.roots}. */
  readonly roots: readonly string[];
  readonly readLines: ReadLines;
  /**
   * Most bytes of the whole answer's JSON (UTF-8), `head` and `otherItems` included: the tool
   * result cap, named in `note` when the tree was cut to fit it.
   */
  readonly maxBytes: number;
  /** The other items the position prepared to, besides the walked one: their names are listed in `otherItems`, bounded. */
  readonly otherItems?: readonly CallItem[];
  readonly signal?: AbortSignal;
}

/** A call hierarchy answer within its bounds (see {@link shapeCallAnswer}). */
export interface ShapedCallAnswer {
  /** E.g. `"300 direct callers of leaf; 100 listed; 120 items within depth 2"`. */
  readonly summary: string;
  /** Items listed, the root included. */
  readonly nodes: number;
  /** True when a bound left calls out or items unexpanded (see `note`). */
  readonly truncated: boolean;
  /**
   * Names of the other items the position prepared to (not walked), at most
   * {@link MAX_OTHER_ITEMS} names and {@link MAX_OTHER_ITEMS_BYTES} of JSON, each at most
   * {@link NAME_MAX_UNITS} UTF-16 code units (then `…`); absent when there are none.
   */
  readonly otherItems?: readonly string[];
  /** Other items left out of `otherItems` by its bounds. */
  readonly moreOtherItems?: number;
  /** A name in `otherItems` was cut (it ends in `…`). */
  readonly otherItemsCut?: true;
  /** Present when something was left out: which bound, what is counted where, how to see more. */
  readonly note?: string;
  readonly root: ShownCall;
}

/** Whether `test` holds for `node` or any call below it. */
function anyNode(node: ShownCall, test: (n: ShownCall) => boolean): boolean {
  return test(node) || (node.calls ?? []).some((c) => anyNode(c, test));
}

/**
 * The call hierarchy answer the model sees, within `maxBytes` of JSON: `head` (the caller's own
 * fields: file, position, …) first, then the walked tree shaped ({@link shapeCallTree}) and the
 * other prepared items' names (bounded, see {@link ShapedCallAnswer.otherItems}); when it is
 * larger, only the first level (deeper calls dropped, each call flagged `depthLimit`), and when
 * that is still larger, its calls cut to fit, the cut ones counted in the root's `moreCalls`.
 * Every bound that left something out is named in `note`. Only a `head` and root item that alone
 * take more than `maxBytes` make a larger answer.
 * @throws LspError `cancelled` when `signal` aborts.
 */
export async function shapeCallAnswer<H extends object = Record<never, never>>(
  walked: { root: CallTreeNode; nodes: number; truncated: boolean; maxNodes: number; maxCallsPerItem: number },
  options: CallAnswerOptions & { readonly head?: H },
): Promise<H & ShapedCallAnswer> {
  let root = await shapeCallTree(walked.root, options.roots, options.readLines, options.signal);
  const notes: string[] = [];
  let nodes = walked.nodes;
  let truncated = walked.truncated;
  const otherNames = (options.otherItems ?? []).slice(0, MAX_OTHER_ITEMS).map((x) => x.name);
  const others = capNames(otherNames, MAX_OTHER_ITEMS, NAME_MAX_UNITS, MAX_OTHER_ITEMS_BYTES);
  const otherCount = options.otherItems?.length ?? 0;
  const moreOthers = otherCount - others.listed.length;
  const otherFields =
    otherCount > 0
      ? { otherItems: others.listed, ...(moreOthers > 0 ? { moreOtherItems: moreOthers } : {}), ...(others.cut ? { otherItemsCut: true as const } : {}) }
      : {};
  if (moreOthers > 0) notes.push(`the position is also on ${otherCount} other items: otherItems lists ${others.listed.length} of ${otherCount} (${moreOthers} more counted in moreOtherItems)`);
  if (others.cut) notes.push(`names in otherItems longer than ${NAME_MAX_UNITS} UTF-16 code units are cut, ending in …`);
  if (anyNode(root, (n) => !!n.cut)) notes.push(`items with cut: true have a name longer than ${NAME_MAX_UNITS} or a detail longer than ${DETAIL_MAX_UNITS} UTF-16 code units, cut and ending in …`);
  const build = (): H & ShapedCallAnswer => {
    const direct = (root.calls?.length ?? 0) + (root.moreCalls ?? 0);
    const listed = root.calls?.length ?? 0;
    const what = options.direction === 'incoming' ? (direct === 1 ? 'caller' : 'callers') : direct === 1 ? 'callee' : 'callees';
    const summary = `${direct} direct ${what} of ${root.name}${listed < direct ? `; ${listed} listed` : ''}; ${nodes - 1} item${nodes === 2 ? '' : 's'} within depth ${options.depth}${walked.truncated ? ` (truncated at ${walked.maxNodes} items)` : ''}`;
    return { ...(options.head as H), summary, nodes, truncated, ...otherFields, ...(notes.length > 0 ? { note: notes.join('; ') } : {}), root };
  };
  if (anyNode(root, (n) => !!n.moreCalls)) notes.push(`calls beyond ${walked.truncated ? `the answer's bound of ${walked.maxNodes} items or ` : ''}${walked.maxCallsPerItem} per item are counted in moreCalls, not listed: ask again from one of the listed items, or with a smaller depth`);
  if (walked.truncated) notes.push(`items past the bound of ${walked.maxNodes} items are flagged capLimit: their calls were not asked for`);
  if (anyNode(root, (n) => !!n.moreCallSites)) notes.push(`at most ${MAX_CALL_SITES} call sites are listed per call, the rest counted in moreCallSites: dsh_lsp findReferences lists every one`);
  let answer = build();
  if (Buffer.byteLength(JSON.stringify(answer)) <= options.maxBytes) return answer;
  const cap = formatBytes(options.maxBytes);
  const calls = (root.calls ?? []).map((c) => ({ ...c, calls: undefined, moreCalls: undefined, ...(c.calls !== undefined || c.capLimit ? { depthLimit: true as const, capLimit: undefined } : {}) }));
  root = { ...root, calls };
  nodes = 1 + calls.length;
  truncated = true;
  notes.push(`the answer was larger than the ${cap} tool result cap: only the first level is shown; ask again from a caller or callee`);
  answer = build();
  if (Buffer.byteLength(JSON.stringify(answer)) <= options.maxBytes) return answer;
  // Still too large: as many first-level calls as fit, the rest counted.
  const overhead = Buffer.byteLength(JSON.stringify({ ...answer, root: { ...root, calls: [], moreCalls: calls.length } })) + 200;
  const fit = capList(calls, calls.length, Math.max(0, options.maxBytes - overhead));
  root = { ...root, calls: fit.listed, moreCalls: (root.moreCalls ?? 0) + fit.more };
  nodes = 1 + fit.listed.length;
  notes[notes.length - 1] = `the answer was larger than the ${cap} tool result cap: only the first level is shown, and of it the first ${fit.listed.length} calls (${fit.more} more counted in moreCalls); ask again from a caller or callee`;
  return build();
}
