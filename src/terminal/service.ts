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
 * One concept, the table of sessions and its rules; a published session (its slot and take-over)
 * is `publishedSession.ts`, owners `owner.ts`, background sends `backgroundJobs.ts`.
 */
import { integerProblem } from '../common/integerInput';
import { quoteInput } from '../common/quoteInput';
import type { CommandEvent, CommandRecord, HistoryPage, HistoryRequest } from './history/commandRecord';
import { DEFAULT_TERMINAL_CONFIG } from './config';
import { TerminalBackendCleanupError, TerminalError } from './errors';
import { checkLabel, checkSendInput } from './input/input';
import { checkSignalName } from './input/sendAdmission';
import type { JobOutput } from './session/backgroundJobs';
import { Owner, ServiceOwner } from './owner';
import { PublishedSession, SessionInfo } from './session/publishedSession';
import type { ShellTraps } from './readiness/shellTraps';
import type { SearchRequest, SearchResult } from './output/scrollbackSearch';
import type { ShellNames } from './readiness/shellNames';
import { Disposable, InputReceiver, ReadRequest, ReadResult, ReceiverIdentity, receiverIdentity, SendRequest, SendResult, SignalResult, SpawnSpec, TerminalBackend, WaitRequest } from './types';
import { errorMessage } from '../common/errorMessage';
import type { Log } from '../common/log';
import { inSearchPool } from './output/searchPool';

/** The limits of each owner the service reads at every call (a setting may change them). */
export interface OwnerLimits {
  /** Sessions one owner may have open or opening (setting dsh.terminal.maxSessionsPerOwner). */
  maxSessionsPerOwner: number;
}

/** Where a send would go, read at the moment of asking (for a confirmation). */
export interface SendTarget {
  /** Who would read the input now. */
  receiver: InputReceiver;
  /** The shell's working directory now; when it cannot be read, the one it was opened in. */
  cwd: string;
  /** False when `cwd` is the folder the session was opened in because the current one could not be read. */
  cwdIsCurrent: boolean;
  /**
   * Set when a command may not run in `cwd`: the shell has traps that may run while a command
   * does and change the folder (`set`, with the `trap -p` entries, see `runningTraps`), or
   * it can no longer tell (`unknown`: its PROMPT_COMMAND was replaced). See BackendSession.traps.
   */
  traps?: Exclude<ShellTraps, { kind: 'none' }>;
  /** The aliases and functions the shell defines (shellNames.ts); absent where the backend cannot tell. */
  shellNames?: ShellNames;
}

/**
 * What a send confirmed with `target` passes as `expectReceiver`: the receiver's identity and, when
 * the shell itself reads the input (its prompt or continuation prompt), the folder and traps
 * the confirmation stated, so the send is refused (RECEIVER_CHANGED) if the command would run
 * elsewhere by then: a command confirmed earlier but run first may `cd` or set a trap.
 */
export function confirmedIdentity(target: SendTarget): ReceiverIdentity {
  const identity = receiverIdentity(target.receiver);
  if (target.receiver.kind !== 'shell-prompt' && target.receiver.kind !== 'shell-continuation') return identity;
  return { ...identity, place: { ...(target.cwdIsCurrent ? { cwd: target.cwd } : {}), traps: target.traps ?? { kind: 'none' } } };
}

/** The smallest and largest terminal width (`cols`) and height (`rows`) a session may open with, in cells. */
const MIN_TERMINAL_CELLS = 2;
const MAX_TERMINAL_CELLS = 1000;

/** The longest session name (characters). */
const MAX_NAME_LENGTH = 100;

/**
 * What changed in one of the subscriber's sessions, for views (panel mirrors, status bar). It
 * names the session by id and never carries an owner: a subscriber hears only of its own sessions.
 */
export interface SessionEvent {
  readonly kind: 'opened' | 'closed' | 'changed';
  readonly sessionId: string;
}

/** Options of `close`. */
export interface CloseOptions {
  /**
   * The person confirmed closing a session they have taken over (a modal dialog, or closing its
   * panel terminal and confirming). Without it such a close is refused with TAKEN_OVER.
   */
  userConfirmed?: boolean;
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

  /**
   * @param limits the limits in force, read at each call; default DEFAULT_TERMINAL_CONFIG's
   *   (config.ts). Searches share one pool in every case (output/searchPool.ts).
   * @param defaultBackend the backend type an `open` that names none gets, asked at each open (the
   *   shell choice of shellChoice.ts); default `pty-bash`.
   */
  constructor(
    private readonly log: Log,
    private readonly limits: () => OwnerLimits = () => DEFAULT_TERMINAL_CONFIG,
    private readonly defaultBackend: () => string = () => 'pty-bash',
  ) {}

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
    if (typeof listener !== 'function') throw new TerminalError('INVALID_ARGUMENT', 'onDidChangeSessions(owner, listener): listener must be a function');
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

  /** Ends a take-over: agent sends are accepted again. Returns false if it was not taken over. */
  handBack(owner: Owner, sessionId: string): boolean {
    return this.setTakenOver(this.entry(owner, sessionId), false);
  }

  /**
   * Keystrokes of the person, written to the PTY as they are.
   * @throws TerminalError INVALID_ARGUMENT unless the session is taken over.
   */
  writeUserInput(owner: Owner, sessionId: string, data: string): void {
    const entry = this.entry(owner, sessionId);
    if (!entry.takenOver) throw new TerminalError('INVALID_ARGUMENT', `session ${sessionId} is the agent's; take it over before typing into it`);
    entry.session.writeUserInput(data);
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
    return new ServiceOwner(label, (owner) => void this.closeOwnerSessions(owner));
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
    for (const name of ['cols', 'rows'] as const) {
      const problem = options[name] === undefined ? undefined : integerProblem(options[name], name, MIN_TERMINAL_CELLS, MAX_TERMINAL_CELLS);
      if (problem) throw new TerminalError('INVALID_ARGUMENT', problem);
    }
    if (options.name !== undefined) {
      if (typeof options.name !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'name must be a string');
      // Sized first: nothing is read of a name that cannot be one.
      const length = options.name.length > 2 * MAX_NAME_LENGTH ? options.name.length : [...options.name].length;
      if (length > MAX_NAME_LENGTH) throw new TerminalError('INVALID_ARGUMENT', `name is ${length} ${length === options.name.length ? 'UTF-16 code units' : 'characters'} long; at most ${MAX_NAME_LENGTH} characters`);
      checkLabel(options.name, 'name');
    }
    const type = options.backend ?? this.defaultBackend();
    const backend = this.backends.get(type);
    if (!backend) {
      const known = this.backendTypes();
      throw new TerminalError('NO_SUCH_BACKEND', `no terminal backend of type ${type}; registered: ${known.length ? known.join(', ') : 'none (this platform has no backend that can start)'}`);
    }
    this.checkSessionLimit(o);
    o.pending++;
    o.opening++;
    try {
      const outsideSandbox = grant.outsideSandbox === true;
      const session = await backend.spawn({ cwd: options.cwd, exactCwd: options.exactCwd, env: options.env, cols: options.cols, rows: options.rows, ...(options.shellPath !== undefined ? { shellPath: options.shellPath } : {}), ...(outsideSandbox ? { outsideSandbox } : {}) }, options.signal);
      if (o.disposed) {
        // Create-then-publish: an owner that went away never sees the session; it is closed here.
        const reason = new TerminalError('OWNER_DISPOSED', 'the session owner was disposed while the session was starting');
        try {
          await session.close('owner disposed during spawn');
        } catch (cleanupError) {
          throw new TerminalBackendCleanupError(reason, cleanupError);
        }
        throw reason;
      }
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
   * Refuses a session past the owner's limit: its sessions open (exited ones until closed, which
   * still hold their scrollback) or opening, not those closing.
   * @throws TerminalError LIMIT_REACHED naming the setting, how many are open and what to do.
   */
  private checkSessionLimit(owner: ServiceOwner): void {
    const max = this.limits().maxSessionsPerOwner;
    const open = this.entriesOf(owner).filter((e) => !e.closing).length + owner.opening;
    if (open < max) return;
    throw new TerminalError(
      'LIMIT_REACHED',
      `no session was opened: this caller has ${open} sessions open or opening, and dsh.terminal.maxSessionsPerOwner is ${max}. ` +
        'Use one of them (dsh_terminal_list), or close one (dsh_terminal_close) first, exited ones included; the person can raise the setting',
    );
  }

  /**
   * Who would read a send typed now and the shell's working directory now, both read at the call
   * (for a confirmation shown before the send; pass `confirmedIdentity(target)` as the send's
   * `expectReceiver` so a changed receiver, folder or trap refuses the send).
   */
  sendTarget(owner: Owner, sessionId: string): SendTarget {
    const session = this.entry(owner, sessionId).session;
    const current = session.currentCwd();
    const target: SendTarget = { receiver: session.receiver(), cwd: current ?? session.cwd, cwdIsCurrent: current !== undefined };
    const trap = session.traps?.();
    if (trap && trap.kind !== 'none') target.traps = trap;
    const names = session.shellNames?.();
    if (names) target.shellNames = names;
    return target;
  }

  /** Output shown before the session's first prompt (bounded). */
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
    this.checkSendable(entry, request);
    return this.holdSlot(entry, () => this.withCommand(entry, () => entry.session.send(request)));
  }

  /** Runs a send or wait and sets its result's `command` from the session's command record. */
  private async withCommand(entry: PublishedSession, work: () => Promise<SendResult>): Promise<SendResult> {
    const mark = entry.session.commands.mark();
    const result = await work();
    const command = entry.session.commands.since(mark);
    if (command !== undefined) result.command = command;
    return result;
  }

  /**
   * Types nothing and waits for the running command's next wait reason, or for new output that
   * matches `request.until` (see `BackendSession.wait`). Takes the session's one in-flight slot,
   * as a send does.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, TAKEN_OVER, SESSION_BUSY (a send or
   * wait in flight), NOTHING_TO_WAIT_FOR (the shell is at its prompt), SESSION_EXITED,
   * INVALID_ARGUMENT, CANCELLED (cancelled before the wait started; the command runs on).
   */
  async wait(owner: Owner, sessionId: string, request: WaitRequest = {}): Promise<SendResult> {
    const entry = this.entry(owner, sessionId);
    checkAbortSignal(request.signal);
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
    this.checkSendable(entry, request);
    const jobId = `job-${this.nextJobId++}`;
    entry.jobs.start(
      jobId,
      (listener) => entry.session.onOutput(listener),
      (work) => this.holdSlot(entry, work),
      () => this.withCommand(entry, () => entry.session.send(request)),
    );
    return { jobId };
  }

  /**
   * Read-and-advance: the output of a background job since the previous call. Independent of
   * scrollback pages; concatenated, the texts are the job's output exactly once.
   * @throws TerminalError INVALID_ARGUMENT for an unknown job id (listing the session's jobs).
   */
  output(owner: Owner, sessionId: string, jobId: string): JobOutput {
    return this.entry(owner, sessionId).jobs.output(jobId);
  }

  /**
   * A scrollback page, or with `request.command` a page of that command's output; never waits for a
   * send. Renders on the caller's thread: on the extension host thread, use readAsync.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, INVALID_ARGUMENT (naming the bad field or unknown command).
   */
  read(owner: Owner, sessionId: string, request: ReadRequest = {}): ReadResult {
    return this.entry(owner, sessionId).session.read(request);
  }

  /**
   * As read, with the rendering off the caller's thread (the extension host's): what tools and the
   * extension API use. A session whose renderer thread fails still answers (screenTextThread.ts).
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
   * it (output/searchPool.ts); never waits for a send.
   * @throws TerminalError NO_SUCH_SESSION, NOT_SESSION_OWNER, INVALID_ARGUMENT, LIMIT_REACHED (the
   *   owner has MAX_SEARCHES_PER_OWNER searches in flight).
   */
  search(owner: Owner, sessionId: string, request: SearchRequest): Promise<SearchResult> {
    const entry = this.entry(owner, sessionId);
    return inSearchPool(entry.owner, () => entry.session.search(request));
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
    const entry = this.entry(owner, sessionId);
    if (entry.closing) {
      await entry.closing;
      return false;
    }
    if (entry.takenOver && options.userConfirmed !== true) {
      throw new TerminalError('TAKEN_OVER', `the user has taken over session ${entry.id} and did not confirm closing it; it keeps running. Leave it to them, ask them to close it or hand it back, or use another session`);
    }
    entry.closing = this.teardown(entry, reason);
    return entry.closing;
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
    const closing = [...this.sessions.values()].map((entry) => (entry.closing ??= this.teardown(entry, reason)));
    await Promise.allSettled(closing);
  }

  private async teardown(entry: PublishedSession, reason: string): Promise<boolean> {
    entry.owner.pending++;
    try {
      await entry.session.close(reason);
      this.log.info(`session ${entry.id} closed: ${reason}`);
    } catch (error) {
      this.log.warn(`session ${entry.id} cleanup failed (${reason}): ${errorMessage(error)}`);
      throw error;
    } finally {
      this.sessions.delete(entry.id);
      entry.owner.pending--;
      this.emit('closed', entry);
    }
    return true;
  }

  private async closeOwnerSessions(owner: ServiceOwner): Promise<void> {
    await Promise.allSettled(this.entriesOf(owner).map((e) => (e.closing ??= this.teardown(e, `owner ${owner.label} disposed`))));
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

  private checkSendable(entry: PublishedSession, request: SendRequest): void {
    entry.checkNotTakenOver();
    checkSendInput(request);
    checkAbortSignal(request.signal);
    checkReceiverIdentity(request.expectReceiver, 'expectReceiver');
    // Only the person's own keystrokes (writeUserInput) are recorded as theirs.
    if (request.origin !== undefined && request.origin !== 'agent' && request.origin !== 'dsh_run') {
      throw new TerminalError('INVALID_ARGUMENT', `origin must be "agent" or "dsh_run" (got ${quoteInput(request.origin)})`);
    }
    entry.checkIdle();
    const refusal = entry.session.inputRefusal?.();
    if (refusal) throw refusal;
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
    if (!entry) {
      const mine = this.list(owner).map((s) => `${s.sessionId} (${s.name}, ${s.sessionStatus.kind}${s.busy ? ', busy' : ''})`);
      throw new TerminalError(
        'NO_SUCH_SESSION',
        `no session ${quoteInput(sessionId)}. sessionId is an id returned by dsh_terminal_open, not a command. Valid ids: ${mine.length ? mine.join(', ') : 'none; open one with dsh_terminal_open'}`,
      );
    }
    if (entry.owner !== owner) {
      throw new TerminalError('NOT_SESSION_OWNER', `session ${sessionId} belongs to another owner and cannot be used from here`);
    }
    return entry;
  }

}

/**
 * Refuses a cancellation `signal` option that is not an AbortSignal (left out or null is no
 * cancellation): anything else would fail deep inside a send or a spawn, or be ignored.
 * @throws TerminalError INVALID_ARGUMENT naming what was given and what is valid.
 */
function checkAbortSignal(signal: unknown): void {
  if (signal === undefined || signal === null || signal instanceof AbortSignal) return;
  const given = typeof signal === 'object' || typeof signal === 'function' ? `${Object.prototype.toString.call(signal)} ${quoteInput(signal)}` : quoteInput(signal);
  throw new TerminalError('INVALID_ARGUMENT', `signal must be an AbortSignal (e.g. new AbortController().signal) or left out (got ${given})`);
}

/** The receiver kinds a ReceiverIdentity may name (InputReceiver's). */
const RECEIVER_KINDS: readonly string[] = ['shell-prompt', 'shell-continuation', 'program', 'exited'];

/** What a valid receiver identity is, for the errors of {@link checkReceiverIdentity}. */
const RECEIVER_IDENTITY_SHAPE =
  `an object {kind, processGroup?, process?, place?} as confirmedIdentity(sendTarget(...)) returns it: kind one of ${RECEIVER_KINDS.join(', ')}; ` +
  'processGroup a positive integer; process {pid: a positive integer, startTime, dev?, ino?: integers ≥ 0}; place {cwd?: a string, traps: {kind: "none"} | {kind: "unknown"} | {kind: "set", text: a string}}';

/**
 * Refuses a receiver identity (a send's `expectReceiver`, a signal's `expect`) of the wrong type
 * or shape: compared as it is, it would refuse every send as RECEIVER_CHANGED, or pass one whose
 * place it cannot check. Left out (undefined or null) passes.
 * @param field the input's name in the error.
 * @throws TerminalError INVALID_ARGUMENT naming the part that is wrong, what was given and what is valid.
 */
function checkReceiverIdentity(value: unknown, field: string): asserts value is ReceiverIdentity | undefined | null {
  if (value === undefined || value === null) return;
  const refuse = (what: string, given: unknown): never => {
    throw new TerminalError('INVALID_ARGUMENT', `${what} is not valid (got ${quoteInput(given)}): ${field} must be ${RECEIVER_IDENTITY_SHAPE}`);
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(value)) return refuse(field, value);
  if (typeof value.kind !== 'string' || !RECEIVER_KINDS.includes(value.kind)) refuse(`${field}.kind`, value.kind);
  const group = value.processGroup;
  if (group !== undefined && (typeof group !== 'number' || !Number.isInteger(group) || group < 1)) refuse(`${field}.processGroup`, group);
  const stated = value.process;
  if (stated !== undefined) {
    if (!isObject(stated)) return refuse(`${field}.process`, stated);
    const integer = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min;
    if (!integer(stated.pid, 1)) refuse(`${field}.process.pid`, stated.pid);
    if (!integer(stated.startTime, 0)) refuse(`${field}.process.startTime`, stated.startTime);
    for (const key of ['dev', 'ino'] as const) if (stated[key] !== undefined && !integer(stated[key], 0)) refuse(`${field}.process.${key}`, stated[key]);
  }
  const place = value.place;
  if (place === undefined) return;
  if (!isObject(place)) return refuse(`${field}.place`, place);
  if (place.cwd !== undefined && typeof place.cwd !== 'string') refuse(`${field}.place.cwd`, place.cwd);
  const traps = place.traps;
  const validTraps = isObject(traps) && (traps.kind === 'none' || traps.kind === 'unknown' || (traps.kind === 'set' && typeof traps.text === 'string'));
  if (!validTraps) refuse(`${field}.place.traps`, traps);
}
