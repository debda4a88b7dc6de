/**
 * VS Code's language features as the source of symbols, diagnostics and call hierarchy (beside the
 * navigation seam's four operations), through the built-in commands
 * `vscode.executeWorkspaceSymbolProvider`, `vscode.executeDocumentSymbolProvider`,
 * `vscode.prepareCallHierarchy`, `vscode.provideIncomingCalls`, `vscode.provideOutgoingCalls`
 * (https://code.visualstudio.com/api/references/commands) and `vscode.languages.getDiagnostics`
 * with `onDidChangeDiagnostics`. Answers are converted once by `src/lsp/features/convert.ts`
 * (`vscode.SymbolKind` and `vscode.DiagnosticSeverity` count from 0).
 *
 * Readiness, as the VS Code navigation provider: an empty outline from a language that has never
 * answered one is retried with backoff; still empty at the bound it is "not available or not
 * ready" (an error), never "no symbols". Diagnostics say how fresh they are (see
 * {@link DiagnosticsTracker}).
 */
import * as vscode from 'vscode';
import { readNavigationText } from '../lsp/fileRead';
import { abortableSleep, cancelledError, throwIfAborted } from '../lsp/cancellation';
import { nestByRange, toCallEdges, toCallItem, toDiagnosticItems, toSymbolItems } from '../lsp/features/convert';
import type { CallEdge, CallHierarchyProvider, CallItem, DiagnosticItem, DiagnosticProvider, DiagnosticsAnswer, FeatureContext, SymbolItem, SymbolProvider } from '../lsp/features/types';
import { flattenHover } from '../lsp/hoverText';
import { isLoadingHover } from '../lsp/loadingHover';
import { LspError, Position } from '../lsp/types';
import type { NavigationContext } from './navigationContext';
import { VSCODE_PROVIDER_ID } from './vscodeProvider';

/** Options of {@link VsCodeFeatures}. */
export interface VsCodeFeaturesOptions {
  /** How long (ms) an empty outline is retried for a language that never answered one. Default 10000. */
  readonly readyTimeoutMs?: number;
  /** How long (ms) a file's diagnostics are waited for when the language support has not analysed it. Default 20000. */
  readonly diagnosticsWaitMs?: number;
  /** Quiet time (ms) after the last diagnostics change of a file before it counts as settled. Default 750. */
  readonly settleMs?: number;
  /**
   * How long (ms) a file with no diagnostics ever published must stay shown and unchanged, its
   * language ready, before "nothing published" counts as "no problems". Default 2500.
   */
  readonly cleanQuietMs?: number;
}

/**
 * Remembers, per document, when VS Code last published diagnostics for it and when its text last
 * changed (from `onDidChangeDiagnostics` and `onDidChangeTextDocument`, from activation on).
 */
export class DiagnosticsTracker implements vscode.Disposable {
  private readonly published = new Map<string, number>();
  private readonly edited = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly subs: vscode.Disposable[];

  constructor() {
    this.subs = [
      vscode.languages.onDidChangeDiagnostics((e) => {
        const now = Date.now();
        for (const uri of e.uris) this.published.set(uri.toString(), now);
        this.waiters.forEach((w) => w());
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.edited.set(e.document.uri.toString(), Date.now());
      }),
    ];
  }

  /** When diagnostics of `uri` were last published (ms since epoch), if ever since activation. */
  publishedAt(uri: string): number | undefined {
    return this.published.get(uri);
  }

  /** When the text of `uri` last changed in an open document, if ever since activation. */
  editedAt(uri: string): number | undefined {
    return this.edited.get(uri);
  }

  /** Resolves at the next diagnostics change (any document), or after `ms`. */
  nextChange(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        reject(cancelledError(signal));
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
    });
  }

  /** The most recent diagnostics change of any document. */
  lastPublished(): number | undefined {
    let last: number | undefined;
    for (const t of this.published.values()) if (last === undefined || t > last) last = t;
    return last;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.waiters.clear();
  }
}

/**
 * The VS Code source of the three features (id `vscode`, the VS Code navigation provider's id:
 * it serves every file extension no other source serves).
 */
export class VsCodeFeatures implements SymbolProvider, DiagnosticProvider, CallHierarchyProvider {
  readonly id = VSCODE_PROVIDER_ID;
  private readonly readyLanguages = new Set<string>();
  private readonly semanticLanguages = new Set<string>();
  private readonly cleanQuietMs: number;
  private readonly readyTimeoutMs: number;
  private readonly diagnosticsWaitMs: number;
  private readonly settleMs: number;

  constructor(
    private readonly tracker: DiagnosticsTracker,
    options: VsCodeFeaturesOptions = {},
  ) {
    this.readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
    this.diagnosticsWaitMs = options.diagnosticsWaitMs ?? 20_000;
    this.settleMs = options.settleMs ?? 750;
    this.cleanQuietMs = options.cleanQuietMs ?? 2500;
  }

  /** `vscode.executeWorkspaceSymbolProvider` with `query` (every registered provider, merged by VS Code). */
  async workspaceSymbols(query: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    throwIfAborted(ctx.signal);
    const raw = await vscode.commands.executeCommand<unknown>('vscode.executeWorkspaceSymbolProvider', query);
    throwIfAborted(ctx.signal);
    // TypeScript labels functions and methods `name()` in this list; the symbol's name is `name`.
    return toSymbolItems(raw, 0).map((s) => (/^(Function|Method|Constructor)$/.test(s.kind) && s.name.endsWith('()') ? { ...s, name: s.name.slice(0, -2) } : s));
  }

  /**
   * The document's outline through `vscode.executeDocumentSymbolProvider` (opened first). Empty
   * answers are retried (100 ms doubling to 1 s) until the language answered once, within
   * `readyTimeoutMs`; an empty document answers "no symbols" at once.
   * @throws LspError `file_not_found`, `no_provider` (`reason: 'not_ready'`), `cancelled`.
   */
  async documentSymbols(uri: string, _languageId: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const document = await open(uri);
    const language = document.languageId;
    const deadline = Date.now() + this.readyTimeoutMs;
    let delay = 100;
    for (;;) {
      throwIfAborted(ctx.signal);
      const raw = await vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', document.uri);
      const items = toSymbolItems(raw, 0, document.uri.toString());
      if (items.length > 0) {
        this.readyLanguages.add(language);
        return nestByRange(items);
      }
      if (this.readyLanguages.has(language) || document.getText().trim() === '') return [];
      if (Date.now() + delay > deadline) break;
      await abortableSleep(delay, ctx.signal);
      delay = Math.min(delay * 2, 1000);
    }
    throw notReady(document, 'no outline', this.readyTimeoutMs);
  }

  /**
   * The document's problems (`vscode.languages.getDiagnostics(uri)`), waiting for analysis when
   * the language support has not published diagnostics for the document's current text: the
   * document is opened, and shown in a background editor tab when no tab holds it (TypeScript
   * checks only files shown in tabs), then the answer waits for a publication followed by
   * `settleMs` of quiet, within `diagnosticsWaitMs`; a file for which nothing was ever published
   * counts as analysed once the language is ready (a hover that is not "(loading...)") and the
   * shown file stayed unchanged for `cleanQuietMs`. Freshness: `settled` after that;
   * `pending` when the text changed after the last publication or publications kept coming;
   * `unknown` when nothing was ever published for it.
   */
  async documentDiagnostics(uri: string, _languageId: string, ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    const document = await open(uri);
    const key = document.uri.toString();
    // A file changed on disk reaches an open, unmodified document a moment later: until the
    // document holds the file's text, its diagnostics describe the old text.
    const onDisk = async () => {
      if (document.uri.scheme !== 'file' || document.isDirty) return true;
      const disk = await readNavigationText(document.uri.fsPath).then((r) => r.text, () => undefined);
      return disk === undefined || disk.replace(/^\uFEFF/, '') === document.getText();
    };
    let current = await onDisk();
    const fresh = () => {
      const published = this.tracker.publishedAt(key);
      const edited = this.tracker.editedAt(key);
      return current && published !== undefined && (edited === undefined || published >= edited);
    };
    const quiet = () => Date.now() - (this.tracker.publishedAt(key) ?? 0) >= this.settleMs;
    const deadline = Date.now() + this.diagnosticsWaitMs;
    let shown = false;
    let shownAt = Date.now();
    // Nothing published for a file that never had problems is the normal case for TypeScript
    // (it publishes changes only): once the language has its project loaded and the file was
    // shown and unchanged for `cleanQuietMs`, no publication means no problems.
    const cleanAndQuiet = async () =>
      current &&
      this.tracker.publishedAt(key) === undefined &&
      Date.now() - Math.max(shownAt, this.tracker.editedAt(key) ?? 0) >= this.cleanQuietMs &&
      (await this.semanticReady(document));
    while (!(fresh() && quiet())) {
      throwIfAborted(ctx.signal);
      if (!fresh() && !shown && !isInTab(document.uri)) {
        shown = true;
        await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Active });
        shownAt = Date.now();
      }
      if (await cleanAndQuiet()) {
        return {
          diagnostics: toDiagnosticItems(vscode.languages.getDiagnostics(document.uri), key, 0),
          freshness: 'settled',
          note: `no diagnostics were ever published for this file; its language support has its project loaded and stayed quiet for ${(this.cleanQuietMs / 1000).toFixed(1)} s while the file was shown (language servers such as TypeScript publish nothing for a file without problems)`,
        };
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      await this.tracker.nextChange(Math.min(left, !current ? 100 : fresh() ? this.settleMs : 1000), ctx.signal);
      if (!current) current = await onDisk();
    }
    const diagnostics = toDiagnosticItems(vscode.languages.getDiagnostics(document.uri), key, 0);
    if (fresh() && quiet()) return { diagnostics, freshness: 'settled' };
    const secs = Math.round(this.diagnosticsWaitMs / 1000);
    if (this.tracker.publishedAt(key) === undefined) {
      return {
        diagnostics,
        freshness: diagnostics.length > 0 ? 'pending' : 'unknown',
        note: `no language support published diagnostics for this file within ${secs} s: it may not check ${document.languageId} files, or it is still loading; this is not "no problems". Retry later.`,
      };
    }
    return { diagnostics, freshness: 'pending', note: `analysis of this file was still running after ${secs} s (its text changed, or results kept changing); the list may be incomplete. Ask again.` };
  }

  /**
   * True once the language of `document` answers a semantic question: a hover on its first
   * symbol that is not TypeScript's "(loading...)" (remembered per language).
   */
  private async semanticReady(document: vscode.TextDocument): Promise<boolean> {
    if (this.semanticLanguages.has(document.languageId)) return true;
    const symbols = toSymbolItems(await vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', document.uri), 0, document.uri.toString());
    const first = symbols[0];
    if (!first) return false;
    const at = first.selectionRange.start;
    const hovers = await vscode.commands.executeCommand<unknown>('vscode.executeHoverProvider', document.uri, new vscode.Position(at.line, at.character));
    const text = flattenHover(Array.isArray(hovers) ? hovers.map((h) => (h as { contents?: unknown })?.contents) : null);
    if (text === null || isLoadingHover(text)) return false;
    this.semanticLanguages.add(document.languageId);
    return true;
  }

  /**
   * Every problem VS Code holds (`vscode.languages.getDiagnostics()`): only files the language
   * support has analysed. `pending` while diagnostics changed within `settleMs`.
   */
  async workspaceDiagnostics(ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    throwIfAborted(ctx.signal);
    const diagnostics: DiagnosticItem[] = [];
    for (const [uri, list] of vscode.languages.getDiagnostics()) diagnostics.push(...toDiagnosticItems(list, uri.toString(), 0));
    const last = this.tracker.lastPublished();
    const busy = last !== undefined && Date.now() - last < this.settleMs;
    const scope = 'it holds the files the language support has analysed (TypeScript checks files open in editors unless its project diagnostics are on); ask for a file by filePath to have it analysed';
    return busy ? { diagnostics, freshness: 'pending', note: `diagnostics changed in the last ${this.settleMs} ms: analysis is running, the list may be incomplete; ${scope}` } : { diagnostics, freshness: 'settled', note: scope };
  }

  /** `vscode.prepareCallHierarchy` at an LSP position (the document opened first). */
  async prepare(uri: string, _languageId: string, position: Position, ctx: FeatureContext): Promise<CallItem[]> {
    const document = await open(uri);
    const deadline = Date.now() + this.readyTimeoutMs;
    let delay = 100;
    for (;;) {
      throwIfAborted(ctx.signal);
      const raw = await vscode.commands.executeCommand<unknown>('vscode.prepareCallHierarchy', document.uri, new vscode.Position(position.line, position.character));
      const items = (Array.isArray(raw) ? raw : raw ? [raw] : []).map((r) => toCallItem(r, 0)).filter((i): i is CallItem => i !== undefined);
      if (items.length > 0) return items;
      // An empty answer is real once the language answers document symbols (its support is up).
      const symbols = await vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', document.uri);
      if (Array.isArray(symbols) && symbols.length > 0) return [];
      if (Date.now() + delay > deadline) throw notReady(document, 'no call hierarchy', this.readyTimeoutMs);
      await abortableSleep(delay, ctx.signal);
      delay = Math.min(delay * 2, 1000);
    }
  }

  /** `vscode.provideIncomingCalls` on an item this source prepared. */
  async incoming(item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    throwIfAborted(ctx.signal);
    return toCallEdges(await vscode.commands.executeCommand<unknown>('vscode.provideIncomingCalls', item.data), 'incoming', item.uri, 0);
  }

  /** `vscode.provideOutgoingCalls` on an item this source prepared. */
  async outgoing(item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    throwIfAborted(ctx.signal);
    return toCallEdges(await vscode.commands.executeCommand<unknown>('vscode.provideOutgoingCalls', item.data), 'outgoing', item.uri, 0);
  }
}

async function open(uri: string): Promise<vscode.TextDocument> {
  const u = vscode.Uri.parse(uri);
  try {
    return await vscode.workspace.openTextDocument(u);
  } catch (e) {
    throw new LspError('file_not_found', `cannot open ${u.scheme === 'file' ? u.fsPath : uri}: ${e instanceof Error ? e.message : String(e)}`, { uri }, { cause: e });
  }
}

function isInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri?.toString() === key));
}

function notReady(document: vscode.TextDocument, what: string, ms: number): LspError {
  const ext = /\.[^./]+$/.exec(document.uri.path)?.[0]?.toLowerCase() ?? document.languageId;
  return new LspError(
    'no_provider',
    `language support for ${ext} (${document.languageId}) is not available or not ready: ${what} within ${Math.round(ms / 1000)} s. Install or enable an extension for ${document.languageId}, wait for it to finish loading and retry; this is not the same as "none".`,
    { extension: ext, languageId: document.languageId, reason: 'not_ready' },
  );
}


/**
 * Register VS Code's language features as the `vscode` source of symbols, diagnostics and call
 * hierarchy in `nav.features`; disposed (with the diagnostics tracker) with the returned Disposable.
 */
export function registerVsCodeFeatures(nav: NavigationContext): vscode.Disposable {
  const tracker = new DiagnosticsTracker();
  const features = new VsCodeFeatures(tracker);
  return vscode.Disposable.from(tracker, nav.features.register('symbols', features), nav.features.register('diagnostics', features), nav.features.register('callHierarchy', features));
}
