/**
 * The one conversion of symbol, diagnostic and call hierarchy answers into the feature shapes
 * (plain Node), shared by the VS Code source and configured stdio servers. Shapes are told apart by
 * their fields, never `instanceof` (objects may come from another copy of the API):
 * - `DocumentSymbol` `{name, kind, range, selectionRange, detail?, children?}`;
 * - `SymbolInformation` / `WorkspaceSymbol` `{name, kind, location: {uri, range?}, containerName?}`
 *   (VS Code's `executeDocumentSymbolProvider` answers objects with both sets of fields);
 * - `Diagnostic` `{range, severity, message, source?, code?}` (`code` a string, a number or
 *   `{value, target}`);
 * - `CallHierarchyItem` and LSP's incoming / outgoing calls (`from`/`to` with `fromRanges`).
 * URIs are strings (LSP) or objects whose `toString()` is the URI (`vscode.Uri`). Kinds and
 * severities are numbers counted from `base`: 1 in LSP, 0 in `vscode.SymbolKind` /
 * `vscode.DiagnosticSeverity`.
 */
import type { Range } from '../types';
import { uriText } from '../locations';
import { isRange, plainRange } from '../rangeLike';
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import { CallEdge, CallItem, DiagnosticItem, SEVERITIES, Severity, SymbolItem, symbolKindName } from './types';

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * Symbols of any shape -> {@link SymbolItem}s. `documentUri` is the URI of `DocumentSymbol`s (which
 * carry none). A flat `SymbolInformation` outline stays flat (see {@link nestByRange}). Items with
 * neither shape are skipped. A source decides how many symbols it answers (an outline may hold a
 * million): the walk yields through `slice` every few ms, a step per symbol at any depth.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function toSymbolItems(
  raw: unknown,
  base: 0 | 1,
  documentUri?: string,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<SymbolItem[]> {
  return convertSymbols(raw, base, documentUri, slice, signal, false);
}

/**
 * The first symbol {@link toSymbolItems} gives, without its children (`undefined` when none
 * converts): for a readiness probe, which needs one symbol of an outline that may hold a million.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function firstSymbolItem(
  raw: unknown,
  base: 0 | 1,
  documentUri?: string,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<SymbolItem | undefined> {
  return (await convertSymbols(raw, base, documentUri, slice, signal, true))[0];
}

/** {@link toSymbolItems}; `first`: only the first symbol that converts, its children left out. */
async function convertSymbols(
  raw: unknown,
  base: 0 | 1,
  documentUri: string | undefined,
  slice: TimeSlice,
  signal: AbortSignal | undefined,
  first: boolean,
): Promise<SymbolItem[]> {
  const items = Array.isArray(raw) ? raw : raw === null || raw === undefined ? [] : [raw];
  const out: SymbolItem[] = [];
  for (const it of items) {
    if (first && out.length > 0) break;
    await slice.pause(signal);
    const o = it as {
      name?: unknown;
      kind?: unknown;
      detail?: unknown;
      containerName?: unknown;
      range?: unknown;
      selectionRange?: unknown;
      children?: unknown;
      location?: { uri?: unknown; range?: unknown };
    };
    if (!o || typeof o !== 'object' || typeof o.name !== 'string') continue;
    const kind = symbolKindName(o.kind, base);
    const detail = typeof o.detail === 'string' && o.detail !== '' ? o.detail : undefined;
    const containerName = typeof o.containerName === 'string' && o.containerName !== '' ? o.containerName : undefined;
    const locUri = uriText(o.location?.uri);
    const uri = locUri ?? documentUri;
    if (uri === undefined) continue;
    if (isRange(o.range) && isRange(o.selectionRange)) {
      const children =
        !first && Array.isArray(o.children) && o.children.length > 0
          ? await convertSymbols(o.children, base, uri, slice, signal, false)
          : undefined;
      out.push({
        name: o.name,
        kind,
        uri,
        range: plainRange(o.range),
        selectionRange: plainRange(o.selectionRange),
        ...(detail ? { detail } : {}),
        ...(containerName ? { containerName } : {}),
        ...(children ? { children } : {}),
      });
    } else {
      // SymbolInformation, or a WorkspaceSymbol whose location has no range (resolved lazily: the file start stands in)
      const range = isRange(o.location?.range) ? plainRange(o.location.range) : ZERO;
      out.push({
        name: o.name,
        kind,
        uri,
        range,
        selectionRange: range,
        ...(detail ? { detail } : {}),
        ...(containerName ? { containerName } : {}),
      });
    }
  }
  return out;
}

function contains(outer: Range, inner: Range): boolean {
  const le = (a: { line: number; character: number }, b: { line: number; character: number }) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(outer.start, inner.start) && le(inner.end, outer.end);
}

/**
 * A flat outline (`SymbolInformation`s) nested by range containment, as VS Code's outline does:
 * a symbol becomes a child of the smallest earlier symbol whose range contains its range (earlier:
 * sorted by start, then the longer range first, ties in the given order). Trees (items with
 * `children`) are returned unchanged (a new array of the same items). Symbols without children are
 * the given objects; a parent is a copy with `children`. Every pass yields through `slice` every
 * few ms (see {@link toSymbolItems}).
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function nestByRange(items: readonly SymbolItem[], slice = new TimeSlice(), signal?: AbortSignal): Promise<SymbolItem[]> {
  let tree = false;
  for (const i of items) {
    await slice.pause(signal);
    if (i.children) {
      tree = true;
      break;
    }
  }
  if (tree) return [...items];
  const sorted = await slicedSort(
    items,
    (a, b) =>
      a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || b.range.end.line - a.range.end.line,
    slice,
    signal,
  );
  type Node = { item: SymbolItem; children: Node[]; built?: SymbolItem };
  const roots: Node[] = [];
  const stack: Node[] = [];
  // Document order (parents before their children): built back to front, children first.
  const order: Node[] = [];
  for (const item of sorted) {
    await slice.pause(signal);
    const node: Node = { item, children: [] };
    while (stack.length > 0 && !contains(stack[stack.length - 1]!.item.range, item.range)) {
      stack.pop();
      await slice.pause(signal);
    }
    (stack.length > 0 ? stack[stack.length - 1]!.children : roots).push(node);
    stack.push(node);
    order.push(node);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    await slice.pause(signal);
    const n = order[i]!;
    if (n.children.length === 0) {
      n.built = n.item;
      continue;
    }
    const children: SymbolItem[] = [];
    for (const c of n.children) {
      await slice.pause(signal);
      children.push(c.built!);
    }
    n.built = { ...n.item, children };
  }
  const out: SymbolItem[] = [];
  for (const r of roots) {
    await slice.pause(signal);
    out.push(r.built!);
  }
  return out;
}

/** A diagnostic's code as text: `2322`, `'no-unused-vars'`, `{value: 'x', target}` -> `'x'`. */
function codeText(code: unknown): string | undefined {
  if (typeof code === 'string' || typeof code === 'number') return String(code);
  if (code && typeof code === 'object' && 'value' in code) return codeText(code.value);
  return undefined;
}

/** The severity of a numeric `DiagnosticSeverity` counted from `base` (LSP: absent means error). */
export function severityName(severity: unknown, base: 0 | 1): Severity {
  return typeof severity === 'number' ? (SEVERITIES[severity - base] ?? 'error') : 'error';
}

/**
 * Diagnostics of any shape for document `uri` -> {@link DiagnosticItem}s, in the given order (items
 * without range or message skipped). A source decides how many problems a file has (a linter on a
 * generated file may report a hundred thousand): the loop yields through `slice` every few ms.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function toDiagnosticItems(
  raw: unknown,
  uri: string,
  base: 0 | 1,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<DiagnosticItem[]> {
  const out: DiagnosticItem[] = [];
  await pushDiagnosticItems(out, raw, uri, base, slice, signal);
  return out;
}

/**
 * A whole workspace's diagnostics, `[uri, diagnostics]` per file (as `vscode.languages.getDiagnostics()`
 * gives them; a URI a string or an object whose `toString()` is the URI) -> one list of
 * {@link DiagnosticItem}s, file after file in the given order (see {@link toDiagnosticItems}; a
 * file without a URI is skipped). Hundreds of thousands of problems are usual on a big
 * repository: the walk yields through `slice` every few ms, a step per file and per diagnostic.
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function toWorkspaceDiagnosticItems(
  files: Iterable<readonly [unknown, unknown]>,
  base: 0 | 1,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<DiagnosticItem[]> {
  const out: DiagnosticItem[] = [];
  for (const [u, raw] of files) {
    await slice.pause(signal);
    const uri = uriText(u);
    if (uri !== undefined) await pushDiagnosticItems(out, raw, uri, base, slice, signal);
  }
  return out;
}

/** Append the {@link DiagnosticItem}s of `raw` (one document's) to `out`, yielding through `slice`. */
async function pushDiagnosticItems(
  out: DiagnosticItem[],
  raw: unknown,
  uri: string,
  base: 0 | 1,
  slice: TimeSlice,
  signal: AbortSignal | undefined,
): Promise<void> {
  const items = Array.isArray(raw) ? raw : [];
  for (const it of items) {
    await slice.pause(signal);
    const o = it as { range?: unknown; severity?: unknown; message?: unknown; source?: unknown; code?: unknown };
    if (!o || !isRange(o.range) || typeof o.message !== 'string') continue;
    const code = codeText(o.code);
    out.push({
      uri,
      range: plainRange(o.range),
      severity: severityName(o.severity, base),
      message: o.message,
      ...(typeof o.source === 'string' && o.source !== '' ? { source: o.source } : {}),
      ...(code !== undefined ? { code } : {}),
    });
  }
}

/** A `CallHierarchyItem` of either API -> {@link CallItem}, keeping the original as `data`; `undefined` for another shape. */
export function toCallItem(raw: unknown, base: 0 | 1): CallItem | undefined {
  const o = raw as { name?: unknown; kind?: unknown; detail?: unknown; uri?: unknown; range?: unknown; selectionRange?: unknown } | null;
  const uri = uriText(o?.uri);
  if (!o || typeof o.name !== 'string' || uri === undefined || !isRange(o.range)) return undefined;
  const selection = isRange(o.selectionRange) ? o.selectionRange : o.range;
  return {
    name: o.name,
    kind: symbolKindName(o.kind, base),
    ...(typeof o.detail === 'string' && o.detail !== '' ? { detail: o.detail } : {}),
    uri,
    range: plainRange(o.range),
    selectionRange: plainRange(selection),
    data: raw,
  };
}

/**
 * Incoming (`{from, fromRanges}`) or outgoing (`{to, fromRanges}`) calls -> {@link CallEdge}s, in
 * the given order (calls whose item has another shape skipped, call sites that are not ranges
 * dropped). A source answers every caller at once (a widely used function has tens of thousands):
 * the loop yields through `slice` every few ms, a step per call and per call site.
 * @param askedUri the document of the item asked about (where outgoing calls' `fromRanges` are).
 * @throws LspError `cancelled` when `signal` aborts (checked at each pause that yields).
 */
export async function toCallEdges(
  raw: unknown,
  direction: 'incoming' | 'outgoing',
  askedUri: string,
  base: 0 | 1,
  slice = new TimeSlice(),
  signal?: AbortSignal,
): Promise<CallEdge[]> {
  const items = Array.isArray(raw) ? raw : [];
  const out: CallEdge[] = [];
  for (const it of items) {
    await slice.pause(signal);
    const o = it as { from?: unknown; to?: unknown; fromRanges?: unknown };
    const item = toCallItem(direction === 'incoming' ? o?.from : o?.to, base);
    if (!item) continue;
    const ranges: Range[] = [];
    for (const r of Array.isArray(o.fromRanges) ? (o.fromRanges as unknown[]) : []) {
      await slice.pause(signal);
      if (isRange(r)) ranges.push(plainRange(r));
    }
    out.push({ item, ranges, rangesUri: direction === 'incoming' ? item.uri : askedUri });
  }
  return out;
}
