/**
 * VS Code's language features as the source of symbols, diagnostics and call hierarchy (beside the
 * navigation seam's four operations), through the built-in commands
 * `vscode.executeWorkspaceSymbolProvider`, `vscode.executeDocumentSymbolProvider`,
 * `vscode.prepareCallHierarchy`, `vscode.provideIncomingCalls`, `vscode.provideOutgoingCalls`
 * (https://code.visualstudio.com/api/references/commands) and `vscode.languages.getDiagnostics`
 * with `onDidChangeDiagnostics`. Answers are converted once by `src/lsp/features/convert.ts`
 * (`vscode.SymbolKind` and `vscode.DiagnosticSeverity` count from 0).
 *
 * Readiness, as the VS Code navigation provider (`./vscodeProvider.ts`): the language is loaded
 * before answering (`./languageLoading.ts`: a document opened; for workspace symbols one document
 * of each language present) and answers are asked again through the shared loop
 * (`src/lsp/askUntilSettled.ts`) while the language's probe says it is loading, within the call's
 * time limit (`src/lsp/callLimit.ts`: `readyTimeoutMs` while nothing shows the language has
 * support, `loadingTimeoutMs` once something does). An empty answer before the language has looked is never "none":
 * at the limit it is "not available or not ready" (an error). Diagnostics say how fresh they are
 * (see {@link DiagnosticsTracker}).
 */
import * as vscode from 'vscode';
import { readNavigationText } from '../../lsp/fileRead';
import { askUntilSettled } from '../../lsp/askUntilSettled';
import { CallLimit, LOADING_TIMEOUT_MS, READY_TIMEOUT_MS } from '../../lsp/callLimit';
import { cancelledError, throwIfAborted } from '../../lsp/cancellation';
import {
  nestByRange,
  toCallEdges,
  toCallItem,
  toDiagnosticItems,
  toSymbolItems,
  toWorkspaceDiagnosticItems,
} from '../../lsp/features/convert';
import type {
  CallEdge,
  CallHierarchyProvider,
  CallItem,
  DiagnosticProvider,
  DiagnosticsAnswer,
  FeatureContext,
  SymbolItem,
  SymbolProvider,
} from '../../lsp/features/types';
import { sameSymbols, withoutCallParens } from '../../lsp/features/workspaceSymbols';
import { notReadyError } from '../../lsp/sourceErrors';
import { TimeSlice } from '../../lsp/timeSlice';
import { LspError, Position } from '../../lsp/types';
import { leastReady, openDocument, probeLanguage, WorkspaceLanguages } from './languageLoading';
import { LooseDocuments, isInTab } from './looseDocuments';
import type { NavigationContext } from './navigationContext';
import { VSCODE_PROVIDER_ID } from './vscodeProvider';

/** Options of {@link VsCodeFeatures}. */
export interface VsCodeFeaturesOptions {
  /**
   * The call's time limit (ms) for symbols and call hierarchy while nothing shows the language has
   * support. Default 20000 (`src/lsp/callLimit.ts`).
   */
  readonly readyTimeoutMs?: number;
  /**
   * The call's time limit (ms), diagnostics included, once the language showed support (an
   * extension activating for it, symbols, a "(loading...)" hover). Default 90000.
   */
  readonly loadingTimeoutMs?: number;
  /** Finds the documents to load for workspace symbols; without it only open documents count. */
  readonly workspaceLanguages?: WorkspaceLanguages;
  /** How long (ms) a file's diagnostics are waited for when the language support has not analysed it, while nothing shows the language has support. Default 20000. */
  readonly diagnosticsWaitMs?: number;
  /** Quiet time (ms) after the last diagnostics change of a file before it counts as settled. Default 750. */
  readonly settleMs?: number;
  /**
   * How long (ms) a file with no diagnostics ever published must stay shown and unchanged, its
   * language ready, before "nothing published" counts as "no problems". Default 4000.
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
  /** `executeWorkspaceSymbolProvider` searches, and `languages.getDiagnostics()` holds, every folder: asked once for the workspace. */
  readonly workspaceScope = 'workspace';
  private readonly readyLanguages = new Set<string>();
  private readonly cleanQuietMs: number;
  private readonly readyTimeoutMs: number;
  private readonly loadingTimeoutMs: number;
  private readonly diagnosticsWaitMs: number;
  private readonly settleMs: number;
  private readonly workspaceLanguages: WorkspaceLanguages | undefined;

  constructor(
    private readonly tracker: DiagnosticsTracker,
    options: VsCodeFeaturesOptions = {},
  ) {
    this.readyTimeoutMs = options.readyTimeoutMs ?? READY_TIMEOUT_MS;
    this.loadingTimeoutMs = options.loadingTimeoutMs ?? LOADING_TIMEOUT_MS;
    this.workspaceLanguages = options.workspaceLanguages;
    this.diagnosticsWaitMs = options.diagnosticsWaitMs ?? 20_000;
    this.settleMs = options.settleMs ?? 750;
    // Counted from the project's load (TypeScript checks a file only then); 4 s leaves room for
    // that check on a busy machine (at a load average of 40 on 2 cores, 2.5 s counted from showing
    // the file once answered "no problems" for a file with a type error).
    this.cleanQuietMs = options.cleanQuietMs ?? 4000;
  }

  /**
   * `vscode.executeWorkspaceSymbolProvider` with `query` (every registered provider, merged by VS
   * Code), after loading the workspace's languages: one document of each language present is
   * opened ({@link WorkspaceLanguages.load}; TypeScript searches only projects it has loaded) and
   * the answer is asked again while any of them is loading ({@link probeLanguage} before each
   * attempt); without a signal two answers in a row that agree are final.
   * @throws LspError `no_provider` (`reason: 'not_ready'`) when the languages were still loading
   *   at the time limit and nothing was found; `cancelled`.
   */
  async workspaceSymbols(query: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const limit = new CallLimit(this.readyTimeoutMs, this.loadingTimeoutMs);
    const documents = (await this.workspaceLanguages?.load(ctx.signal)) ?? [];
    const loose = new LooseDocuments();
    const outcome = await askUntilSettled<SymbolItem[]>({
      deadline: limit.deadline,
      signal: ctx.signal,
      agree: (a, b) => sameSymbols(a, b, undefined, ctx.signal),
      attempt: async () => {
        const probes = await Promise.all(documents.map((d) => probeLanguage(d)));
        await loose.seenAll(documents, probes, ctx.signal);
        if (probes.some((p) => p.supported)) limit.support();
        // A language that shows no support at all (no symbols, nothing activating) has nothing to wait for.
        const states = probes.filter((p) => p.supported).map((p) => p.state);
        const raw = await vscode.commands.executeCommand<unknown>('vscode.executeWorkspaceSymbolProvider', query);
        // TypeScript labels functions and methods `name()` in this list; the symbol's name is `name`.
        // A search may answer hundreds of thousands of symbols: every pass over them yields.
        const slice = new TimeSlice();
        const items = await withoutCallParens(await toSymbolItems(raw, 0, undefined, slice, ctx.signal), slice, ctx.signal);
        return { answer: items, state: states.length > 0 ? leastReady(states) : 'unknown' };
      },
    });
    if (outcome.settled || (outcome.answer?.length ?? 0) > 0) return outcome.answer ?? [];
    const languages = [...new Set(documents.map((d) => d.languageId))].join(', ');
    throw notReadyError(
      `workspace symbol search (${languages || 'no language loaded'})`,
      `the language support was still loading the workspace after ${Math.round(limit.ms / 1000)} s`,
      "Wait a moment and retry, or search one file's outline with filePath",
      { languages: documents.map((d) => d.languageId) },
    );
  }

  /**
   * The document's outline through `vscode.executeDocumentSymbolProvider` (opened first). Empty
   * answers are asked again (the shared loop) until the language answered an outline once, within
   * `readyTimeoutMs`; an empty document answers "no symbols" at once.
   * @throws LspError `file_not_found`, `no_provider` (`reason: 'not_ready'`), `cancelled`.
   */
  async documentSymbols(uri: string, _languageId: string, ctx: FeatureContext): Promise<SymbolItem[]> {
    const document = await openDocument(uri);
    const language = document.languageId;
    const limit = new CallLimit(this.readyTimeoutMs, this.loadingTimeoutMs);
    const outcome = await askUntilSettled<SymbolItem[]>({
      deadline: limit.deadline,
      signal: ctx.signal,
      attempt: async () => {
        const raw = await vscode.commands.executeCommand<unknown>('vscode.executeDocumentSymbolProvider', document.uri);
        const items = await toSymbolItems(raw, 0, document.uri.toString(), undefined, ctx.signal);
        if (items.length > 0) this.readyLanguages.add(language);
        const looked = items.length > 0 || this.readyLanguages.has(language) || document.getText().trim() === '';
        if (!looked && !limit.hasSupport && (await probeLanguage(document)).supported) limit.support();
        return { answer: items, state: looked ? 'settled' : 'loading' };
      },
    });
    if (outcome.settled) return nestByRange(outcome.answer, undefined, ctx.signal);
    throw notReady(document, 'no outline', limit.ms);
  }

  /**
   * The document's problems (`vscode.languages.getDiagnostics(uri)`), waiting for analysis when
   * the language support has not published diagnostics for the document's current text: the
   * document is opened, and shown in a background editor tab when no tab holds it (TypeScript
   * checks only files shown in tabs), then the answer waits for a publication followed by
   * `settleMs` of quiet, within `diagnosticsWaitMs` (`loadingTimeoutMs` once the language shows
   * it is loading, see `src/lsp/callLimit.ts`); a file for which nothing was ever published
   * counts as analysed once its project has loaded (the probe of `./languageLoading.ts` settled
   * on this file) and the shown file then stayed unchanged for `cleanQuietMs`. Freshness: `settled` after that;
   * `pending` when the text changed after the last publication or publications kept coming.
   * Nothing published and the project not loaded at the limit: `LspError` `no_provider`
   * (`reason: 'not_ready'`), never "no problems".
   * @throws LspError `file_not_found`, `no_provider` (not ready), `cancelled`.
   */
  async documentDiagnostics(uri: string, _languageId: string, ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    const document = await openDocument(uri);
    const key = document.uri.toString();
    // A file changed on disk reaches an open, unmodified document a moment later: until the
    // document holds the file's text, its diagnostics describe the old text.
    const onDisk = async () => {
      if (document.uri.scheme !== 'file' || document.isDirty) return true;
      const disk = await readNavigationText(document.uri.fsPath).then(
        (r) => r.text,
        () => undefined,
      );
      return disk === undefined || disk.replace(/^\uFEFF/, '') === document.getText();
    };
    let current = await onDisk();
    const fresh = () => {
      const published = this.tracker.publishedAt(key);
      const edited = this.tracker.editedAt(key);
      return current && published !== undefined && (edited === undefined || published >= edited);
    };
    const quiet = () => Date.now() - (this.tracker.publishedAt(key) ?? 0) >= this.settleMs;
    const limit = new CallLimit(this.diagnosticsWaitMs, this.loadingTimeoutMs);
    let shown = false;
    let shownAt = Date.now();
    // Nothing published for a file that never had problems is the normal case for TypeScript
    // (it publishes changes only): once this file's project has loaded (its probe settled) and the
    // file stayed shown and unchanged for `cleanQuietMs` after that, no publication means no
    // problems. Measured from the load, not from showing it: TypeScript checks a file only after
    // its project loaded, which in a fresh window comes long after the file was shown.
    let loadedAt: number | undefined;
    const cleanAndQuiet = async () => {
      if (!current || this.tracker.publishedAt(key) !== undefined) return false;
      if (loadedAt === undefined) {
        if ((await probeLanguage(document)).state !== 'settled') return false;
        loadedAt = Date.now();
      }
      return Date.now() - Math.max(shownAt, loadedAt, this.tracker.editedAt(key) ?? 0) >= this.cleanQuietMs;
    };
    while (!(fresh() && quiet())) {
      throwIfAborted(ctx.signal);
      if (!fresh() && !shown && !isInTab(document.uri)) {
        shown = true;
        await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, viewColumn: vscode.ViewColumn.Active });
        shownAt = Date.now();
      }
      if (await cleanAndQuiet()) {
        return {
          diagnostics: await toDiagnosticItems(vscode.languages.getDiagnostics(document.uri), key, 0, undefined, ctx.signal),
          freshness: 'settled',
          note: `no diagnostics were ever published for this file; its language support has its project loaded and stayed quiet for ${(this.cleanQuietMs / 1000).toFixed(1)} s while the file was shown (language servers such as TypeScript publish nothing for a file without problems)`,
        };
      }
      // A language that shows it is working (loading its project) gets the longer limit.
      if (!limit.hasSupport && (await probeLanguage(document)).supported) limit.support();
      const left = limit.deadline() - Date.now();
      if (left <= 0) break;
      await this.tracker.nextChange(Math.min(left, !current ? 100 : fresh() ? this.settleMs : 1000), ctx.signal);
      if (!current) current = await onDisk();
    }
    const diagnostics = await toDiagnosticItems(vscode.languages.getDiagnostics(document.uri), key, 0, undefined, ctx.signal);
    if (fresh() && quiet()) return { diagnostics, freshness: 'settled' };
    const secs = Math.round(limit.ms / 1000);
    if (this.tracker.publishedAt(key) === undefined) {
      if (diagnostics.length === 0)
        throw notReady(document, 'no diagnostics were published for this file (and its project did not report loaded)', limit.ms);
      return {
        diagnostics,
        freshness: 'pending',
        note: `no language support published diagnostics for this file within ${secs} s: it may not check ${document.languageId} files, or it is still loading; this is not "no problems". Retry later.`,
      };
    }
    return {
      diagnostics,
      freshness: 'pending',
      note: `analysis of this file was still running after ${secs} s (its text changed, or results kept changing); the list may be incomplete. Ask again.`,
    };
  }

  /**
   * Every problem VS Code holds (`vscode.languages.getDiagnostics()`): only files the language
   * support has analysed. `pending` while diagnostics changed within `settleMs`.
   */
  async workspaceDiagnostics(ctx: FeatureContext): Promise<DiagnosticsAnswer> {
    throwIfAborted(ctx.signal);
    // Hundreds of thousands on a big repository: converted in slices (see toWorkspaceDiagnosticItems).
    const diagnostics = await toWorkspaceDiagnosticItems(vscode.languages.getDiagnostics(), 0, undefined, ctx.signal);
    const last = this.tracker.lastPublished();
    const busy = last !== undefined && Date.now() - last < this.settleMs;
    const scope =
      'it holds the files the language support has analysed (TypeScript checks files open in editors unless its project diagnostics are on); ask for a file by filePath to have it analysed';
    return busy
      ? {
          diagnostics,
          freshness: 'pending',
          note: `diagnostics changed in the last ${this.settleMs} ms: analysis is running, the list may be incomplete; ${scope}`,
        }
      : { diagnostics, freshness: 'settled', note: scope };
  }

  /**
   * `vscode.prepareCallHierarchy` at an LSP position (the document opened first), asked again
   * (the shared loop) while the language's probe says it is loading. An empty answer is final once
   * the project has loaded, or (no signal) when the document has symbols: the language has looked.
   * @throws LspError `file_not_found`, `no_provider` (`reason: 'not_ready'`), `cancelled`.
   */
  async prepare(uri: string, _languageId: string, position: Position, ctx: FeatureContext): Promise<CallItem[]> {
    const document = await openDocument(uri);
    const at = new vscode.Position(position.line, position.character);
    const limit = new CallLimit(this.readyTimeoutMs, this.loadingTimeoutMs);
    const loose = new LooseDocuments();
    const outcome = await askUntilSettled<CallItem[]>({
      deadline: limit.deadline,
      signal: ctx.signal,
      attempt: async () => {
        const before = await probeLanguage(document);
        await loose.seen(document, before, ctx.signal);
        if (before.supported) limit.support();
        const raw = await vscode.commands.executeCommand<unknown>('vscode.prepareCallHierarchy', document.uri, at);
        const items = (Array.isArray(raw) ? raw : raw ? [raw] : [])
          .map((r) => toCallItem(r, 0))
          .filter((i): i is CallItem => i !== undefined);
        const state =
          before.state === 'loading'
            ? 'loading'
            : items.length > 0 || before.state === 'settled' || before.hasSymbols
              ? 'settled'
              : 'loading';
        return { answer: items, state };
      },
    });
    if (outcome.settled || (outcome.answer?.length ?? 0) > 0) return outcome.answer ?? [];
    throw notReady(document, 'no call hierarchy', limit.ms);
  }

  /** `vscode.provideIncomingCalls` on an item this source prepared. */
  incoming(item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    return this.calls('incoming', 'vscode.provideIncomingCalls', item, ctx);
  }

  /** `vscode.provideOutgoingCalls` on an item this source prepared. */
  outgoing(item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    return this.calls('outgoing', 'vscode.provideOutgoingCalls', item, ctx);
  }

  private async calls(direction: 'incoming' | 'outgoing', command: string, item: CallItem, ctx: FeatureContext): Promise<CallEdge[]> {
    throwIfAborted(ctx.signal);
    const answer = await vscode.commands.executeCommand<unknown>(command, item.data);
    return toCallEdges(answer, direction, item.uri, 0, undefined, ctx.signal);
  }
}

function notReady(document: vscode.TextDocument, what: string, ms: number): LspError {
  const ext = /\.[^./]+$/.exec(document.uri.path)?.[0]?.toLowerCase() ?? document.languageId;
  return notReadyError(
    `language support for ${ext} (${document.languageId})`,
    `${what} within ${Math.round(ms / 1000)} s`,
    `Install or enable an extension for ${document.languageId}, wait for it to finish loading and retry`,
    { extension: ext, languageId: document.languageId },
  );
}

/**
 * Register VS Code's language features as the `vscode` source of symbols, diagnostics and call
 * hierarchy in `nav.features`; disposed (with the diagnostics tracker) with the returned Disposable.
 */
export function registerVsCodeFeatures(nav: NavigationContext): vscode.Disposable {
  const tracker = new DiagnosticsTracker();
  const served = (uri: string) => {
    const route = nav.service.providerFor(uri);
    return route?.providerId === VSCODE_PROVIDER_ID ? route.languageId : undefined;
  };
  const workspaceLanguages = new WorkspaceLanguages(served);
  const features = new VsCodeFeatures(tracker, { workspaceLanguages });
  return vscode.Disposable.from(
    tracker,
    workspaceLanguages,
    nav.features.register('symbols', features),
    nav.features.register('diagnostics', features),
    nav.features.register('callHierarchy', features),
  );
}
