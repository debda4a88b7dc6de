/**
 * The terminal operations other extensions get (`exports.terminal`): a frozen object of functions
 * bound to the service by closure. Nothing reachable from it — its properties, their prototypes,
 * what its functions return or throw, the events it delivers — leads to the service, its tables
 * or an owner other than the caller's own: an owner here is an opaque handle (a frozen object
 * with `label`, `disposed` and `dispose()`), mapped to the service's owner in a WeakMap only this
 * module holds. So another extension sees, reads and acts on the sessions it opened, and no other.
 *
 * This is the boundary the API draws, not a sandbox: extensions share one JavaScript realm and
 * one process, so code that patches built-ins or reads the process's file descriptors is out of
 * its reach.
 */
import type { CommandRecord, HistoryPage, HistoryRequest } from './history/commandRecord';
import { TerminalError } from './errors';
import type { SearchRequest, SearchResult } from './output/scrollbackSearch';
import type { JobOutput } from './session/backgroundJobs';
import type { CloseOutcome, OpenOptions, SessionEvent, TerminalService } from './service';
import type { Owner } from './owner';
import type { SessionInfo } from './session/publishedSession';
import type { Disposable, ProcessesReport, ReadRequest, ReadResult, SendRequest, SendResult, SignalResult, WaitRequest } from './types';
import { declareTool, type ToolDeclaration, type ToolInput } from '../tools/declaration';
import { TERMINAL_HISTORY } from '../tools/declarations/terminal';
import { ToolInputError } from '../tools/inputError';
import { validateToolInput } from '../tools/validateInput';

/** An owner as another extension holds it: disposing it closes every session it opened. */
export interface OwnerHandle extends Disposable {
  readonly label: string;
  readonly disposed: boolean;
}

/**
 * What `exports.terminal` offers. Every session call takes the caller's {@link OwnerHandle} first
 * and throws TerminalError (`code` NO_SUCH_SESSION, NOT_SESSION_OWNER, SESSION_BUSY, TAKEN_OVER,
 * INVALID_ARGUMENT, OWNER_DISPOSED, …) as {@link TerminalService} documents.
 */
export interface TerminalApi {
  /** A new owner; `label` (1–100 characters) appears in DSH Bridge's log only. */
  createOwner(label: string): OwnerHandle;
  /** Registered backend types, e.g. `['pty-bash']`; empty where no backend can start. */
  backendTypes(): string[];
  open(owner: OwnerHandle, options?: OpenOptions): Promise<SessionInfo>;
  /** Output the shell printed before its first prompt. */
  motd(owner: OwnerHandle, sessionId: string): string;
  /** Types and waits for a wait reason; the result's `listening` names the sockets the session's processes listen on. */
  send(owner: OwnerHandle, sessionId: string, request: SendRequest): Promise<SendResult>;
  /**
   * Waits without typing for the running command's next wait reason, for output matching `until`,
   * or (`untilListening`: a port, or true for any new one) until a process of the session listens:
   * what `dsh_terminal_wait` does.
   */
  wait(owner: OwnerHandle, sessionId: string, request?: WaitRequest): Promise<SendResult>;
  /**
   * The session's processes other than its shell (background jobs, and those that left its process
   * groups, found by its mark) and the sockets they listen on: what `dsh_terminal_list` shows.
   */
  processes(owner: OwnerHandle, sessionId: string): Promise<ProcessesReport>;
  startBackground(owner: OwnerHandle, sessionId: string, request: SendRequest): { jobId: string };
  /** A background job's output since the previous call, secrets redacted (see TerminalService.output). */
  output(owner: OwnerHandle, sessionId: string, jobId: string): Promise<JobOutput>;
  /**
   * A page of the scrollback, of a command's output or the screen: what `dsh_terminal_read`
   * returns without `search`. Rendered in a worker thread; rejects with the errors of the tool.
   */
  read(owner: OwnerHandle, sessionId: string, request?: ReadRequest): Promise<ReadResult>;
  /**
   * A page of the session's command record, newest first: what `dsh_terminal_history` returns
   * (without the `sessionId` the caller passed). `request` as that tool's input: `offset`,
   * `count` (1–200, default 20), `failed`, `contains`.
   */
  history(owner: OwnerHandle, sessionId: string, request?: HistoryRequest): HistoryPage;
  /** Command `index` of the session's record, as `dsh_terminal_read {command}` returns it in `command`. */
  command(owner: OwnerHandle, sessionId: string, index: number): CommandRecord;
  /**
   * Lines of the scrollback, or of one command's output (`request.command`), that match a literal
   * text or a regular expression, newest first, in a worker thread within `request.timeoutMs`:
   * what `dsh_terminal_read` with `search` returns (without `sessionId` and `command`; the field
   * names of the tool's input, `search` being `pattern` here).
   */
  search(owner: OwnerHandle, sessionId: string, request: SearchRequest): Promise<SearchResult>;
  signal(owner: OwnerHandle, sessionId: string, signal: string): SignalResult;
  /** The caller's own sessions, in the order they were opened. */
  list(owner: OwnerHandle): SessionInfo[];
  /**
   * Ends the session and every process it started (also those that left its process groups);
   * with `keep: true` its background processes keep running. False when it was closed already.
   */
  close(owner: OwnerHandle, sessionId: string, options?: { keep?: boolean }): Promise<boolean>;
  /** As {@link close}, resolving with what was ended and kept (`closed` as close's answer). */
  end(owner: OwnerHandle, sessionId: string, options?: { keep?: boolean }): Promise<CloseOutcome>;
  /**
   * The person's one-line take-over of a session whose program reads with echo off (a password
   * prompt), as the notification's "Answer in Terminal" starts it: agent sends are refused
   * (TAKEN_OVER) until the line is entered. Returns false if the session is already taken over.
   */
  takeOverLine(owner: OwnerHandle, sessionId: string): boolean;
  /**
   * Types `data` as the person during a one-line take-over: written up to its first Enter (`\r` or
   * `\n`), recorded nowhere; the Enter hands the session back to its owner (a `changed` event;
   * `list` shows `takenOver: false`).
   * @throws TerminalError INVALID_ARGUMENT when the session is not in a one-line take-over.
   */
  typeLine(owner: OwnerHandle, sessionId: string, data: string): void;
  /** Events `{kind, sessionId}` of the caller's own sessions only (`secret-prompt`: a program reads with echo off). */
  onDidChangeSessions(owner: OwnerHandle, listener: (event: SessionEvent) => void): Disposable;
  /** Output of one of the caller's sessions as it arrives (raw terminal text). */
  onOutput(owner: OwnerHandle, sessionId: string, listener: (text: string) => void): Disposable;
}

/**
 * Builds the facade over `service`. `prefix` goes before each owner's label in the log.
 * @returns a frozen {@link TerminalApi}.
 */
export function createTerminalApi(service: TerminalService, prefix = 'extension'): TerminalApi {
  const owners = new WeakMap<object, Owner>();
  const real = (handle: unknown): Owner => {
    const owner = typeof handle === 'object' && handle !== null ? owners.get(handle) : undefined;
    if (!owner)
      throw new TerminalError('INVALID_ARGUMENT', 'owner must be a handle returned by exports.terminal.createOwner(label) of this API');
    return owner;
  };
  const disposable = (d: Disposable): Disposable => Object.freeze({ dispose: () => void d.dispose() });
  // Results leave as copies: plain data the caller may keep or change without touching ours.
  const copy = <T>(value: T): T => structuredClone(value);

  return Object.freeze({
    createOwner(label: string): OwnerHandle {
      if (typeof label !== 'string' || !label.trim() || label.length > 100) {
        throw new TerminalError(
          'INVALID_ARGUMENT',
          'createOwner(label): label must be a non-empty string of at most 100 characters, e.g. your extension id',
        );
      }
      const owner = service.createOwner(`${prefix} ${label}`);
      const handle: OwnerHandle = Object.freeze({
        label,
        get disposed() {
          return owner.disposed;
        },
        dispose: () => owner.dispose(),
      });
      owners.set(handle, owner);
      return handle;
    },
    backendTypes: () => service.backendTypes(),
    async open(owner: OwnerHandle, options: OpenOptions = {}) {
      const o = real(owner);
      const spec: OpenOptions = { ...options };
      if (spec.env !== undefined && spec.env !== null) spec.env = { ...spec.env };
      return copy(await service.open(o, spec));
    },
    motd: (owner: OwnerHandle, sessionId: string) => service.motd(real(owner), sessionId),
    async send(owner: OwnerHandle, sessionId: string, request: SendRequest) {
      const o = real(owner);
      return copy(await service.send(o, sessionId, { ...request }));
    },
    async wait(owner: OwnerHandle, sessionId: string, request: WaitRequest = {}) {
      const o = real(owner);
      return copy(await service.wait(o, sessionId, { ...requestObject('wait', request) }));
    },
    async processes(owner: OwnerHandle, sessionId: string) {
      const o = real(owner);
      return copy(await service.processes(o, sessionId));
    },
    startBackground: (owner: OwnerHandle, sessionId: string, request: SendRequest) =>
      copy(service.startBackground(real(owner), sessionId, { ...request })),
    async output(owner: OwnerHandle, sessionId: string, jobId: string) {
      const o = real(owner);
      return copy(await service.output(o, sessionId, jobId));
    },
    async read(owner: OwnerHandle, sessionId: string, request: ReadRequest = {}) {
      const o = real(owner);
      return copy(await service.readAsync(o, sessionId, { ...request }));
    },
    history: (owner: OwnerHandle, sessionId: string, request: HistoryRequest = {}) =>
      copy(service.history(real(owner), sessionId, asDeclared(HISTORY_REQUEST, request))),
    command: (owner: OwnerHandle, sessionId: string, index: number) => copy(service.command(real(owner), sessionId, index)),
    async search(owner: OwnerHandle, sessionId: string, request: SearchRequest) {
      const o = real(owner);
      return copy(await service.search(o, sessionId, { ...requestObject('search', request) }));
    },
    signal: (owner: OwnerHandle, sessionId: string, signal: string) => copy(service.signal(real(owner), sessionId, signal)),
    list: (owner: OwnerHandle) => copy(service.list(real(owner))),
    takeOverLine: (owner: OwnerHandle, sessionId: string) => service.takeOverLine(real(owner), sessionId),
    typeLine(owner: OwnerHandle, sessionId: string, data: string) {
      const o = real(owner);
      if (typeof data !== 'string')
        throw new TerminalError('INVALID_ARGUMENT', 'typeLine(owner, sessionId, data): data must be a string, e.g. "secret\\r"');
      if (!service.info(o, sessionId).lineTakeOver) {
        throw new TerminalError(
          'INVALID_ARGUMENT',
          `typeLine: session ${sessionId} is not in a one-line take-over; start one with takeOverLine(owner, sessionId)`,
        );
      }
      service.writeUserInput(o, sessionId, data);
    },
    async close(owner: OwnerHandle, sessionId: string, options: { keep?: boolean } = {}) {
      const o = real(owner);
      const { keep } = requestObject('close', options);
      return (await service.end(o, sessionId, 'closed through the extension API', keep === undefined ? {} : { keep })).closed;
    },
    async end(owner: OwnerHandle, sessionId: string, options: { keep?: boolean } = {}) {
      const o = real(owner);
      const { keep } = requestObject('end', options);
      return copy(await service.end(o, sessionId, 'closed through the extension API', keep === undefined ? {} : { keep }));
    },
    onDidChangeSessions(owner: OwnerHandle, listener: (event: SessionEvent) => void) {
      const o = real(owner);
      if (typeof listener !== 'function')
        throw new TerminalError('INVALID_ARGUMENT', 'onDidChangeSessions(owner, listener): listener must be a function');
      return disposable(service.onDidChangeSessions(o, (e) => listener(Object.freeze({ kind: e.kind, sessionId: e.sessionId }))));
    },
    onOutput(owner: OwnerHandle, sessionId: string, listener: (text: string) => void) {
      const o = real(owner);
      if (typeof listener !== 'function')
        throw new TerminalError('INVALID_ARGUMENT', 'onOutput(owner, sessionId, listener): listener must be a function');
      return disposable(service.onOutput(o, sessionId, (text) => listener(text)));
    },
  });
}

/**
 * `request` when it is an object (fields are read by the service, which names a bad one).
 * @throws TerminalError INVALID_ARGUMENT for anything else, e.g. a string.
 */
function requestObject<T extends object>(call: string, request: T): T {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    throw new TerminalError('INVALID_ARGUMENT', `${call}(owner, sessionId, request): request must be an object of the tool's input fields`);
  }
  return request;
}

/** `history`'s request: `dsh_terminal_history`'s input without `sessionId` (the call's own argument). */
const HISTORY_REQUEST = declareTool({
  ...TERMINAL_HISTORY,
  name: 'exports.terminal.history',
  input: TERMINAL_HISTORY.input.omit({ sessionId: true }),
  rules: [],
});

/**
 * `request` checked as `declaration` declares it (src/tools/validateInput.ts), as a copy.
 * @throws TerminalError INVALID_ARGUMENT whose message is the tool input error's.
 */
function asDeclared<D extends ToolDeclaration>(declaration: D, request: unknown): ToolInput<D> {
  try {
    return validateToolInput(declaration, request);
  } catch (e) {
    if (e instanceof ToolInputError) throw new TerminalError('INVALID_ARGUMENT', e.message);
    throw e;
  }
}
