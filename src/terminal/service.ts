/**
 * `TerminalService`: session identity over replaceable backends (the terminal seam).
 * - Mints ids `pty-1`, `pty-2`, …; callers never supply one.
 * - Every call names its owner, an `Owner` object from `createOwner()`; the exact object that
 *   opened a session is the only one that can use it. Unknown id → `NO_SUCH_SESSION` (listing
 *   the caller's sessions), another owner's → `NOT_SESSION_OWNER`.
 * - Create-then-publish: a session is published only after its backend spawned it and while its
 *   owner is alive; otherwise the half-made session is closed.
 * - One send or wait in flight per session; read and signal never queue behind it.
 * - A session leaves the table only after its backend is quiet. Disposing an owner closes its
 *   sessions; nothing else does, so sessions outlive a reload of the tool layer. A session the
 *   person has taken over closes only with their confirmation.
 * - Events go only to subscriptions of the session's owner and carry ids, never owners. Other
 *   extensions get `terminalApi.ts`'s facade, never this object.
 * One concept, the table of sessions and its rules; a published session (its slot, take-over and send check)
 * is `publishedSession.ts`, owners `owner.ts`, background sends `backgroundJobs.ts`.
 */
import { quoteInput } from '../common/quoteInput';
import type { CommandEvent, CommandRecord, HistoryPage, HistoryRequest } from './history/commandRecord';
import { DEFAULT_TERMINAL_CONFIG } from './config';
import { TerminalError } from './errors';
import { checkSignalName } from './input/sendAdmission';
import type { JobOutput } from './session/backgroundJobs';
import { KeptProcesses } from './session/keptProcesses';
import { SessionClosing, closeUnpublished, type CloseOptions, type CloseOutcome } from './sessionClosing';
import { PROCESSES_UNAVAILABLE } from './session/sessionProcesses';
import { Owner, ServiceOwner } from './owner';
import { PublishedSession, SessionInfo, noSuchSessionError } from './session/publishedSession';
import type { SearchRequest, SearchResult } from './output/scrollbackSearch';
import {
  Disposable,
  ProcessesReport,
  ReadRequest,
  ReadResult,
  ReceiverIdentity,
  SendRequest,
  SendResult,
  SignalResult,
  SpawnSpec,
  TerminalBackend,
  WaitRequest,
} from './types';
import { errorMessage } from '../common/errorMessage';
import { checkAbortSignal, checkUntilListening } from './requestChecks';
import { checkOpenOptions } from './openOptionsCheck';
import type { Log } from '../common/log';
import { OwnerLimits, sessionLimitError } from './ownerLimits';
import { spawnTurn } from './session/spawnTurns';
import { checkReceiverIdentity } from './input/receiverIdentityCheck';

import type { SendTarget } from './sendTarget';
export { confirmedIdentity, type SendTarget } from './sendTarget';
import { sendTargetOf } from './sendTarget';
export type { CloseOptions, CloseOutcome } from './sessionClosing';

/**
 * What changed in one of the subscriber's sessions, for views (panel mirrors, status bar). It
 * names the session by id and never carries an owner: a subscriber hears only of its own sessions.
 */
export interface SessionEvent {
  /** `secret-prompt`: a send or wait ended with a program reading with echo off (the person must answer it). */
  readonly kind: 'opened' | 'closed' | 'changed' | 'secret-prompt';
  readonly sessionId: string;
}

/** Options of `open`. */
export interface OpenOptions extends Omit<SpawnSpec, 'outsideSandbox'> {
  /** Backend type (`pty-bash`, `pty-zsh`); default: the service's `defaultBackend`. */
  backend?: string;
  /** Display name; metadata only, never used in a check. Default: the id. */
  name?: string;
  signal?: AbortSignal;
}

export class TerminalService implements Disposable {
  private readonly backends = new Map<string, TerminalBackend>();
  private readonly sessions = new Map<string, PublishedSession>();
  /** Subscriptions, each bound to the owner whose sessions it hears of. */
  private readonly listeners = new Set<{ owner: ServiceOwner; listener: (event: SessionEvent) => void }>();
  private nextId = 1;
  private nextJobId = 1;
  /** Processes closes left running on purpose, for the person to list and stop. */
  readonly kept = new KeptProcesses();
  /** Closing sessions: the keep policy, the teardown, what was kept. */
  private readonly closing: SessionClosing;

  /**
   * @param limits the limits in force, read at each call; default DEFAULT_TERMINAL_CONFIG's
   *   (config.ts). Searches and `until` matches share the backends' pool (output/matchPool.ts), by owner.
   * @param defaultBackend the backend type an `open` that names none gets, asked at each open (the
   *   shell choice of shellChoice.ts); default `pty-bash`.
   */
  constructor(
    private readonly log: Log,
    private readonly limits: () => OwnerLimits = () => DEFAULT_TERMINAL_CONFIG,
    private readonly defaultBackend: () => string = () => 'pty-bash',
  ) {
    this.closing = new SessionClosing({ sessions: this.sessions, kept: this.kept, log, emit: (kind, entry) => this.emit(kind, entry) });
  }

  /**
   * Adds a backend. The disposer removes exactly this registration (a later one of the same type
   * stays). Existing sessions of the backend keep running.
   * @throws TerminalError BACKEND_REGISTRATION for an empty or already registered type.
   */
  registerBackend(backend: TerminalBackend): Disposable {
    if (typeof backend.type !== 'string' || !backend.type.trim()) {
      throw new TerminalError('BACKEND_REGISTRATION', 'a terminal backend needs a non-empty type');
    }
    if (this.backends.has(backend.type)) {
      throw new TerminalError('BACKEND_REGISTRATION', `a terminal backend of type ${backend.type} is already registered`);
    }
    this.backends.set(backend.type, backend);
    return {
      dispose: () => {
        if (this.backends.get(backend.type) === backend) this.backends.delete(backend.type);
      },
    };
  }

  /** Registered backend types, in registration order. */
  backendTypes(): string[] {
    return [...this.backends.keys()];
  }

  /**
   * Subscribes to events of `owner`'s own sessions: opened (after publication), changed (a send
   * started or ended, the shell exited, a take-over began or ended), closed (after removal). Each
   * event is a fresh `{kind, sessionId}`; other owners' sessions are never reported.
   * @throws TerminalError INVALID_ARGUMENT unless `owner` came from `createOwner()` and `listener`
   *   is a function; OWNER_DISPOSED for a disposed owner.
   */
  onDidChangeSessions(owner: Owner, listener: (event: SessionEvent) => void): Disposable {
    const subscription = { owner: this.checkOwner(owner), listener };
    if (typeof listener !== 'function')
      throw new TerminalError('INVALID_ARGUMENT', 'onDidChangeSessions(owner, listener): listener must be a function');
    this.listeners.add(subscription);
    return { dispose: () => void this.listeners.delete(subscription) };
  }

  /**
   * The person takes the session over: from now on agent sends and signals are refused with
   * TAKEN_OVER until `handBack`; `writeUserInput` types into it. Returns false if already taken.
   */
  takeOver(owner: Owner, sessionId: string): boolean {
    return this.setTakenOver(this.entry(owner, sessionId), true);
  }

  /**
   * The person takes the session over for one line: the answer to a program that reads with echo off
   * (a password prompt). As `takeOver`, but what they type is recorded nowhere (no command record,
   * no log) and the session goes back to the agent by itself once they press Enter. Returns false
   * if the session is already taken over.
   */
  takeOverLine(owner: Owner, sessionId: string): boolean {
    const entry = this.entry(owner, sessionId);
    if (entry.takenOver) return false;
    entry.lineTakeOver = true;
    return this.setTakenOver(entry, true);
  }

  /** Ends a take-over: agent sends are accepted again. Returns false if it was not taken over. */
  handBack(owner: Owner, sessionId: string): boolean {
    return this.setTakenOver(this.entry(owner, sessionId), false);
  }

  /**
   * Keystrokes of the person, written to the PTY as they are. In a one-line take-over
   * (`takeOverLine`) they are written up to the first Enter (CR or LF), recorded nowhere, and the
   * Enter hands the session back; keys after it in the same `data` are dropped.
   * @throws TerminalError INVALID_ARGUMENT unless the session is taken over.
   */
  writeUserInput(owner: Owner, sessionId: string, data: string): void {
    const entry = this.entry(owner, sessionId);
    if (entry.writeUserInput(data)) this.setTakenOver(entry, false);
  }

  /**
   * Streams a session's output as it arrives (see `BackendSession.onOutput`); for views that
   * mirror the terminal. The text stays in memory.
   */
  onOutput(owner: Owner, sessionId: string, listener: (text: string) => void): Disposable {
    return this.entry(owner, sessionId).session.onOutput(listener);
  }

  /**
   * Streams a session's command boundaries in order with its output (see `BackendSession.onCommand`);
   * for views that mark commands in the terminal.
   */
  onCommand(owner: Owner, sessionId: string, listener: (event: CommandEvent) => void): Disposable {
    return this.entry(owner, sessionId).session.onCommand(listener);
  }

  /** A new owner. `label` appears in logs only. */
  createOwner(label: string): Owner {
    return new ServiceOwner(label, (owner) => void this.closing.closeAll(`owner ${owner.label} disposed`, this.entriesOf(owner)));
  }

  /** True from the start of a spawn to the end of a close of any of the owner's sessions. */
  hasOwnerActivity(owner: Owner): boolean {
    return (owner as ServiceOwner).pending > 0 || this.entriesOf(owner).length > 0;
  }

  /**
   * Starts a session and publishes it under a fresh id. `grant.outsideSandbox`: the person
   * confirmed this session outside the agent sandbox (the tool layer's confirmation; the facade
   * other extensions get never passes a grant); the backend still applies the policy's rule.
   * @throws TerminalError INVALID_ARGUMENT (a bad name, `cols` or `rows` not an integer in
   *   2..1000, a cancellation signal that is not an AbortSignal), NO_SUCH_BACKEND, OWNER_DISPOSED, or the backend's spawn error
   *   (SANDBOX_REQUIRED when a grant is not allowed by the policy in force); LIMIT_REACHED, before
   *   anything starts, when the owner has dsh.terminal.maxSessionsPerOwner sessions open or opening.
   */
  async open(owner: Owner, options: OpenOptions = {}, grant: { outsideSandbox?: boolean } = {}): Promise<SessionInfo> {
    const o = this.checkOwner(owner);
    checkAbortSignal(options.signal);
    checkOpenOptions(options);
    const type = options.backend ?? this.defaultBackend();
    const backend = this.backends.get(type);
    if (!backend) {
      const known = this.backendTypes();
      throw new TerminalError(
        'NO_SUCH_BACKEND',
        `no terminal backend of type ${type}; registered: ${known.length ? known.join(', ') : 'none (this platform has no backend that can start)'}`,
      );
    }
    // Past the owner's limit (its sessions open, exited ones until closed, or opening; not those
    // closing) the open is refused before anything starts.
    const refusal = this.sessionLimitRefusal(o);
    if (refusal) throw refusal;
    o.pending++;
    o.opening++;
    try {
      // Counted as opening from here: a refusal of another open is decided at once (above).
      await spawnTurn();
      const outsideSandbox = grant.outsideSandbox === true;
      const session = await backend.spawn(
        {
          cwd: options.cwd,
          exactCwd: options.exactCwd,
          env: options.env,
          cols: options.cols,
          rows: options.rows,
          ...(options.shellPath !== undefined ? { shellPath: options.shellPath } : {}),
          ...(outsideSandbox ? { outsideSandbox } : {}),
          poolKey: o,
        },
        options.signal,
      );
      // Create-then-publish: an owner that went away never sees the session; it is closed here.
      if (o.disposed) throw await closeUnpublished(session);
      const id = `pty-${this.nextId++}`;
      const entry = new PublishedSession(id, options.name?.trim() || id, o, type, session);
      this.sessions.set(id, entry);
      session.onExit(() => this.emit('changed', entry));
      this.emit('opened', entry);
      this.log.info(`session ${id} opened (${type}) for ${o.label}`);
      return entry.info();
    } finally {
      o.pending--;
      o.opening--;
    }
  }

  /**
   * The refusal an open by `owner` would get now (LIMIT_REACHED naming the setting, how many are
   * open and what to do), counting
   * `admitted` more opens as opening (calls a tool admitted that have not reached `open` yet);
   * undefined when it would be let through. Reads no file: a caller decides before any await.
   */
  sessionLimitRefusal(owner: Owner, admitted = 0): TerminalError | undefined {
    const o = this.checkOwner(owner);
    const max = this.limits().maxSessionsPerOwner;
    const open = this.entriesOf(o).filter((e) => !e.closing).length + o.opening + admitted;
    return open >= max ? sessionLimitError(open, max) : undefined;
  }

  /**
   * Who would read a send typed now and the shell's working directory now, both read at the call
   * (for a confirmation shown before the send; pass `confirmedIdentity(target)` as the send's
   * `expectReceiver` so a changed receiver, folder or trap refuses the send).
   */
  sendTarget(owner: Owner, sessionId: string): SendTarget {
    return sendTargetOf(this.entry(owner, sessionId).session);
  }

  /** Output shown before the session's first prompt (bounded), redacted as every text an agent reads. */
  motd(owner: Owner, sessionId: string): string {
    return this.entry(owner, sessionId).session.motd;
  }

  /**
   * Types text or presses keys (exactly one of `input` and `keys`, see input.ts) and waits for a
   * wait reason. One send in flight per session.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, SESSION_BUSY, SESSION_EXITED,
   * INVALID_ARGUMENT (naming a refused character or key, a cancellation signal that is not an
   * AbortSignal, a malformed expectReceiver), RECEIVER_CHANGED, CANCELLED (cancelled before
   * anything was typed), SANDBOX_REQUIRED (a session outside the agent sandbox while the sandbox
   * is on, see `BackendSession.inputRefusal`).
   */
  async send(owner: Owner, sessionId: string, request: SendRequest): Promise<SendResult> {
    const entry = this.entry(owner, sessionId);
    const typed = entry.checkSendable(request);
    return this.holdSlot(entry, () => this.withCommand(entry, () => entry.session.send(request, typed)));
  }

  /**
   * Runs a send or wait and sets its result's `command` from the session's command record, and
   * `listening` from the sockets its processes listen on (a look at the shell's descendants, off
   * this thread).
   */
  private async withCommand(entry: PublishedSession, work: () => Promise<SendResult>): Promise<SendResult> {
    const mark = entry.session.commands.mark();
    const result = await work();
    const command = entry.session.commands.since(mark);
    if (command !== undefined) result.command = command;
    // A program reads a secret with echo off: the person is asked to answer it (agentTerminals.ts).
    if (result.echoOff) this.emit('secret-prompt', entry);
    if (result.waitReason !== 'session_exit') {
      const listening = await entry.session.listening?.().catch(() => undefined);
      if (listening?.length) result.listening = listening;
    }
    return result;
  }

  /**
   * The session's processes other than its shell and the sockets they listen on. With `scan`
   * every process of the machine is looked at for the session's mark (off this thread, bounded in
   * time), so processes that left the shell's tree (setsid, a daemon) are found; else the shell's
   * descendants and the processes found before. `available: false` without /proc.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER.
   */
  async processes(owner: Owner, sessionId: string, scan = true): Promise<ProcessesReport> {
    const session = this.entry(owner, sessionId).session;
    if (!session.processes) return { available: false, reason: PROCESSES_UNAVAILABLE };
    return session.processes(scan);
  }

  /**
   * Sets whether a close that does not say (`CloseOptions.keep`), an owner's disposal and
   * {@link closeAll} keep the sessions' background processes running: read at each close (the
   * vscode layer follows `chat.tools.terminal.detachBackgroundProcesses`). Default: never.
   */
  setKeepByDefault(policy: () => boolean): void {
    this.closing.setKeepByDefault(policy);
  }

  /**
   * Types nothing and waits for the running command's next wait reason, or for new output that
   * matches `request.until` (see `BackendSession.wait`). Takes the session's one in-flight slot,
   * as a send does.
   * With `request.untilListening` it also returns once a process of the session listens on that
   * port (or any new one), and may start at the shell's prompt (see WaitRequest.untilListening).
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, TAKEN_OVER, SESSION_BUSY (a send or
   * wait in flight), NOTHING_TO_WAIT_FOR (the shell is at its prompt, without untilListening), SESSION_EXITED,
   * INVALID_ARGUMENT, CANCELLED (cancelled before the wait started; the command runs on).
   */
  async wait(owner: Owner, sessionId: string, request: WaitRequest = {}): Promise<SendResult> {
    const entry = this.entry(owner, sessionId);
    checkAbortSignal(request.signal);
    checkUntilListening(request.untilListening);
    entry.checkNotTakenOver();
    entry.checkIdle();
    return this.holdSlot(entry, () => this.withCommand(entry, () => entry.session.wait(request)));
  }

  /**
   * Runs `work` holding the session's one in-flight slot (a send or a wait): `busy` in listings and
   * a `changed` event when it is taken and when it is released, however `work` settles.
   */
  private async holdSlot<T>(entry: PublishedSession, work: () => Promise<T>): Promise<T> {
    entry.sending = true;
    this.emit('changed', entry);
    try {
      return await work();
    } finally {
      entry.sending = false;
      this.emit('changed', entry);
    }
  }

  /**
   * Starts a send and returns at once with a job id; the send holds the session like any send
   * until it has a wait reason. Read its output with `output`.
   * @throws TerminalError as `send` does, before anything is written.
   */
  startBackground(owner: Owner, sessionId: string, request: SendRequest): { jobId: string } {
    const entry = this.entry(owner, sessionId);
    const typed = entry.checkSendable(request);
    const jobId = `job-${this.nextJobId++}`;
    entry.jobs.start(
      jobId,
      (listener) => entry.session.onOutput(listener),
      (work) => this.holdSlot(entry, work),
      () => this.withCommand(entry, () => entry.session.send(request, typed)),
    );
    return { jobId };
  }

  /**
   * Read-and-advance: the output of a background job since the previous call, secrets redacted.
   * Independent of scrollback pages; concatenated, the texts are the job's output exactly once.
   * @throws TerminalError INVALID_ARGUMENT for an unknown job id (listing the session's jobs).
   */
  async output(owner: Owner, sessionId: string, jobId: string): Promise<JobOutput> {
    const entry = this.entry(owner, sessionId);
    return entry.jobs.output(jobId, (text) => entry.session.redactor.redact(text));
  }

  /**
   * A scrollback page, or with `request.command` a page of that command's output; never waits for a
   * send. The person's view (the panel's backlog): not redacted, rendered on the caller's thread.
   * What an agent reads is readAsync.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, INVALID_ARGUMENT (naming the bad field or unknown command).
   */
  read(owner: Owner, sessionId: string, request: ReadRequest = {}): ReadResult {
    return this.entry(owner, sessionId).session.read(request);
  }

  /**
   * As read, with the rendering off the caller's thread (the extension host's) and secrets redacted:
   * what tools and the extension API use. A session whose renderer thread fails still answers
   * (screenTextThread.ts).
   * @throws TerminalError as read (the promise rejects).
   */
  async readAsync(owner: Owner, sessionId: string, request: ReadRequest = {}): Promise<ReadResult> {
    return this.entry(owner, sessionId).session.readAsync(request);
  }

  /**
   * A page of the session's command record, newest first (commandHistory.ts); never waits for a send.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, INVALID_ARGUMENT.
   */
  history(owner: Owner, sessionId: string, request: HistoryRequest = {}): HistoryPage {
    return this.entry(owner, sessionId).session.commands.page(request);
  }

  /**
   * The record of command `index` of the session.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, INVALID_ARGUMENT (not recorded).
   */
  command(owner: Owner, sessionId: string, index: number): CommandRecord {
    return this.entry(owner, sessionId).session.commands.get(index);
  }

  /**
   * Searches the session's scrollback, or one command's output (scrollbackSearch.ts), in a worker
   * thread within the request's time bound, once the pool every caller shares has a worker free for
   * it (output/matchPool.ts, shared by owner: the session's spawn named it); never waits for a send.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, INVALID_ARGUMENT, LIMIT_REACHED (the
   *   owner has MAX_SEARCHES_PER_OWNER searches in flight).
   */
  search(owner: Owner, sessionId: string, request: SearchRequest): Promise<SearchResult> {
    const entry = this.entry(owner, sessionId);
    return entry.session.search(request);
  }

  /**
   * Delivers an allow-listed signal to the session's verified foreground process group.
   * @param expect the receiver a person confirmed (from {@link sendTarget}); see `BackendSession.signal`.
   * @throws TerminalError INVALID_ARGUMENT for a signal outside ALLOWED_SIGNALS or a malformed
   *   `expect` (see {@link checkReceiverIdentity}); RECEIVER_CHANGED
   *   when `expect` is given and another process group is in the foreground now.
   */
  signal(owner: Owner, sessionId: string, signal: string, expect?: ReceiverIdentity): SignalResult {
    const entry = this.entry(owner, sessionId);
    checkSignalName(signal);
    checkReceiverIdentity(expect, 'expect');
    entry.checkNotTakenOver();
    return entry.session.signal(signal, expect);
  }

  /**
   * Resolves once a signal delivered to the session has taken effect (see
   * `BackendSession.settled`, at most 2 s), so what `sendTarget` reports next is where input
   * would go after it.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER.
   */
  async settled(owner: Owner, sessionId: string): Promise<void> {
    await this.entry(owner, sessionId).session.settled();
  }

  /** Snapshot of the owner's sessions in publish order (exited ones included until closed). */
  list(owner: Owner): SessionInfo[] {
    return this.entriesOf(owner).map((e) => e.info());
  }

  /**
   * One of the owner's sessions now, as `list` shows it (a {@link SessionInfo}: id, name, backend,
   * cwd, status, busy and its foreground command, take-over, sandbox, input refusal), read from
   * that session alone: where a caller knows the id, the owner's other sessions are not looked at.
   * @throws TerminalError NO_SUCH_SESSION (listing the caller's sessions), NOT_SESSION_OWNER,
   *   OWNER_DISPOSED, INVALID_ARGUMENT (an owner not from `createOwner`): as `read` does.
   */
  info(owner: Owner, sessionId: string): SessionInfo {
    return this.entry(owner, sessionId).info();
  }

  /**
   * As {@link info}, but undefined where `sessionId` names none of the owner's sessions (unknown,
   * or another owner's): for views that show a session while it is there, without the listing of
   * every session that NO_SUCH_SESSION's message costs.
   * @throws TerminalError OWNER_DISPOSED, INVALID_ARGUMENT (an owner not from `createOwner`).
   */
  find(owner: Owner, sessionId: string): SessionInfo | undefined {
    this.checkOwner(owner);
    const entry = this.sessions.get(sessionId);
    return entry?.owner === owner ? entry.info() : undefined;
  }

  /**
   * Ends the session and every process in it; resolves true once the backend is quiet and the
   * session left the table, false when it was already closed by an earlier call.
   * @throws TerminalError TAKEN_OVER for a session the person has taken over, unless
   *   `options.userConfirmed` (their shell and what runs in it are theirs until they hand it back).
   */
  async close(owner: Owner, sessionId: string, reason = 'closed by its owner', options: CloseOptions = {}): Promise<boolean> {
    return (await this.end(owner, sessionId, reason, options)).closed;
  }

  /**
   * As {@link close}, saying what the close ended and kept (processes left running are recorded in
   * {@link kept} for the person).
   * @throws TerminalError as close; INVALID_ARGUMENT for a `keep` that is not a boolean.
   */
  async end(owner: Owner, sessionId: string, reason = 'closed by its owner', options: CloseOptions = {}): Promise<CloseOutcome> {
    const entry = this.entry(owner, sessionId);
    if (options.keep !== undefined && typeof options.keep !== 'boolean')
      throw new TerminalError('INVALID_ARGUMENT', `keep must be true or false, or left out (got ${quoteInput(options.keep)})`);
    if (entry.closing) {
      await entry.closing;
      return { closed: false };
    }
    if (entry.takenOver && options.userConfirmed !== true) {
      throw new TerminalError(
        'TAKEN_OVER',
        `the user has taken over session ${entry.id} and did not confirm closing it; it keeps running. Leave it to them, ask them to close it or hand it back, or use another session`,
      );
    }
    entry.closing = this.closing.teardown(entry, reason, options.keep);
    return { closed: true, ...(await entry.closing) };
  }

  /** Closes every session of every owner, without waiting; see {@link closeAll} to wait. */
  dispose(): void {
    void this.closeAll('service disposed');
  }

  /**
   * Closes every session of every owner and resolves once each backend brought its processes to
   * rest (for pty-bash: SIGHUP, then SIGKILL, within CLOSE_MAX_MS of ptyBash.ts) or reported that
   * it could not; a failure is logged, never thrown. Sessions already closing are waited for too.
   */
  async closeAll(reason: string): Promise<void> {
    await this.closing.closeAll(reason, [...this.sessions.values()]);
  }

  private setTakenOver(entry: PublishedSession, value: boolean): boolean {
    if (!entry.setTakenOver(value, this.log)) return false;
    this.emit('changed', entry);
    return true;
  }

  private emit(kind: SessionEvent['kind'], entry: PublishedSession): void {
    for (const { owner, listener } of [...this.listeners]) {
      if (owner !== entry.owner) continue;
      try {
        listener(Object.freeze({ kind, sessionId: entry.id }));
      } catch (error) {
        this.log.warn(`session event listener failed: ${errorMessage(error)}`);
      }
    }
  }

  private entriesOf(owner: Owner): PublishedSession[] {
    return [...this.sessions.values()].filter((e) => e.owner === owner);
  }

  private checkOwner(owner: Owner): ServiceOwner {
    if (!(owner instanceof ServiceOwner)) throw new TerminalError('INVALID_ARGUMENT', 'owner must come from TerminalService.createOwner()');
    if (owner.disposed) throw new TerminalError('OWNER_DISPOSED', `owner ${owner.label} is disposed`);
    return owner;
  }

  private entry(owner: Owner, sessionId: string): PublishedSession {
    this.checkOwner(owner);
    const entry = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
    if (!entry) throw noSuchSessionError(sessionId, this.list(owner));
    if (entry.owner !== owner) {
      throw new TerminalError('NOT_SESSION_OWNER', `session ${sessionId} belongs to another owner and cannot be used from here`);
    }
    return entry;
  }
}
