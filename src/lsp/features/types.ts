/**
 * Shapes and provider interfaces of the features beside the navigation seam (plain Node, no
 * `vscode` import): symbols (workspace search by name, a file's outline), diagnostics and call
 * hierarchy. The seam's four operations stay a closed union (`../types`); these are separate
 * interfaces with schemas of their own, answered by the same sources (VS Code's language features,
 * the `md-links` index, configured stdio servers).
 *
 * Positions and ranges are LSP's (0-based line, 0-based UTF-16 character, `end` exclusive); the
 * tools convert them to the model's 1-based line and character column once, in `./present.ts`.
 * Shapes follow LSP 3.17 (`DocumentSymbol`, `SymbolInformation`, `Diagnostic`,
 * `CallHierarchyItem`), see
 * https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/
 */
import type { Position, Range } from '../types';

/** LSP `SymbolKind` names, index = LSP value - 1 (`File` is 1 in LSP, 0 in `vscode.SymbolKind`). */
export const SYMBOL_KINDS = Object.freeze([
  'File',
  'Module',
  'Namespace',
  'Package',
  'Class',
  'Method',
  'Property',
  'Field',
  'Constructor',
  'Enum',
  'Interface',
  'Function',
  'Variable',
  'Constant',
  'String',
  'Number',
  'Boolean',
  'Array',
  'Object',
  'Key',
  'Null',
  'EnumMember',
  'Struct',
  'Event',
  'Operator',
  'TypeParameter',
] as const);

/** A symbol kind's name (`'Class'`, `'Function'`, …), or `'Unknown'` for a value outside LSP's list. */
export type SymbolKindName = (typeof SYMBOL_KINDS)[number] | 'Unknown';

/**
 * The name of a numeric symbol kind.
 * @param kind the number as the source gives it.
 * @param base `1` for LSP numbering (`File` = 1), `0` for `vscode.SymbolKind` (`File` = 0).
 */
export function symbolKindName(kind: unknown, base: 0 | 1): SymbolKindName {
  return typeof kind === 'number' && Number.isInteger(kind) ? (SYMBOL_KINDS[kind - base] ?? 'Unknown') : 'Unknown';
}

/** True when `s` is one of {@link SYMBOL_KINDS} (for validating the `kinds` filter). */
export function isSymbolKindName(s: unknown): s is SymbolKindName {
  return typeof s === 'string' && (SYMBOL_KINDS as readonly string[]).includes(s);
}

/**
 * A symbol: a workspace symbol (flat, `containerName` set when known) or an outline entry (with
 * `children`). `range` is the whole declaration; `selectionRange` the name (the same as `range`
 * when the source gives only one range, as `SymbolInformation` does).
 */
export interface SymbolItem {
  readonly name: string;
  readonly kind: SymbolKindName;
  /** Extra text from the source (a signature, or for notes: `file name`, `title`, `alias`). */
  readonly detail?: string;
  readonly containerName?: string;
  /** URI string of the document (see `../types` `Location`). */
  readonly uri: string;
  readonly range: Range;
  readonly selectionRange: Range;
  readonly children?: readonly SymbolItem[];
}

/** Diagnostic severities, most severe first (LSP `DiagnosticSeverity` 1..4 in this order). */
export const SEVERITIES = Object.freeze(['error', 'warning', 'information', 'hint'] as const);
export type Severity = (typeof SEVERITIES)[number];

/** True when `s` is one of {@link SEVERITIES}. */
export function isSeverity(s: unknown): s is Severity {
  return typeof s === 'string' && (SEVERITIES as readonly string[]).includes(s);
}

/** One problem in a document. `code` is the source's code as text (`2322`, `broken-link`). */
export interface DiagnosticItem {
  readonly uri: string;
  readonly range: Range;
  readonly severity: Severity;
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

/**
 * How fresh a diagnostics answer is:
 * - `settled`: the language support analysed the document's current text and has been quiet since;
 * - `pending`: analysis is still running (or the text changed after the last analysis): the list
 *   may be incomplete, it is never "no problems";
 * - `unknown`: the source reported nothing for the document within the wait: it may not analyse
 *   this language at all, or not yet.
 */
export type Freshness = 'settled' | 'pending' | 'unknown';

/** A diagnostics provider's answer. `note` explains a freshness other than `settled`. */
export interface DiagnosticsAnswer {
  readonly diagnostics: readonly DiagnosticItem[];
  readonly freshness: Freshness;
  readonly note?: string;
}

/** A call hierarchy item (LSP `CallHierarchyItem`); `data` is the source's own handle, passed back unchanged. */
export interface CallItem {
  readonly name: string;
  readonly kind: SymbolKindName;
  readonly detail?: string;
  readonly uri: string;
  readonly range: Range;
  readonly selectionRange: Range;
  readonly data?: unknown;
}

/**
 * One edge of the call hierarchy: the caller (incoming) or callee (outgoing) `item`, and the call
 * sites `ranges` in the document `rangesUri`: for incoming calls the caller's document (LSP
 * `fromRanges`), for outgoing calls the document of the item asked about.
 */
export interface CallEdge {
  readonly item: CallItem;
  readonly ranges: readonly Range[];
  readonly rangesUri: string;
}

/** What every feature request carries besides its own fields. */
export interface FeatureContext {
  /** The workspace folder (URI string) the request belongs to. */
  readonly workspaceUri: string;
  readonly signal: AbortSignal;
}

/**
 * A symbol provider. `id` is the id of the navigation provider of the same source (selection by
 * file extension goes through the seam's routing).
 * - `workspaceSymbols(query)`: every symbol whose name matches `query` (the provider may answer
 *   more; the tool filters with `./match.ts`); URIs may be anywhere. It searches the folder
 *   `ctx.workspaceUri` or, when `workspaceScope` is `'workspace'`, the whole workspace (then it
 *   is asked once, not once per folder).
 * - `documentSymbols(uri, languageId)`: the document's outline (a tree through `children`, or a
 *   flat list that the tool nests by range).
 * Errors: `LspError` (`no_provider` with `reason: 'not_ready'` while loading, `unsupported`,
 * `file_not_found`, `cancelled`).
 */
export interface SymbolProvider {
  readonly id: string;
  /** What one `workspaceSymbols` call searches: one folder (the default) or the whole workspace. */
  readonly workspaceScope?: 'folder' | 'workspace';
  workspaceSymbols(query: string, ctx: FeatureContext): Promise<readonly SymbolItem[]>;
  documentSymbols(uri: string, languageId: string, ctx: FeatureContext): Promise<readonly SymbolItem[]>;
}

/**
 * A diagnostics provider (`id` as for {@link SymbolProvider}).
 * - `documentDiagnostics(uri, languageId)`: the document's problems, waiting (within its own
 *   bound) for analysis of a document it has not seen; freshness says what it knows.
 * - `workspaceDiagnostics()`: every problem it knows of in the workspace folder `ctx.workspaceUri`
 *   or, when `workspaceScope` is `'workspace'`, in the whole workspace (every folder, whatever
 *   `ctx.workspaceUri` says): such a source is asked once for the workspace, not once per folder.
 */
export interface DiagnosticProvider {
  readonly id: string;
  /** What one `workspaceDiagnostics` call covers: one folder (the default) or the whole workspace. */
  readonly workspaceScope?: 'folder' | 'workspace';
  documentDiagnostics(uri: string, languageId: string, ctx: FeatureContext): Promise<DiagnosticsAnswer>;
  workspaceDiagnostics(ctx: FeatureContext): Promise<DiagnosticsAnswer>;
}

/**
 * A call hierarchy provider (`id` as for {@link SymbolProvider}): `prepare` the items at an LSP
 * position, then their `incoming` callers or `outgoing` callees.
 */
export interface CallHierarchyProvider {
  readonly id: string;
  prepare(uri: string, languageId: string, position: Position, ctx: FeatureContext): Promise<readonly CallItem[]>;
  incoming(item: CallItem, ctx: FeatureContext): Promise<readonly CallEdge[]>;
  outgoing(item: CallItem, ctx: FeatureContext): Promise<readonly CallEdge[]>;
}
