/**
 * The `dsh_symbols`, `dsh_diagnostics` and `dsh_call_hierarchy` Language Model Tools: symbols by
 * name or a file's outline, problems, and callers / callees, answered by the sources registered in
 * a {@link FeatureRegistry} (VS Code's language features, `md-links`, configured stdio servers),
 * chosen by file extension like `dsh_lsp`. Positions in and out are converted once: model input by
 * `resolveModelPosition` (`src/lsp/usedPosition.ts`, shared with `dsh_lsp`), answers by `src/lsp/features/present.ts`. Input
 * rules live in `src/lsp/features/input.ts` (kept in agreement with package.json by a test).
 */
import * as vscode from 'vscode';
import { abortOnCancel } from './cancellation';
import { walkCalls } from '../lsp/features/callHierarchy';
import { validateCallHierarchyInput, validateDiagnosticsInput, validateSymbolsInput } from '../lsp/features/input';
import { matchSymbolName } from '../lsp/features/match';
import { Paged, ReadLines, shapeCallTree, shapeDiagnostics, shapeOutline, shapeWorkspaceSymbols, ShownCall } from '../lsp/features/present';
import type { FeatureRegistry } from '../lsp/features/registry';
import type { DiagnosticItem, Freshness, SymbolItem, SymbolKindName } from '../lsp/features/types';
import { headLines } from '../lsp/headLines';
import { splitLines } from '../lsp/position';
import { isLspError, LspError } from '../lsp/types';
import { checkNavigationFile } from '../lsp/fileRead';
import { describeOutside, placeOf, readUriText, workspaceFolderRealPaths } from './fileAccess';
import { shownHead } from '../lsp/lineWindow';
import { resolveFile, ResolvedFile, workspaceUriOf } from './lspTool';
import { resolveModelPosition, UsedPosition } from '../lsp/usedPosition';
import { TOOL_OUTPUT_CAP_BYTES, toolResult } from './tools/toolResult';
import { errorMessage } from '../common/errorMessage';

/** What one source contributed to a workspace-wide answer (its error, if it failed, instead of failing the call). */
export interface SourceReport {
  readonly id: string;
  readonly count: number;
  readonly error?: string;
}

/**
 * The lines of a result's document, for columns and call-site previews: read with the navigation
 * read (open buffer, else regular files up to the cap) inside the workspace only; outside it
 * `undefined` (columns are then the UTF-16 offset + 1, no preview): these tools never show text
 * from outside the workspace, as `dsh_lsp` does not without the user's consent.
 */
const readLines: ReadLines = async (uri) => {
  const u = vscode.Uri.parse(uri);
  const place = await placeOf(u);
  return place.inside ? headLines(await readUriText(u, place.containment?.realPath)) : undefined;
};

/**
 * Resolve `filePath` to a file inside the workspace (the rule of `dsh_lsp` without consent).
 * @throws Error naming the file's real path when it is outside every workspace folder;
 *   NavigationReadError for a file that is not a regular file or is over the read cap; the errors
 *   of `resolveFile` (not found, a folder).
 */
async function resolveInside(filePath: string, tool: string): Promise<ResolvedFile & { realPath?: string }> {
  const target = await resolveFile(filePath);
  const place = await placeOf(target.uri);
  if (!place.inside) {
    throw new Error(`${await describeOutside(place)}: ${tool} reads only files inside the workspace folders (dsh_lsp can read such a file after asking the user)`);
  }
  // Regular files only, within the read cap (a FIFO would block whoever opens it).
  if (target.uri.scheme === 'file') await checkNavigationFile(target.uri.fsPath);
  return { ...target, ...(place.containment?.realPath ? { realPath: place.containment.realPath } : {}) };
}

/** Workspace roots for placing paths: the `file:` folders' real paths, then the folders as opened. */
async function roots(): Promise<string[]> {
  const real = (await workspaceFolderRealPaths()).map((p) => vscode.Uri.file(p).toString());
  return [...real, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString())];
}

/**
 * Keep an answer within the tool result cap (256 KiB of JSON): while it is larger, the page is
 * halved (its `nextOffset` then leads on) and `capNote` says so.
 */
async function capped<T extends Paged>(limit: number, build: (limit: number) => Promise<T>): Promise<T & { capNote?: string }> {
  let used = limit;
  let answer = await build(used);
  while (Buffer.byteLength(JSON.stringify(answer)) > TOOL_OUTPUT_CAP_BYTES && used > 1) {
    used = Math.max(1, Math.floor(used / 2));
    answer = await build(used);
  }
  return used < limit ? { ...answer, capNote: `the page was cut to ${used} entries to stay within the 256 KiB tool result cap; continue with offset ${answer.nextOffset ?? 'none'}` } : answer;
}

/** The workspace folders' URIs. @throws LspError `invalid_request` when none is open (`why` says what to do). */
function openFolders(why: string): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
  if (folders.length === 0) throw new LspError('invalid_request', `no workspace folder is open: ${why}`);
  return folders;
}

/** The symbols of the given kinds; a symbol of another kind is dropped and its matching descendants take its place. */
function keepKinds(items: readonly SymbolItem[], kinds: readonly SymbolKindName[] | undefined): SymbolItem[] {
  if (!kinds) return [...items];
  const out: SymbolItem[] = [];
  for (const s of items) {
    const children = s.children ? keepKinds(s.children, kinds) : undefined;
    if (kinds.includes(s.kind)) out.push({ ...s, ...(children && children.length > 0 ? { children } : { children: undefined }) });
    else if (children) out.push(...children);
  }
  return out;
}

/** `dsh_symbols`: workspace symbols by `query`, or the outline of `filePath`. */
export class SymbolsTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  static readonly toolName = 'dsh_symbols';
  constructor(private readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const i = options.input ?? {};
    return { invocationMessage: typeof i.filePath === 'string' ? `Outline of ${i.filePath}` : `Symbols matching ${JSON.stringify(i.query)}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run(options.input, token));
  }

  /**
   * The JSON answer (also used by the palette command).
   * @throws Error/LspError with a message the model can act on: invalid input, file not found, no
   *   provider for the file type, unsupported by the serving source, not ready, cancelled.
   */
  async run(input: unknown, token?: vscode.CancellationToken): Promise<object> {
    const i = validateSymbolsInput(input);
    const { signal, dispose } = abortOnCancel(token);
    try {
      const rootList = await roots();
      if (i.filePath !== undefined) {
        const target = await resolveInside(i.filePath, SymbolsTool.toolName);
        const { provider, providerId, languageId } = this.registry.forUri('symbols', target.uri.toString());
        const tree = keepKinds(await provider.documentSymbols(target.uri.toString(), languageId, { workspaceUri: workspaceUriOf(target), signal }), i.kinds);
        const shaped = await capped(i.limit, (limit) => shapeOutline(tree, { roots: rootList, offset: i.offset, limit, readLines }));
        return { mode: 'outline', file: target.shown, provider: providerId, ...shaped };
      }
      const query = i.query!;
      const folders = openFolders('workspace symbols search the workspace folders; pass filePath for one file\'s outline');
      const sources: SourceReport[] = [];
      const notReady: LspError[] = [];
      const scored: Array<{ symbol: SymbolItem; score: number }> = [];
      await Promise.all(
        this.registry.all('symbols').map(async (p) => {
          let count = 0;
          try {
            for (const workspaceUri of folders) {
              for (const s of await p.workspaceSymbols(query, { workspaceUri, signal })) {
                if (!this.registry.owns('symbols', p.id, s.uri)) continue;
                if (i.kinds && !i.kinds.includes(s.kind)) continue;
                const score = matchSymbolName(query, s.name);
                if (score === undefined) continue;
                scored.push({ symbol: s, score });
                count++;
              }
            }
            sources.push({ id: p.id, count });
          } catch (e) {
            if (signal.aborted) throw e;
            if (isLspError(e) && e.details.reason === 'not_ready') notReady.push(e);
            sources.push({ id: p.id, count, error: errorMessage(e) });
          }
        }),
      );
      // Nothing found while a language was still loading is not "no results".
      if (scored.length === 0 && notReady[0]) throw notReady[0];
      sources.sort((a, b) => (a.id < b.id ? -1 : 1));
      const shaped = await capped(i.limit, (limit) => shapeWorkspaceSymbols(scored, { roots: rootList, offset: i.offset, limit, readLines }));
      const notes = sources.filter((s) => s.error).map((s) => `source '${s.id}' did not answer: ${s.error}`);
      return { mode: 'workspace', query, ...shaped, sources, ...(notes.length > 0 ? { notes } : {}) };
    } finally {
      dispose();
    }
  }
}

const FRESHNESS_RANK: Record<Freshness, number> = { settled: 0, unknown: 1, pending: 2 };

/** `dsh_diagnostics`: problems of one file (waiting for analysis) or of the workspace. */
export class DiagnosticsTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  static readonly toolName = 'dsh_diagnostics';
  constructor(private readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const f = options.input?.filePath;
    return { invocationMessage: typeof f === 'string' ? `Problems in ${f}` : 'Problems in the workspace' };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run(options.input, token));
  }

  /** The JSON answer (also used by the palette command); errors as {@link SymbolsTool.run}. */
  async run(input: unknown, token?: vscode.CancellationToken): Promise<object> {
    const i = validateDiagnosticsInput(input);
    const { signal, dispose } = abortOnCancel(token);
    try {
      const rootList = await roots();
      const shape = (items: readonly DiagnosticItem[]) =>
        capped(i.limit, (limit) => shapeDiagnostics(items, { roots: rootList, offset: i.offset, limit, readLines, ...(i.severity ? { minSeverity: i.severity } : {}) }));
      if (i.filePath !== undefined) {
        const target = await resolveInside(i.filePath, DiagnosticsTool.toolName);
        const { provider, providerId, languageId } = this.registry.forUri('diagnostics', target.uri.toString());
        const answer = await provider.documentDiagnostics(target.uri.toString(), languageId, { workspaceUri: workspaceUriOf(target), signal });
        const shaped = await shape(answer.diagnostics);
        return { scope: 'file', file: target.shown, provider: providerId, freshness: answer.freshness, ...(answer.note ? { freshnessNote: answer.note } : {}), ...shaped };
      }
      const folders = openFolders('the workspace\'s problems are those of its folders; pass filePath for one file');
      const items: DiagnosticItem[] = [];
      const sources: Array<SourceReport & { freshness?: Freshness; note?: string }> = [];
      let freshness: Freshness = 'settled';
      await Promise.all(
        this.registry.all('diagnostics').map(async (p) => {
          let count = 0;
          try {
            for (const workspaceUri of folders) {
              const answer = await p.workspaceDiagnostics({ workspaceUri, signal });
              for (const d of answer.diagnostics) {
                if (!this.registry.owns('diagnostics', p.id, d.uri)) continue;
                items.push(d);
                count++;
              }
              if (FRESHNESS_RANK[answer.freshness] > FRESHNESS_RANK[freshness]) freshness = answer.freshness;
              sources.push({ id: p.id, count, freshness: answer.freshness, ...(answer.note ? { note: answer.note } : {}) });
            }
          } catch (e) {
            if (signal.aborted) throw e;
            sources.push({ id: p.id, count, error: errorMessage(e) });
          }
        }),
      );
      sources.sort((a, b) => (a.id < b.id ? -1 : 1));
      const shaped = await shape(items);
      return { scope: 'workspace', freshness, ...shaped, sources };
    } finally {
      dispose();
    }
  }
}

/** `dsh_call_hierarchy`: callers or callees of the item at a 1-based position. */
export class CallHierarchyTool implements vscode.LanguageModelTool<Record<string, unknown>> {
  static readonly toolName = 'dsh_call_hierarchy';
  constructor(private readonly registry: FeatureRegistry) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<Record<string, unknown>>): vscode.PreparedToolInvocation {
    const i = options.input ?? {};
    return { invocationMessage: `${shownHead(i.direction)} calls at ${shownHead(i.filePath)}:${String(i.line)}:${String(i.column)}${i.symbol ? ` (${shownHead(i.symbol)})` : ''}` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<Record<string, unknown>>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    return toolResult(await this.run(options.input, token));
  }

  /**
   * The JSON answer (also used by the palette command).
   * @throws Error/LspError: invalid input, file not found, no provider / unsupported (markdown
   *   notes), line out of range, symbol not on the line, a position on whitespace or on nothing
   *   callable, not ready, cancelled.
   */
  async run(input: unknown, token?: vscode.CancellationToken): Promise<object> {
    const i = validateCallHierarchyInput(input);
    const { signal, dispose } = abortOnCancel(token);
    try {
      const target = await resolveInside(i.filePath, CallHierarchyTool.toolName);
      const uri = target.uri.toString();
      const { provider, providerId, languageId } = this.registry.forUri('callHierarchy', uri);
      const lines = splitLines(await readUriText(target.uri, target.realPath));
      const { position, used } = resolveModelPosition(lines, i.line, i.column, i.symbol);
      if (used.token === '') {
        throw new LspError('invalid_request', `line ${used.line} column ${used.column} is on whitespace (${JSON.stringify(used.lineText)}): put the column on the name of a function, method or constructor, or pass symbol`, {
          line: used.line,
          column: used.column,
        });
      }
      const ctx = { workspaceUri: workspaceUriOf(target), signal };
      const items = await provider.prepare(uri, languageId, position, ctx);
      if (items.length === 0) {
        throw new LspError('invalid_request', `no function, method or constructor at line ${used.line} column ${used.column} ('${used.token}'): call hierarchy needs the name of something callable (its declaration or a call of it)`, {
          token: used.token,
        });
      }
      const walked = await walkCalls(provider, items[0]!, { direction: i.direction, depth: i.depth }, ctx);
      const rootList = await roots();
      let root: ShownCall = await shapeCallTree(walked.root, rootList, readLines);
      let capNote: string | undefined;
      if (Buffer.byteLength(JSON.stringify(root)) > TOOL_OUTPUT_CAP_BYTES) {
        root = { ...root, calls: (root.calls ?? []).map((c) => ({ ...c, calls: undefined, depthLimit: true as const })) };
        capNote = 'the answer was larger than the 256 KiB tool result cap: only the first level is shown; ask again from a caller or callee';
      }
      const direct = root.calls?.length ?? 0;
      const what = i.direction === 'incoming' ? (direct === 1 ? 'caller' : 'callers') : direct === 1 ? 'callee' : 'callees';
      const summary = `${direct} direct ${what} of ${root.name}; ${walked.nodes - 1} item${walked.nodes === 2 ? '' : 's'} within depth ${i.depth}${walked.truncated ? ' (truncated at 500 items)' : ''}`;
      return {
        file: target.shown,
        provider: providerId,
        direction: i.direction,
        depth: i.depth,
        position: used satisfies UsedPosition,
        summary,
        nodes: walked.nodes,
        truncated: walked.truncated,
        ...(items.length > 1 ? { otherItems: items.slice(1).map((x) => x.name) } : {}),
        ...(capNote ? { capNote } : {}),
        root,
      };
    } finally {
      dispose();
    }
  }
}
