/**
 * Public shapes of the terminal seam. No `vscode` import: this runs under plain Node.
 *
 * Vocabulary: a *session* is one shell on one PTY; its *owner* is the exact object that opened it;
 * the *foreground process group* is the PTY's `tpgid` (see termios(3), `tcgetpgrp`); *scrollback*
 * is the bounded history of lines the PTY produced, with our own prompt markers removed.
 */
import type { ShellTraps } from './readiness/shellTraps';
import type { ShellNames } from './readiness/shellNames';
import type { CheckedSendInput } from './input/input';
import type { Disposable } from '../common/disposable';
import type { SandboxSummary } from './sandbox/policy';
import type { CommandHistory } from './history/commandHistory';
import type { CommandEvent, CommandOrigin } from './history/commandRecord';
import type { SearchRequest, SearchResult } from './output/scrollbackSearch';
import type { TerminalError } from './errors';
import type { ForegroundProcess, InputReceiver, ReceiverIdentity } from './input/receiver';
import type { SecretRedactor } from './secrets/secretRedactor';
import type { ListeningSocket } from '../proc/listeningSockets';
import type { ProcessesReport, SessionProcess } from './session/sessionProcesses';

export type { ListeningSocket, ProcessesReport, SessionProcess };

/**
 * Why a send returned. Only `stdin_read` with `waiting: 'shell-prompt'` means "the command
 * finished and the shell is at its prompt".
 * - `stdin_read`: something is provably waiting for input on this session's terminal: the shell's
 *   controlled prompt (or its continuation prompt), or a program blocked reading the tty.
 * - `inferred_idle`: no output for longer than the quiet threshold; nothing is known to be reading.
 * - `timeout`: the absolute `timeoutMs` of the send elapsed; the command keeps running.
 * - `session_exit`: the shell process exited.
 * - `output_match`: (waits only) new output matched the wait's `until` pattern; the command runs on.
 * - `port_listening`: (waits only) a process of the session listens on the port the wait's
 *   `untilListening` named (or on a new one); `listened` names it.
 */
export type WaitReason = 'stdin_read' | 'inferred_idle' | 'timeout' | 'session_exit' | 'output_match' | 'port_listening';

/** Lifecycle state of a session's shell process. `signal` is a name such as `SIGKILL`. */
export type SessionStatus = { kind: 'running' } | { kind: 'exited'; exitCode: number | null; signal: string | null };

/**
 * What is waiting for input when `waitReason` is `stdin_read`:
 * - `shell-prompt`: the shell printed its controlled prompt; the last command finished.
 * - `shell-continuation`: the shell waits for the rest of a command (open quote, heredoc: PS2).
 * - `program-input`: a program in the foreground process group is blocked reading the terminal.
 */
export type Waiting = 'shell-prompt' | 'shell-continuation' | 'program-input';

export type { ForegroundProcess, InputReceiver, ReceiverIdentity, ReceiverProcess, StatedPlace, StatedProcess } from './input/receiver';
export { receiverIdentity } from './input/receiver';

/** How readiness was established for a send: with the Linux /proc probe, or without any probe. */
export type ProbeAvailability = 'linux-proc' | 'unavailable';

/**
 * Input of one send: exactly one of `input` and `keys` (see input.ts for what each may hold).
 */
export interface SendRequest {
  /**
   * Text to type: printable characters, newlines and tabs (CR LF counts as a newline); controls
   * and bidirectional controls are refused. A trailing newline is appended when missing. Where
   * bash's line editor receives it (the shell at its prompt or continuation prompt), it is typed
   * as one bracketed paste into an emptied line, so nothing in it acts as an editing key.
   */
  input?: string;
  /** Keys to press, by name (`Enter`, `Up`, `Ctrl-C`, or one printable character); nothing is appended. */
  keys?: string[];
  /**
   * The receiver a person confirmed (from `receiver()`): when the receiver is another one at the
   * moment of writing, the send is refused with RECEIVER_CHANGED and nothing is typed.
   */
  expectReceiver?: ReceiverIdentity;
  /** Absolute time limit in ms, armed when the send starts. Defaults to the configured value. */
  timeoutMs?: number;
  /**
   * Aborting once the input was written sends SIGINT to the foreground process group; the send
   * then settles as usual. Aborted before the write (already when the send is made, or while it
   * is admitted), nothing is typed and the send fails with CANCELLED.
   */
  signal?: AbortSignal;
  /** Who the command record (commandRecord.ts) says typed it: `agent` by default, or `dsh_run`. */
  origin?: Exclude<CommandOrigin, 'user'>;
  /**
   * Who let this input run, as the command record and the panel's status line name it
   * (`rule "git status"`, `you`); absent: not said.
   */
  approvedBy?: string;
}

/**
 * Input of one wait: nothing is typed; it returns at the running command's next wait reason, as
 * a send would, or when new output matches `until`.
 */
export interface WaitRequest {
  /** Absolute time limit in ms, armed when the wait starts. Defaults to the configured value. */
  timeoutMs?: number;
  /** Return with `output_match` once the output since the wait began matches (see untilPattern.ts). */
  until?: RegExp;
  /**
   * Return with `port_listening` once a process of the session listens on this port (TCP LISTEN or
   * a bound, unconnected UDP socket, any address), or with `true` on any port none listened on when
   * the wait began. Such a wait may start at the shell's prompt (the server runs in the background);
   * it then ends only for the port, its timeout or the shell's exit. It never ends as
   * `inferred_idle`: a server waiting for connections is quiet. Linux /proc only (else
   * INVALID_ARGUMENT).
   */
  untilListening?: number | true;
  /**
   * Aborting once the wait started sends SIGINT to the foreground process group, as for a send;
   * the wait then settles as usual. Aborted before it started (already when the wait is made, or
   * while it settles a signal delivered before it), nothing is interrupted, the command runs on
   * and the wait fails with CANCELLED.
   */
  signal?: AbortSignal;
}

/** What one send (or wait) returns. Text is the send's *viewport*: the output it caused, bounded. */
export interface SendResult {
  waitReason: WaitReason;
  sessionStatus: SessionStatus;
  /**
   * Exit status of the last command, present when the shell is back at its controlled prompt and
   * the command ended (not when it was stopped: see `stopped`).
   */
  exitCode?: number;
  /**
   * With the shell back at its prompt: the command was stopped, not ended, by this signal
   * (`SIGTSTP` for Ctrl-Z, `SIGSTOP`, `SIGTTIN`, `SIGTTOU`); it keeps its processes and state, and
   * `fg` continues it (its record's state is `stopped`, see commandRecord.ts). Absent otherwise.
   */
  stopped?: string;
  waiting?: Waiting;
  /** The process that is waiting or running, when known (absent when the shell exited). */
  foreground?: ForegroundProcess;
  /**
   * True when the program waiting for input reads with echo off (a password prompt): the person
   * must answer it (a send of text into it is refused with PERSON_MUST_ANSWER).
   */
  echoOff?: boolean;
  /** With `echoOff`: what to do (the person answers; wait for it with dsh_terminal_wait, and how long). */
  guidance?: string;
  /** True while a full-screen program holds the alternate screen. */
  alternateScreen?: boolean;
  /** With `output_match`: the text the `until` pattern matched (at most 200 characters). */
  match?: string;
  /** With `port_listening`: the socket that answered the wait's `untilListening`. */
  listened?: ListeningSocket;
  /**
   * Sockets the session's processes listen on when the send returned (absent when none, or without
   * /proc), from its shell's descendants and the processes found before; see dsh_terminal_list for
   * processes that left the shell's tree since.
   */
  listening?: ListeningSocket[];
  /** The viewport text: output of this send, our markers and the echoed command removed. */
  output: string;
  /** True when the viewport lost its oldest part to `maxReadBytes`. */
  truncated: boolean;
  /** Bytes (UTF-8) dropped from the viewport's oldest end; read the scrollback to see them. */
  droppedBytes: number;
  /**
   * True when rendering the viewport was cut short to keep the extension host responsive: past its
   * time budget the rest of `output` follows a line RENDER_LIMIT_NOTICE as plain text (escape
   * sequences removed, redraws not applied), or a repeat (REP) of a many-unit character was
   * shortened. Nothing is dropped; the raw text is in the scrollback (read with `raw: true`).
   */
  renderLimited?: true;
  probe: ProbeAvailability;
  /** Wall time of the send in ms. */
  durationMs: number;
  /**
   * Index of the command this result belongs to in the session's command record: the newest one
   * the shell started during the send, else the one running when it began (input to a program, a
   * wait). Absent when no command ran (keys at the prompt, a line the shell refused to parse).
   */
  command?: number;
}

/**
 * A page request. Coordinates count lines back from the newest: line 0 is the newest line.
 * The page covers `[offset, offset + count)` in those coordinates and is returned oldest first.
 */
export interface ReadRequest {
  /** Lines back from the newest line where the page ends (0 = include the newest). Default 0. */
  offset?: number;
  /** Lines requested; a request only: the byte cap wins. Default 500. */
  count?: number;
  /**
   * Default false: the text a person would have seen (rendered by a terminal emulator: colour and
   * cursor escapes applied and removed, carriage-return redraws collapsed, wrapping undone). True:
   * the lines as the PTY produced them, escapes included. Our markers are absent from both.
   */
  raw?: boolean;
  /**
   * True: ignore offset/count and return the terminal's visible screen (`rows` lines at most) as
   * text, e.g. what a full-screen program (vim, less) shows on the alternate screen.
   */
  screen?: boolean;
  /**
   * A command's index in the session's command record: the page is of that command's retained
   * output, `offset` and `count` counted within it (0 = its newest line); not with `screen`.
   */
  command?: number;
}

/** A page of scrollback. `[lineBegin, lineEnd)` is in the same newest-first coordinates as offset. */
export interface ReadResult {
  offset: number;
  lineBegin: number;
  lineEnd: number;
  /** Lines retained now (the scrollback's size, not the number ever produced). */
  totalLines: number;
  /** Absolute, stable number (0-based, counted since the session opened) of the page's oldest line. */
  firstLineNumber: number;
  /** True when the byte cap cut the page (its oldest lines or the oldest part of a long line). */
  truncated: boolean;
  /**
   * The page's lines joined by `\n`, oldest first. Lines are counted as the PTY produced them;
   * in rendered text (not `raw`) a cursor-addressed redraw may merge or blank some of them. A line
   * longer than the scrollback's line limit is stored as several lines, each but the last ending
   * with LINE_SPLIT_MARKER (`⏎`).
   */
  text: string;
  /** As SendResult.renderLimited, for a rendered page or screen. */
  renderLimited?: true;
}

/** A process a close left running (`keep`), with what identifies it across pid reuse. */
export interface KeptProcess extends SessionProcess {
  /** `/proc/<pid>/stat` field 22: the process is the same only while it is unchanged. */
  startTime: number;
}

/** What a session's close did to its processes. */
export interface CloseReport {
  /** Processes of the session that were running when the close began and are gone now. */
  ended: SessionProcess[];
  /** Processes left running on purpose (`keep`). */
  kept: KeptProcess[];
  /** Why `keep` was not honoured (a session in the agent sandbox ends with it). */
  keepRefused?: string;
}

/** Signals that may be delivered to a session's foreground process group. */
export const ALLOWED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL', 'SIGQUIT', 'SIGHUP', 'SIGTSTP', 'SIGCONT'] as const;
export type AllowedSignal = (typeof ALLOWED_SIGNALS)[number];

/** Outcome of a signal: whether it was delivered, and to which foreground process. */
export interface SignalResult {
  signal: AllowedSignal;
  delivered: boolean;
  foreground?: ForegroundProcess;
  /** Present when the shell has exited: its status (nothing was delivered). */
  sessionStatus?: SessionStatus;
  /** Why nothing was delivered, when known. */
  reason?: string;
}

/** What a backend needs to start a session. */
export interface SpawnSpec {
  /** Absolute working directory; defaults to the backend's choice (the user's home). */
  cwd?: string;
  /**
   * `cwd` is a real path (symbolic links resolved, as a confirmation showed it) and the shell must
   * start there: where a folder on the way was replaced by a link since, the shell ends before any
   * startup file runs and the spawn fails with RECEIVER_CHANGED.
   */
  exactCwd?: boolean;
  /** Extra environment, applied over the backend's defaults; `null` removes a variable. */
  env?: Record<string, string | null>;
  /**
   * The shell's executable (a path, or a name looked up on PATH), as the person's settings chose it
   * (shellChoice.ts); it must be the backend's shell. Default: `dsh.terminal.shell` when it names
   * the backend's shell, else the shell's name. Never taken from a model's input.
   */
  shellPath?: string;
  /** Terminal size in character cells, each an integer in 2..1000 (the service refuses others). Defaults 120×30. */
  cols?: number;
  rows?: number;
  /**
   * Start outside the agent sandbox even when its policy is on: set only by the service, from a
   * grant the tool layer gives after the person confirmed it (never from an opener's options).
   * The backend still refuses (SANDBOX_REQUIRED) where the policy does not allow it.
   */
  outsideSandbox?: boolean;
  /**
   * Whose share of the shared pool of searches and `until` matches the session's jobs take
   * (output/matchPool.ts): set only by the service, to the session's owner. Default: a share of
   * the session's own.
   */
  poolKey?: object;
}

/** A session as a backend holds it: terminal state lives here, identity lives in the service. */
export interface BackendSession {
  /**
   * Output shown before the first prompt (bounded), e.g. a message of the day, as an agent may
   * read it: redacted when secret redaction is on.
   */
  readonly motd: string;
  /** The shell the session runs (`bash`, `zsh`); absent for a backend that names none. */
  readonly shellName?: string;
  /** Working directory the shell started in. */
  readonly cwd: string;
  /** The agent sandbox the session runs in; absent when it runs outside any sandbox. */
  readonly sandboxed?: { readonly summary: SandboxSummary };
  /** True when it runs outside the agent sandbox although the sandbox was on: started on a confirmed grant (SpawnSpec.outsideSandbox). */
  readonly outsideApproved?: boolean;
  /**
   * Why input may not be typed into this session now, read at the call; undefined when it may.
   * A pty-bash session that runs outside the agent sandbox refuses input (`SANDBOX_REQUIRED`) while
   * the sandbox is on, unless it was approved outside it and the settings still allow that.
   */
  inputRefusal?(): TerminalError | undefined;
  /**
   * The shell's working directory now (Linux: the link /proc/<shell pid>/cwd, read at the call),
   * or undefined where it cannot be read (no /proc, or the shell exited).
   */
  currentCwd(): string | undefined;
  /**
   * Whether the shell has traps that may run while a command does and change its folder
   * (or anything) after a confirmation showed it, as its last prompt reported it (markers.ts,
   * `readShellTraps`). Read at the call. Absent where a backend cannot tell.
   */
  traps?(): ShellTraps;
  /**
   * The traps as the session's first prompt reported them: those the person's startup files set
   * (`~/.bashrc`, `~/.zshrc`: bash-preexec's and starship's DEBUG trap), undefined before that
   * prompt. Absent where a backend cannot tell.
   */
  startupTraps?(): ShellTraps | undefined;
  /** The aliases and functions the shell defines, as its last prompt reported them (shellNames.ts). Read at the call. Absent where a backend cannot tell. */
  shellNames?(): ShellNames;
  /** Who would read a send typed now (read at the call; see InputReceiver). */
  receiver(): InputReceiver;
  status(): SessionStatus;
  /** True while the foreground process group is not the shell's (a command is running). */
  isBusy(): boolean;
  /** The foreground process, when one other than the shell holds the terminal. */
  foreground(): ForegroundProcess | undefined;
  /**
   * Writes `typed`, the request's input as the service checked it (input.ts checkSendInput), and
   * resolves when the send has a wait reason. Rejects when the session is busy or refuses the send
   * where it would go (sendAdmission.ts).
   */
  send(request: SendRequest, typed: CheckedSendInput): Promise<SendResult>;
  /**
   * Types nothing; resolves at the running command's next wait reason exactly as a send would
   * (output since the wait began, the same bounds), or with `output_match`.
   * Rejects with NOTHING_TO_WAIT_FOR at the shell's prompt, SESSION_BUSY during a send or wait,
   * SESSION_EXITED after the shell exited.
   */
  wait(request: WaitRequest): Promise<SendResult>;
  /** A page, a command's page or the screen (ReadRequest), rendered on the caller's thread: the person's view, not redacted. */
  read(request: ReadRequest): ReadResult;
  /** As read, rendered off the caller's thread (a renderer thread that fails still answers, saying so), secrets redacted. */
  readAsync(request: ReadRequest): Promise<ReadResult>;
  /** Every command the shell ran, newest `historySize` kept (commandHistory.ts), command lines redacted. */
  readonly commands: CommandHistory;
  /**
   * Redacts secrets in what an agent reads of this session (secrets/secretRedactor.ts): the
   * session's own results use it, and so does the service for what it hands out itself.
   */
  readonly redactor: SecretRedactor;
  /** Searches the scrollback or a command's output (scrollbackSearch.ts), off this thread, within its time bound. */
  search(request: SearchRequest): Promise<SearchResult>;
  /**
   * Delivers `signal` to the foreground process group.
   * @param expect the receiver a person confirmed: when another process group is in the foreground
   *   now, nothing is delivered and TerminalError RECEIVER_CHANGED is thrown.
   */
  signal(signal: AllowedSignal, expect?: ReceiverIdentity): SignalResult;
  /**
   * Resolves once a signal delivered since the last send has taken effect: the shell printed its
   * next prompt, or the foreground program reads the terminal again; at most 2 s. At once when no
   * signal is pending. A send waits for the same before it types.
   */
  settled(): Promise<void>;
  /**
   * Ends every process of the session, also those that left its process groups (found by its
   * mark), and frees the PTY; with `keep`, the shell and its foreground job only, leaving the
   * others running. Idempotent (a second call resolves as the first); resolves when quiet, with
   * what was ended and kept (nothing without /proc).
   */
  close(reason: string, options?: { keep?: boolean }): Promise<CloseReport | void>;
  /**
   * The session's processes and the sockets they listen on (sessionProcesses.ts); with `scan`,
   * every process of the machine is looked at for the session's mark, off this thread and bounded.
   */
  processes?(scan: boolean): Promise<ProcessesReport>;
  /** The sockets the session's processes listen on now, without a scan (undefined without /proc). */
  listening?(): Promise<ListeningSocket[] | undefined>;
  /** Called once when the shell exits. */
  onExit(listener: (status: SessionStatus) => void): void;
  /**
   * Streams the terminal's output as it arrives (decoded text, escapes kept, our markers removed,
   * the prompt shown as `$ `), e.g. to mirror the session in a terminal panel. In memory only.
   */
  onOutput(listener: (text: string) => void): Disposable;
  /**
   * Streams the command record's boundaries (a prompt, a command's start), each delivered between
   * the `onOutput` text before it and the text after it, so a view can mark them in place.
   */
  onCommand(listener: (event: CommandEvent) => void): Disposable;
  /**
   * Writes keystrokes of the person who took the session over, as they are (no newline added, no
   * readiness). Ignored after the shell exited. `secret`: an answer to a prompt that reads with echo
   * off (a one-line take-over): not recorded in the command record, never logged.
   */
  writeUserInput(data: string, secret?: boolean): void;
}

/** A replaceable terminal implementation. `type` is unique in a service (e.g. `pty-bash`). */
export interface TerminalBackend {
  readonly type: string;
  /**
   * Starts a session. Must either resolve with a ready session or bring every resource it took to
   * rest and reject (`TerminalBackendCleanupError` when that cleanup itself failed).
   */
  spawn(spec: SpawnSpec, signal?: AbortSignal): Promise<BackendSession>;
}

export type { Disposable };
