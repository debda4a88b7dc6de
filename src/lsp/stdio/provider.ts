/**
 * The stdio provider on the navigation seam (plain Node, no `vscode` import): one configured
 * language server, started lazily, spoken to over stdin/stdout with the JSON-RPC protocol
 * connection of `vscode-languageserver-protocol` (the layer `vscode-languageclient` is built on and
 * re-exports from `vscode-languageclient/node`; the VS Code layer passes that module in, unit tests
 * pass `vscode-languageserver-protocol/node` itself).
 *
 * Why a protocol connection and not a `LanguageClient`: a `LanguageClient` exists to wire a server
 * into VS Code's feature registry (document sync, providers for every capability); the seam's
 * answers must reach agents only. With the bare connection nothing can be registered into VS Code
 * by construction, and the whole lifecycle runs (and is tested) under plain Node. The seam is
 * LSP-shaped (0-based line, UTF-16 character, URI strings), so answers convert directly.
 */
import type { Log } from '../../common/log';
import { fileURLToPath } from 'node:url';
import type * as Protocol from 'vscode-languageserver-protocol/node';
import { NavigationReadError, readNavigationText } from '../fileRead';
import { abortableSleep, cancelledError, raceAbort, throwIfAborted } from '../cancellation';
import { shapeAnswer, toNavLocations } from '../locations';
import { flattenHover } from '../hoverText';
import { LspError, LspProvider, LspRequest, LspResult, NavLocation, assertNever } from '../types';
import { realUri } from '../realUri';
import { uriKey } from '../uri';
import { CrashPolicy, CrashPolicyOptions } from './backoff';
import { DEFAULT_READY_TIMEOUT_MS, SERVERS_SETTING, StdioServerConfig } from './config';
import { CommandNotFoundError, GuardedProcess, spawnGuarded } from './watchdog';

/** The part of `vscode-languageserver-protocol/node` (equally `vscode-languageclient/node`) this provider uses. */
export type ProtocolModule = Pick<
  typeof Protocol,
  | 'createProtocolConnection'
  | 'StreamMessageReader'
  | 'StreamMessageWriter'
  | 'CancellationTokenSource'
  | 'InitializeRequest'
  | 'InitializedNotification'
  | 'ShutdownRequest'
  | 'ExitNotification'
  | 'DidOpenTextDocumentNotification'
  | 'DidCloseTextDocumentNotification'
  | 'DefinitionRequest'
  | 'ReferencesRequest'
  | 'ImplementationRequest'
  | 'HoverRequest'
  | 'WorkDoneProgress'
  | 'WorkDoneProgressCreateRequest'
>;

/** A log sink (a `vscode.LogOutputChannel` fits). */
export type StdioLog = Log;

/** Options of {@link StdioLspProvider}. */
export interface StdioProviderOptions {
  /** The protocol module (see the module comment). */
  readonly protocol: ProtocolModule;
  /** Where the server runs and what `initialize` announces as root: a `file:` workspace folder URI. */
  readonly workspaceUri: string;
  readonly log?: StdioLog;
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
}

/** The lifecycle state, for tests and the effective-configuration view. */
export type StdioServerState = 'idle' | 'starting' | 'running' | 'backoff' | 'failed' | 'stopped';

interface Running {
  readonly process: GuardedProcess;
  readonly connection: Protocol.ProtocolConnection;
  /** Resolves when `initialized` was sent; rejects when start failed. */
  readonly initialized: Promise<void>;
  initializedAt?: number;
  /** Work-done progress tokens begun and not ended. */
  readonly activeProgress: Set<string | number>;
  lastProgressEnd?: number;
  /** Documents open on the server, with how many queries use each. */
  readonly open: Map<string, number>;
  closed: boolean;
  /** What the server said it can do (`InitializeResult.capabilities`). */
  capabilities?: Record<string, unknown>;
  /** The last `textDocument/publishDiagnostics` per document (by `uriKey`), with when it arrived (ms). */
  readonly published: Map<string, { readonly uri: string; readonly diagnostics: readonly unknown[]; readonly at: number }>;
  /** Called on every `publishDiagnostics`. */
  readonly onPublish: Set<() => void>;
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
 *   doubling to 1 s) until the server is ready or `readyTimeoutMs` passed. At the bound a non-empty
 *   answer is returned as it is; an empty one -> `LspError` `no_provider`,
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
  private readonly log: StdioLog;
  private readonly policy: CrashPolicy;
  private readonly settleMs: number;
  private readonly readyTimeoutMs: number;
  private running: Running | undefined;
  private starting: Promise<Running> | undefined;
  private restartAt = 0;
  private lastCrash: { code: number | null; signal: string | null; stderr: string[] } | undefined;
  private stopped = false;
  private _state: StdioServerState = 'idle';
  /** Number of server processes started (for tests and logs). */
  starts = 0;

  constructor(
    readonly config: StdioServerConfig,
    private readonly options: StdioProviderOptions,
  ) {
    this.id = config.id;
    this.extensions = { ...config.extensions };
    this.protocol = options.protocol;
    this.log = options.log ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
    this.policy = new CrashPolicy(options.crashPolicy);
    this.settleMs = options.settleMs ?? 1000;
    this.readyTimeoutMs = config.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  }

  /** Current lifecycle state. */
  get state(): StdioServerState {
    return this._state;
  }

  /** Process group id of the running server (watchdog, server, its children), if running. */
  get pgid(): number | undefined {
    return this.running?.process.pgid;
  }

  /**
   * Answer one request; see the class comment.
   * @throws LspError `no_provider` (`details.reason: 'not_ready'`; or `'start_failed'` when the
   *   command is missing, naming the setting), `provider_failed` (crashed repeatedly, with
   *   `details.stderr`), `file_not_found`, `cancelled`.
   */
  async query(request: LspRequest, signal: AbortSignal): Promise<LspResult> {
    if (this.stopped) throw new LspError('no_provider', `language server '${this.id}' was stopped (its configuration changed or the extension is shutting down); retry`, { providerId: this.id, reason: 'not_ready' });
    const deadline = Date.now() + this.readyTimeoutMs;
    const filePath = fileURLToPath(request.uri);
    let text: string;
    try {
      text = (await readNavigationText(filePath)).text;
    } catch (e) {
      if (e instanceof NavigationReadError) throw new LspError('invalid_request', e.message, { uri: request.uri, reason: e.reason }, { cause: e });
      throw new LspError('file_not_found', `cannot read ${filePath}: ${(e as Error).message}`, { uri: request.uri }, { cause: e });
    }
    let delay = 100;
    for (;;) {
      throwIfAborted(signal);
      const running = await this.ensureRunning(signal, deadline);
      let answer: Answer | undefined;
      try {
        answer = await this.ask(running, request, text, signal);
      } catch (e) {
        if (signal.aborted) throw cancelledError(signal);
        if (!running.closed) throw this.failure(request, e);
        // The server went away during the request: loop, restart within the bound.
      }
      // While the server is not ready (still in its settle time, or a work-done progress is
      // running, e.g. typescript-language-server loading the project after didOpen and answering
      // from its syntax-only server meanwhile) an answer is provisional: ask again once ready.
      if (answer && this.isReady(running)) return this.finish(request, answer);
      const left = deadline - Date.now();
      if (left <= 0) {
        if (answer && !isEmpty(answer)) return this.finish(request, answer);
        break;
      }
      await abortableSleep(Math.min(delay, left), signal);
      delay = Math.min(delay * 2, 1000);
    }
    throw this.notReady(request);
  }

  /**
   * Stop the server: `shutdown` request and `exit` notification (bounded to 1 s), then the process
   * group is ended (SIGTERM, SIGKILL after 2 s). Later queries are refused. Resolves when the
   * server process is gone. Idempotent.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this._state = 'stopped';
    const starting = this.starting;
    const running = this.running ?? (await starting?.catch(() => undefined));
    this.running = undefined;
    if (running) await this.end(running);
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
    if (this.stopped) throw new LspError('no_provider', `language server '${this.id}' was stopped (its configuration changed or the extension is shutting down); retry`, { providerId: this.id, reason: 'not_ready' });
    const deadline = Date.now() + this.readyTimeoutMs;
    const text = request.document ? await readDocument(request.document.uri) : undefined;
    let delay = 100;
    for (;;) {
      throwIfAborted(signal);
      const running = await this.ensureRunning(signal, deadline);
      this.requireCapability(running, request.capability, request.method);
      let answer: { value: T } | undefined;
      try {
        answer = { value: await this.send<T>(running, request.method, request.params, request.document && text !== undefined ? { ...request.document, text } : undefined, signal) };
      } catch (e) {
        if (signal.aborted) throw cancelledError(signal);
        if (!running.closed) throw new LspError('provider_failed', `language server '${this.id}' failed on ${request.method}: ${e instanceof Error ? e.message : String(e)}`, { providerId: this.id }, { cause: e });
      }
      if (answer && this.isReady(running)) return answer.value;
      const left = deadline - Date.now();
      if (left <= 0) {
        if (answer && !request.isEmpty(answer.value)) return answer.value;
        break;
      }
      await abortableSleep(Math.min(delay, left), signal);
      delay = Math.min(delay * 2, 1000);
    }
    throw this.notReadyFor(`nothing answered ${request.method} within ${Math.round(this.readyTimeoutMs / 1000)} s while it was starting or indexing`);
  }

  /** True when the running (or next started) server announces `capability`; starts the server. */
  async supports(capability: string, signal: AbortSignal): Promise<boolean> {
    const running = await this.ensureRunning(signal, Date.now() + this.readyTimeoutMs);
    return hasCapability(running, capability);
  }

  /**
   * Diagnostics the server pushes (`textDocument/publishDiagnostics`) for one document: the
   * document is opened on the server, and the answer waits for a publication after the open
   * followed by `quietMs` without another while the server is ready, within `readyTimeoutMs`;
   * then the document is closed. `freshness`: `settled` after that; `pending` when publications
   * came but did not settle; `unknown` when none came.
   */
  async pushedDiagnostics(uri: string, languageId: string, signal: AbortSignal, quietMs = 500): Promise<{ diagnostics: readonly unknown[]; freshness: 'settled' | 'pending' | 'unknown' }> {
    const deadline = Date.now() + this.readyTimeoutMs;
    const text = await readDocument(uri);
    const running = await this.ensureRunning(signal, deadline);
    const key = uriKey(uri);
    const openedAt = Date.now();
    await this.openDocument(running, uri, languageId, text);
    let wake: () => void = () => undefined;
    const onPublish = () => wake();
    running.onPublish.add(onPublish);
    try {
      for (;;) {
        throwIfAborted(signal);
        const last = running.published.get(key);
        const heard = last !== undefined && last.at >= openedAt;
        if (heard && this.isReady(running) && Date.now() - last.at >= quietMs) return { diagnostics: last.diagnostics, freshness: 'settled' };
        const left = deadline - Date.now();
        if (left <= 0 || running.closed) return { diagnostics: last?.diagnostics ?? [], freshness: heard ? 'pending' : 'unknown' };
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, heard ? quietMs : 200));
          wake = () => (clearTimeout(timer), resolve());
        });
      }
    } finally {
      running.onPublish.delete(onPublish);
      await this.closeDocument(running, uri);
    }
  }

  /** Every document's last pushed diagnostics since the server started (non-empty ones). */
  publishedDiagnostics(): Array<{ uri: string; diagnostics: readonly unknown[] }> {
    return [...(this.running?.published.values() ?? [])].filter((p) => p.diagnostics.length > 0).map((p) => ({ uri: p.uri, diagnostics: p.diagnostics }));
  }

  private requireCapability(running: Running, capability: string, method: string): void {
    if (hasCapability(running, capability)) return;
    throw new LspError('unsupported', `language server '${this.id}' does not support ${method} (it does not announce ${capability} in its capabilities)`, {
      providerId: this.id,
      method,
      capability,
    });
  }

  private async send<T>(running: Running, method: string, params: unknown, document: { uri: string; languageId: string; text: string } | undefined, signal: AbortSignal): Promise<T> {
    if (document) await this.openDocument(running, document.uri, document.languageId, document.text);
    const source = new this.protocol.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await raceAbort(
        Promise.race([
          running.connection.sendRequest<T>(method, params, source.token),
          running.process.exited.then(() => {
            throw new Error('the server exited');
          }),
        ]),
        signal,
      );
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
      if (document) await this.closeDocument(running, document.uri);
    }
  }

  // -- lifecycle -------------------------------------------------------------------------------

  private async ensureRunning(signal: AbortSignal, deadline: number): Promise<Running> {
    if (this.running && !this.running.closed) return this.running;
    if (this.policy.failed) throw this.crashedError();
    if (!this.starting) {
      const wait = this.restartAt - Date.now();
      if (wait > 0) {
        if (Date.now() + wait > deadline) throw this.notReadyFor(`restarting after a crash in ${Math.ceil(wait / 1000)} s`);
        this._state = 'backoff';
        await abortableSleep(wait, signal);
        if (this.running && !this.running.closed) return this.running;
      }
      if (this.stopped) throw new LspError('no_provider', `language server '${this.id}' was stopped; retry`, { providerId: this.id, reason: 'not_ready' });
      this.starting ??= this.start().finally(() => (this.starting = undefined));
    }
    const starting = this.starting!;
    return await raceAbort(starting, signal);
  }

  private async start(): Promise<Running> {
    this._state = 'starting';
    const cwd = fileURLToPath(this.options.workspaceUri);
    let proc: GuardedProcess;
    try {
      proc = spawnGuarded(this.config.command, this.config.args, { cwd, env: this.options.env, graceSeconds: this.options.graceSeconds });
    } catch (e) {
      this._state = 'idle';
      const why = e instanceof CommandNotFoundError ? e.message : (e as Error).message;
      this.log.error(`lsp '${this.id}': cannot start: ${why}`);
      throw new LspError(
        'no_provider',
        `language server '${this.id}' could not start: ${why}. Fix "command" of the entry with id '${this.id}' in the setting ${SERVERS_SETTING} (an absolute path, or a program on PATH), or install the server.`,
        { providerId: this.id, reason: 'start_failed', setting: SERVERS_SETTING, command: this.config.command },
        { cause: e },
      );
    }
    this.starts++;
    const P = this.protocol;
    const connection = P.createProtocolConnection(new P.StreamMessageReader(proc.child.stdout!), new P.StreamMessageWriter(proc.child.stdin!));
    const running: Running = {
      process: proc,
      connection,
      initialized: Promise.resolve(),
      activeProgress: new Set(),
      open: new Map(),
      closed: false,
      published: new Map(),
      onPublish: new Set(),
    };
    this.log.info(`lsp '${this.id}': started ${this.config.command} ${this.config.args.join(' ')} (pid ${proc.child.pid})`);

    connection.onRequest(P.WorkDoneProgressCreateRequest.type, ({ token }: Protocol.WorkDoneProgressCreateParams) => {
      connection.onProgress(P.WorkDoneProgress.type, token, (value: Protocol.WorkDoneProgressBegin | Protocol.WorkDoneProgressReport | Protocol.WorkDoneProgressEnd) => {
        if (value.kind === 'begin') running.activeProgress.add(token);
        else if (value.kind === 'end') {
          running.activeProgress.delete(token);
          running.lastProgressEnd = Date.now();
        }
      });
      return null;
    });
    connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
    connection.onRequest('workspace/workspaceFolders', () => [{ uri: this.options.workspaceUri, name: cwd.split('/').pop() ?? cwd }]);
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('window/showMessageRequest', () => null);
    connection.onRequest('window/showDocument', () => ({ success: false }));
    connection.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'DSH Bridge applies no edits' }));
    connection.onNotification('window/logMessage', () => undefined);
    connection.onNotification('window/showMessage', (p: { message?: string }) => this.log.info(`lsp '${this.id}': ${p.message ?? ''}`));
    connection.onNotification('textDocument/publishDiagnostics', (p: { uri?: unknown; diagnostics?: unknown }) => {
      if (typeof p?.uri !== 'string') return;
      let key: string;
      try {
        key = uriKey(p.uri);
      } catch {
        return;
      }
      running.published.set(key, { uri: p.uri, diagnostics: Array.isArray(p.diagnostics) ? p.diagnostics : [], at: Date.now() });
      running.onPublish.forEach((f) => f());
    });
    connection.onNotification('telemetry/event', () => undefined);
    connection.onError(() => undefined);
    connection.onClose(() => (running.closed = true));
    connection.listen();

    void proc.exited.then(({ code, signal }) => {
      running.closed = true;
      connection.dispose();
      if (this.running === running) this.running = undefined;
      if (this.stopped || (running as { ending?: boolean }).ending) return;
      const stderr = proc.stderrTail();
      this.lastCrash = { code, signal, stderr };
      const decision = this.policy.crashed();
      if (decision.restart) {
        this.restartAt = Date.now() + decision.delayMs;
        this._state = 'backoff';
        this.log.warn(`lsp '${this.id}': server exited (code ${code}, signal ${signal}); crash ${decision.crashes}, restart in ${decision.delayMs} ms on the next query. stderr: ${stderr.slice(-5).join(' | ')}`);
      } else {
        this._state = 'failed';
        this.log.error(`lsp '${this.id}': server crashed ${decision.crashes} times within ${this.policy.windowMs / 1000} s; not restarting. stderr: ${stderr.slice(-5).join(' | ')}`);
      }
    });

    const init = (async () => {
      const params: Protocol.InitializeParams = {
        processId: process.pid,
        clientInfo: { name: 'DSH Bridge' },
        rootUri: this.options.workspaceUri,
        rootPath: cwd,
        workspaceFolders: [{ uri: this.options.workspaceUri, name: cwd.split('/').pop() ?? cwd }],
        initializationOptions: this.config.initializationOptions,
        capabilities: {
          general: { positionEncodings: ['utf-16'] },
          window: { workDoneProgress: true },
          workspace: { workspaceFolders: true, configuration: true, symbol: { dynamicRegistration: false } },
          textDocument: {
            synchronization: { dynamicRegistration: false },
            definition: { linkSupport: true },
            implementation: { linkSupport: true },
            references: {},
            hover: { contentFormat: ['markdown', 'plaintext'] },
            documentSymbol: { hierarchicalDocumentSymbolSupport: true },
            callHierarchy: { dynamicRegistration: false },
            diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
            publishDiagnostics: { relatedInformation: false },
          },
        },
      };
      const result = await Promise.race([
        connection.sendRequest(P.InitializeRequest.type, params),
        proc.exited.then(({ code, signal }) => {
          throw new Error(`the server exited during initialize (code ${code}, signal ${signal})`);
        }),
      ]);
      running.capabilities = ((result as { capabilities?: Record<string, unknown> } | undefined)?.capabilities ?? {}) as Record<string, unknown>;
      await connection.sendNotification(P.InitializedNotification.type, {});
      running.initializedAt = Date.now();
    })();
    try {
      await init;
    } catch (e) {
      // Crash accounting happens in the exit handler; a server that is alive but failed to
      // initialize is ended here.
      if (!running.closed) {
        (running as { ending?: boolean }).ending = true;
        await this.end(running);
      } else {
        await new Promise((r) => setImmediate(r));
      }
      if (this.policy.failed) throw this.crashedError();
      const stderr = proc.stderrTail();
      throw this.notReadyFor(`initialize failed: ${(e as Error).message}${stderr.length ? `; stderr: ${stderr.slice(-5).join(' | ')}` : ''}`);
    }
    if (this.stopped) {
      await this.end(running);
      throw new LspError('no_provider', `language server '${this.id}' was stopped; retry`, { providerId: this.id, reason: 'not_ready' });
    }
    this.running = running;
    this._state = 'running';
    return running;
  }

  private async end(running: Running): Promise<void> {
    (running as { ending?: boolean }).ending = true;
    if (!running.closed) {
      try {
        await withTimeout(running.connection.sendRequest(this.protocol.ShutdownRequest.type), 1000);
        await running.connection.sendNotification(this.protocol.ExitNotification.type);
      } catch {
        // ended below either way
      }
    }
    await running.process.kill(2000);
    running.connection.dispose();
    this.log.info(`lsp '${this.id}': stopped`);
  }

  private isReady(running: Running): boolean {
    if (running.initializedAt === undefined || running.activeProgress.size > 0) return false;
    const since = Math.max(running.initializedAt, running.lastProgressEnd ?? 0);
    return Date.now() - since >= this.settleMs;
  }

  // -- requests --------------------------------------------------------------------------------

  private async ask(running: Running, request: LspRequest, text: string, signal: AbortSignal): Promise<Answer> {
    const P = this.protocol;
    const uri = request.uri;
    const textDocument = { uri };
    const position = { line: request.position.line, character: request.position.character };
    await this.openDocument(running, uri, request.languageId, text);
    const source = new P.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    const send = <R>(p: Promise<R>) =>
      raceAbort(
        Promise.race([
          p,
          running.process.exited.then(() => {
            throw new Error('the server exited');
          }),
        ]),
        signal,
      );
    try {
      const op = request.operation;
      switch (op) {
        case 'goToDefinition':
          return { locations: toNavLocations(await send(running.connection.sendRequest(P.DefinitionRequest.type, { textDocument, position }, source.token))) };
        case 'goToImplementation':
          return { locations: toNavLocations(await send(running.connection.sendRequest(P.ImplementationRequest.type, { textDocument, position }, source.token))) };
        case 'findReferences': {
          const [refs, defs] = await Promise.all([
            send(running.connection.sendRequest(P.ReferencesRequest.type, { textDocument, position, context: { includeDeclaration: true } }, source.token)),
            send(running.connection.sendRequest(P.DefinitionRequest.type, { textDocument, position }, source.token)),
          ]);
          return { locations: toNavLocations(refs), definitions: toNavLocations(defs) };
        }
        case 'hover': {
          const h = await send(running.connection.sendRequest(P.HoverRequest.type, { textDocument, position }, source.token));
          return { hover: flattenHover(h ? (h as Protocol.Hover).contents : null) };
        }
        default:
          return assertNever(op);
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
      await this.closeDocument(running, uri);
    }
  }

  private async openDocument(running: Running, uri: string, languageId: string, text: string): Promise<void> {
    const n = running.open.get(uri) ?? 0;
    running.open.set(uri, n + 1);
    if (n === 0) await running.connection.sendNotification(this.protocol.DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
  }

  private async closeDocument(running: Running, uri: string): Promise<void> {
    const n = (running.open.get(uri) ?? 1) - 1;
    if (n > 0) {
      running.open.set(uri, n);
      return;
    }
    running.open.delete(uri);
    if (running.closed) return;
    try {
      await running.connection.sendNotification(this.protocol.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    } catch {
      // the server went away; nothing to close
    }
  }

  private finish(request: LspRequest, answer: Answer): Promise<LspResult> {
    return shapeAnswer(request, answer, (uri) => realUri(uri, 'keep'));
  }


  // -- errors ----------------------------------------------------------------------------------

  private notReady(request: LspRequest): LspError {
    return this.notReadyFor(`nothing answered ${request.operation} within ${Math.round(this.readyTimeoutMs / 1000)} s while it was starting or indexing`);
  }

  private notReadyFor(why: string): LspError {
    const exts = Object.keys(this.extensions).join(', ');
    return new LspError(
      'no_provider',
      `language support for ${exts} (language server '${this.id}') is not available or not ready: ${why}. Wait and retry; this is not the same as "no results".`,
      { providerId: this.id, extensions: Object.keys(this.extensions), reason: 'not_ready' },
    );
  }

  private crashedError(): LspError {
    const c = this.lastCrash;
    const stderr = c?.stderr ?? [];
    return new LspError(
      'provider_failed',
      `language server '${this.id}' failed: it crashed ${this.policy.recentCrashes()} times within ${Math.round(this.policy.windowMs / 1000)} s (last exit code ${c?.code ?? 'none'}, signal ${c?.signal ?? 'none'}) and is not restarted until ${SERVERS_SETTING} changes.` +
        (stderr.length > 0 ? ` Last stderr lines:\n${stderr.slice(-10).join('\n')}` : ' It wrote nothing to stderr.'),
      { providerId: this.id, reason: 'crashed', stderr, setting: SERVERS_SETTING },
    );
  }

  private failure(request: LspRequest, e: unknown): LspError {
    const message = e instanceof Error ? e.message : String((e as { message?: unknown })?.message ?? e);
    return new LspError('provider_failed', `language server '${this.id}' failed on ${request.operation}: ${message}`, { providerId: this.id }, { cause: e });
  }
}

interface Answer {
  readonly locations?: readonly NavLocation[];
  readonly definitions?: readonly NavLocation[];
  readonly hover?: string | null;
}

function isEmpty(a: Answer): boolean {
  if (a.hover !== undefined) return a.hover === null;
  return (a.locations?.length ?? 0) === 0 && (a.definitions?.length ?? 0) === 0;
}

/** True when the server's capabilities announce `name` (present and not `false`). */
function hasCapability(running: Running, name: string): boolean {
  const v = running.capabilities?.[name];
  return v !== undefined && v !== null && v !== false;
}

/** A document's text for the server, through the navigation read (regular files only, bounded, never blocking), with `query`'s errors. */
async function readDocument(uri: string): Promise<string> {
  const file = fileURLToPath(uri);
  try {
    return (await readNavigationText(file)).text;
  } catch (e) {
    if (e instanceof NavigationReadError) throw new LspError('invalid_request', e.message, { uri, reason: e.reason }, { cause: e });
    throw new LspError('file_not_found', `cannot read ${file}: ${(e as Error).message}`, { uri }, { cause: e });
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer));
}
