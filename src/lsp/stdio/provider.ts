/**
 * The stdio provider on the navigation seam (plain Node, no `vscode` import): one configured
 * language server, started lazily, spoken to over stdin/stdout with the JSON-RPC protocol
 * connection of `vscode-languageserver-protocol` (the layer `vscode-languageclient` is built on and
 * re-exports from `vscode-languageclient/node`; see `./protocol.ts`).
 *
 * Why a protocol connection and not a `LanguageClient`: a `LanguageClient` exists to wire a server
 * into VS Code's feature registry (document sync, providers for every capability); the seam's
 * answers must reach agents only. With the bare connection nothing can be registered into VS Code
 * by construction, and the whole lifecycle runs (and is tested) under plain Node. The seam is
 * LSP-shaped (0-based line, UTF-16 character, URI strings), so answers convert directly.
 *
 * The parts, one per file: the server's lifecycle and crash state (`./lifecycle.ts`), one running
 * server (`./session.ts`) with its client-side handlers (`./clientHandlers.ts`), readiness from
 * work-done progress (`./readiness.ts`), document sync (`./documentSync.ts`) and pushed
 * diagnostics (`./publishedDiagnostics.ts`); the `initialize` request (`./initialize.ts`); the
 * four operations as LSP requests (`./dispatch.ts`); the errors (`./errors.ts`). This file answers
 * queries and feature requests with them, retrying provisional answers until the server is ready.
 */
import { fileURLToPath } from 'node:url';
import { askUntilSettled } from '../askUntilSettled';
import { cancelledError, throwIfAborted } from '../cancellation';
import { NavigationReadError, readNavigationText } from '../fileRead';
import { shapeAnswer } from '../locations';
import { realUri } from '../realUri';
import { fileNotFoundError } from '../sourceErrors';
import { LspError, LspProvider, LspRequest, LspResult } from '../types';
import type { CrashPolicyOptions } from './backoff';
import { DEFAULT_READY_TIMEOUT_MS, StdioServerConfig } from './config';
import { Answer, dispatch, isEmptyAnswer } from './dispatch';
import { failedOnError, notReadyError, stoppedError } from './errors';
import { ServerLifecycle, StdioServerState } from './lifecycle';
import type { ProtocolModule } from './protocol';
import type { ServerSession } from './session';
import { Log, SILENT_LOG } from '../../common/log';

export type { ProtocolModule } from './protocol';
export type { StdioServerState } from './lifecycle';

/** Options of {@link StdioLspProvider}. */
export interface StdioProviderOptions {
  /** The protocol module (see the module comment). */
  readonly protocol: ProtocolModule;
  /** Where the server runs and what `initialize` announces as root: a `file:` workspace folder URI. */
  readonly workspaceUri: string;
  readonly log?: Log;
  /** Crash restarts; see {@link CrashPolicy}. */
  readonly crashPolicy?: CrashPolicyOptions;
  /**
   * Quiet time (ms) after `initialized` (or after the last work-done progress ended) before the
   * server counts as ready when it reports no progress. Default 1000.
   */
  readonly settleMs?: number;
  /** Environment of the server (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Seconds between SIGTERM and SIGKILL of the watchdog when the host dies. Default 2. */
  readonly graceSeconds?: number;
  /**
   * The absolute folders sandboxed commands can write while the agent sandbox is on, undefined
   * while it is off; asked at every start of the server. While on, a server whose program,
   * interpreter or script argument lies in one of them is not started (`./launchGuard.ts`), and
   * its PATH leaves them out. Absent: the sandbox is never on.
   */
  readonly writableWhileSandboxed?: () => Promise<readonly string[] | undefined>;
}

/** Options of {@link StdioLspProvider.featureRequest}. */
export interface FeatureRequest<T> {
  /** The LSP method, e.g. `workspace/symbol`, `textDocument/documentSymbol`. */
  readonly method: string;
  /** The server capability that announces the method (`workspaceSymbolProvider`, …), named in the `unsupported` error. */
  readonly capability: string;
  /** Builds the params (called for each attempt). */
  readonly params: unknown;
  /** A document to open on the server around the request (`didOpen` … `didClose`): its URI and languageId. */
  readonly document?: { readonly uri: string; readonly languageId: string };
  /** True for an answer that says nothing (retried while the server is not ready). */
  readonly isEmpty: (result: T) => boolean;
}

/**
 * A navigation provider backed by a user-configured language server over stdio.
 *
 * - Lazy: the server starts on the first query (under the watchdog of `./watchdog.ts`, cwd = the
 *   workspace folder); {@link stop} ends it and its process group; the next query starts it again.
 * - Per positional request: `textDocument/didOpen` (text read from disk, `languageId` from the
 *   seam's request, version 1) before, `didClose` after (reference-counted between concurrent
 *   queries on the same document).
 * - Readiness: the server is ready once `initialized` was sent, no work-done progress it began is
 *   still running, and `settleMs` passed since the later of the two. An answer received while it is
 *   not ready is provisional (typescript-language-server answers from a syntax-only server while
 *   the project loads, with progress running): the request is asked again with backoff (100 ms
 *   doubling to 1 s, the shared `../askUntilSettled.ts`) until the server is ready or
 *   `readyTimeoutMs` passed. At the bound a non-empty answer is returned marked `provisional`; an empty one -> `LspError` `no_provider`,
 *   `details.reason: 'not_ready'`. An empty answer from a ready server is "no results".
 * - `findReferences` sends `includeDeclaration: true` and marks the locations the definition
 *   request at the same position returns as `isDeclaration` (added when missing).
 * - Crashes (the server exits while not being stopped): restart with {@link CrashPolicy} backoff on
 *   the next query (a query in flight retries within its bound); after too many crashes every query
 *   fails with `provider_failed`, quoting the last stderr lines, until the configuration changes.
 * - Cancellation: the signal sends `$/cancelRequest` and rejects at once with `cancelled`.
 * - Locations: `Location` and `LocationLink` (`targetSelectionRange`, else `targetRange`); `file:`
 *   URIs real-path resolved; `resolvedWorkspaceUri` is the workspace folder's real path.
 */
export class StdioLspProvider implements LspProvider {
  readonly id: string;
  readonly extensions: Readonly<Record<string, string>>;
  private readonly protocol: ProtocolModule;
  private readonly settleMs: number;
  private readonly readyTimeoutMs: number;
  private readonly lifecycle: ServerLifecycle;

  constructor(
    readonly config: StdioServerConfig,
    options: StdioProviderOptions,
  ) {
    this.id = config.id;
    this.extensions = { ...config.extensions };
    this.protocol = options.protocol;
    this.settleMs = options.settleMs ?? 1000;
    this.readyTimeoutMs = config.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    this.lifecycle = new ServerLifecycle(config, {
      protocol: options.protocol,
      workspaceUri: options.workspaceUri,
      log: options.log ?? SILENT_LOG,
      crashPolicy: options.crashPolicy,
      env: options.env,
      graceSeconds: options.graceSeconds,
      writableWhileSandboxed: options.writableWhileSandboxed,
    });
  }

  /** Current lifecycle state. */
  get state(): StdioServerState {
    return this.lifecycle.state;
  }

  /** Why the latest start did not start the server; undefined before any start and once one succeeds (see ServerLifecycle.startError). */
  get startError(): string | undefined {
    return this.lifecycle.startError;
  }

  /** Number of server processes started (for tests and logs). */
  get starts(): number {
    return this.lifecycle.starts;
  }

  /** Process group id of the running server (watchdog, server, its children), if running. */
  get pgid(): number | undefined {
    return this.lifecycle.current?.process.pgid;
  }

  /**
   * Answer one request; see the class comment.
   * @throws LspError `no_provider` (`details.reason: 'not_ready'`; `'start_failed'` when the
   *   command is missing, naming the setting; `'sandbox_writable'` when the agent sandbox is on and
   *   the server would run from a folder sandboxed commands can write, naming the path and folder), `provider_failed` (crashed repeatedly, with
   *   `details.stderr`), `file_not_found`, `cancelled`.
   */
  async query(request: LspRequest, signal: AbortSignal): Promise<LspResult> {
    this.refuseWhenStopped();
    const deadline = Date.now() + this.readyTimeoutMs;
    const text = await readDocument(request.uri);
    const ask = (session: ServerSession) => dispatch(session, this.protocol, request, text, signal);
    const { answer, settled } = await this.askUntilReady(request.operation, deadline, signal, ask, isEmptyAnswer);
    const result = await this.finish(request, answer);
    if (settled || result.kind !== 'locations') return result;
    return {
      ...result,
      provisional: `language server '${this.id}' was still starting or indexing after ${Math.round(this.readyTimeoutMs / 1000)} s: this answer came while it was loading and may be incomplete; ask again later`,
    };
  }

  /**
   * Stop the server: `shutdown` request and `exit` notification (bounded to 1 s), then the process
   * group is ended (SIGTERM, SIGKILL after 2 s). Later queries are refused. Resolves when the
   * server process is gone. Idempotent.
   */
  stop(): Promise<void> {
    return this.lifecycle.stop();
  }

  /** {@link stop} without waiting, for `Disposable` owners. */
  dispose(): void {
    void this.stop();
  }

  // -- features beside the seam (symbols, diagnostics, call hierarchy) --------------------------

  /**
   * Send one feature request (`workspace/symbol`, `textDocument/documentSymbol`,
   * `textDocument/prepareCallHierarchy`, `callHierarchy/*`, `textDocument/diagnostic`, …) with the
   * rules of {@link query}: the server started on demand, the document opened around the request,
   * answers provisional (asked again with backoff) while the server is not ready, within
   * `readyTimeoutMs`; at the bound a non-empty answer is returned, an empty one is `not_ready`.
   * @throws LspError `unsupported` when the server does not announce `capability` (naming the
   *   server and the method), `no_provider` (not ready / start failed), `provider_failed`,
   *   `file_not_found`, `cancelled`.
   */
  async featureRequest<T>(request: FeatureRequest<T>, signal: AbortSignal): Promise<T> {
    this.refuseWhenStopped();
    const deadline = Date.now() + this.readyTimeoutMs;
    const text = request.document ? await readDocument(request.document.uri) : undefined;
    const document = request.document && text !== undefined ? { ...request.document, text } : undefined;
    const ask = (session: ServerSession) => this.send<T>(session, request.method, request.params, document, signal);
    const check = (session: ServerSession) => this.requireCapability(session, request.capability, request.method);
    return (await this.askUntilReady(request.method, deadline, signal, ask, request.isEmpty, check)).answer;
  }

  /**
   * The loop behind {@link query} and {@link featureRequest}, on the shared
   * {@link askUntilSettled}: the server started on demand (restarted within the bound when it goes
   * away during a request), `check` run on it, then asked with `ask`. While the server is not
   * ready (still in its settle time, or a work-done progress is running, e.g.
   * typescript-language-server loading the project after didOpen and answering from its
   * syntax-only server meanwhile) an answer is provisional (`loading`): asked again with backoff
   * (100 ms doubling to 1 s) until ready or `deadline` (ms since the epoch). At the deadline a
   * non-empty answer is returned with `settled: false`.
   * @throws LspError `no_provider` (not ready by the deadline, naming `what`), `provider_failed`
   *   (the request failed on a live server), `cancelled`, or what `check` throws.
   */
  private async askUntilReady<A>(
    what: string,
    deadline: number,
    signal: AbortSignal,
    ask: (session: ServerSession) => Promise<A>,
    isEmpty: (answer: A) => boolean,
    check?: (session: ServerSession) => void,
  ): Promise<{ answer: A; settled: boolean }> {
    const outcome = await askUntilSettled<A>({
      deadline,
      signal,
      attempt: async () => {
        const session = await this.lifecycle.ensureRunning(signal, deadline);
        check?.(session);
        try {
          const answer = await ask(session);
          return { answer, state: this.isReady(session) ? 'settled' : 'loading' };
        } catch (e) {
          if (signal.aborted) throw cancelledError(signal);
          if (!session.closed) throw failedOnError(this.config, what, e);
          return undefined; // the server went away during the request: restart within the bound
        }
      },
    });
    if (outcome.settled) return { answer: outcome.answer, settled: true };
    if (outcome.answer !== undefined && !isEmpty(outcome.answer)) return { answer: outcome.answer, settled: false };
    throw this.notAnswered(what);
  }

  /** True when the running (or next started) server announces `capability`; starts the server. */
  async supports(capability: string, signal: AbortSignal): Promise<boolean> {
    const session = await this.lifecycle.ensureRunning(signal, Date.now() + this.readyTimeoutMs);
    return session.hasCapability(capability);
  }

  /**
   * Diagnostics the server pushes (`textDocument/publishDiagnostics`) for one document: the
   * document is opened on the server, and the answer waits for a publication after the open
   * followed by `quietMs` without another while the server is ready, within `readyTimeoutMs`;
   * then the document is closed. `freshness`: `settled` after that; `pending` when publications
   * came but did not settle; `unknown` when none came.
   */
  async pushedDiagnostics(
    uri: string,
    languageId: string,
    signal: AbortSignal,
    quietMs = 500,
  ): Promise<{ diagnostics: readonly unknown[]; freshness: 'settled' | 'pending' | 'unknown' }> {
    const deadline = Date.now() + this.readyTimeoutMs;
    const text = await readDocument(uri);
    const session = await this.lifecycle.ensureRunning(signal, deadline);
    const openedAt = Date.now();
    await session.documents.acquire(uri, languageId, text);
    let wake: () => void = () => undefined;
    const unlisten = session.diagnostics.listen(() => wake());
    try {
      for (;;) {
        throwIfAborted(signal);
        const last = session.diagnostics.get(uri);
        const heard = last !== undefined && last.at >= openedAt;
        if (heard && this.isReady(session) && Date.now() - last.at >= quietMs)
          return { diagnostics: last.diagnostics, freshness: 'settled' };
        const left = deadline - Date.now();
        if (left <= 0 || session.closed) return { diagnostics: last?.diagnostics ?? [], freshness: heard ? 'pending' : 'unknown' };
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, heard ? quietMs : 200));
          wake = () => (clearTimeout(timer), resolve());
        });
      }
    } finally {
      unlisten();
      await session.documents.release(uri);
    }
  }

  /** Every document's last pushed diagnostics since the server started (non-empty ones). */
  publishedDiagnostics(): Array<{ uri: string; diagnostics: readonly unknown[] }> {
    return (this.lifecycle.current?.diagnostics.all() ?? [])
      .filter((p) => p.diagnostics.length > 0)
      .map((p) => ({ uri: p.uri, diagnostics: p.diagnostics }));
  }

  private requireCapability(session: ServerSession, capability: string, method: string): void {
    if (session.hasCapability(capability)) return;
    throw new LspError(
      'unsupported',
      `language server '${this.id}' does not support ${method} (it does not announce ${capability} in its capabilities)`,
      {
        providerId: this.id,
        method,
        capability,
      },
    );
  }

  private async send<T>(
    session: ServerSession,
    method: string,
    params: unknown,
    document: { uri: string; languageId: string; text: string } | undefined,
    signal: AbortSignal,
  ): Promise<T> {
    if (document) await session.documents.acquire(document.uri, document.languageId, document.text);
    try {
      return await session.withCancellation(signal, (token, guard) => guard(session.connection.sendRequest<T>(method, params, token)));
    } finally {
      if (document) await session.documents.release(document.uri);
    }
  }

  private isReady(session: ServerSession): boolean {
    return session.readiness.isReady(this.settleMs);
  }

  private finish(request: LspRequest, answer: Answer): Promise<LspResult> {
    return shapeAnswer(request, answer, (uri) => realUri(uri, 'keep'));
  }

  private refuseWhenStopped(): void {
    if (this.lifecycle.stopped) throw stoppedError(this.config, 'its configuration changed or the extension is shutting down');
  }

  private notAnswered(what: string): LspError {
    return notReadyError(
      this.config,
      `nothing answered ${what} within ${Math.round(this.readyTimeoutMs / 1000)} s while it was starting or indexing`,
    );
  }
}

/** A document's text for the server, through the navigation read (regular files only, bounded, never blocking). */
async function readDocument(uri: string): Promise<string> {
  const file = fileURLToPath(uri);
  try {
    return (await readNavigationText(file)).text;
  } catch (e) {
    if (e instanceof NavigationReadError) throw new LspError('invalid_request', e.message, { uri, reason: e.reason }, { cause: e });
    throw fileNotFoundError(uri, e);
  }
}
