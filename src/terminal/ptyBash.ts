/**
 * `pty-bash`: the node-pty backend. One interactive bash per session on its own PTY, started with
 * a controlled prompt (see `markers.ts`), with readiness decided per send in this order:
 * 1. the shell exited → `session_exit`;
 * 2. prompt marker past the send's baseline, prompt text seen, `promptGraceMs` of quiet, and the
 *    shell's own process group in the foreground → `stdin_read` (`shell-prompt`), or the PS2
 *    marker likewise → `stdin_read` (`shell-continuation`);
 * 3. Linux probe after `probeStartDelayMs`: a thread of the foreground process group newly blocked
 *    reading this PTY → `stdin_read` (`program-input`);
 * 4. no output for `quietThresholdMs` → `inferred_idle`;
 * 5. the absolute `timeoutMs`, armed when the send starts → `timeout`.
 * PTY bytes stay in memory; the log gets events only.
 */
import type { Log } from '../common/log';
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IPty } from 'node-pty';
import { MAX_TIMER_MS, TerminalConfig } from './config';
import { TerminalBackendCleanupError, TerminalError, describe } from './errors';
import { checkSendInput, keyBytes } from './input';
import { KILL_LINE_KEYS, MarkerParser, PASTE_END, PASTE_START, PROMPT_TEXT, controlledPromptRc } from './markers';
import type { PtyModule } from './nodePty';
import { PollLoop, type LookOutcome } from './pollBackoff';
import * as proc from './procProbe';
import { SessionProcessTree } from './processTree';
import { UntilMatcher } from './untilPattern';
import { TextRenderer } from './screenText';
import { sessionEnv } from './sessionEnv';
import { Scrollback, ViewportBuffer, tailByBytes } from './scrollback';
import {
  AllowedSignal,
  BackendSession,
  Disposable,
  ForegroundProcess,
  InputReceiver,
  ReadRequest,
  ReadResult,
  SendRequest,
  SendResult,
  SessionStatus,
  SignalResult,
  SpawnSpec,
  TerminalBackend,
  WaitReason,
  WaitRequest,
  Waiting,
  receiverIdentity,
} from './types';

/** Event log of the terminal seam: ids, reasons, sizes, durations. Never terminal content. */
export type TerminalLog = Pick<Log, 'info' | 'warn'>;

const MOTD_MAX_BYTES = 4096;
const ECHO_TAIL_MAX = 4096;
const DEFAULT_READ_COUNT = 500;
const SIGNAL_SETTLE_MS = 2000;
/** Largest input typed by one send (UTF-8 bytes); bash's line editor needs seconds per MiB. */
const MAX_INPUT_BYTES = 256 * 1024;
/** Longest line a program in canonical mode receives whole (Linux N_TTY_BUF_SIZE - 1). */
const MAX_CANONICAL_LINE_BYTES = 4095;
/** Longest scrollback line in UTF-8 bytes before it is split with a visible marker (see scrollback.ts). */
const MAX_LINE_BYTES = 16 * 1024;
/** Raw scrollback lines rendered for a `screen: true` read: enough to redraw a full-screen program. */
const SCREEN_TAIL_LINES = 400;

/** The guard variable every session's environment carries; startup files test it to stay out of agent sessions. */
export const SESSION_GUARD_VARIABLE = 'DSH_BRIDGE_SESSION';
/** How often the open checks that the shell is still our shell while its startup files run (ms): /proc, ps(1). */
const STARTUP_CHECK_MS = { proc: 100, ps: 250 };
/** Time between SIGHUP and SIGKILL when a session closes (ms). */
const CLOSE_HANGUP_MS = 1000;
/** Time after SIGKILL before close reports survivors (ms). */
const CLOSE_KILL_MS = 3000;
/** Longest a close can take: the SIGHUP grace plus the SIGKILL wait (ms). */
export const CLOSE_MAX_MS = CLOSE_HANGUP_MS + CLOSE_KILL_MS;

/** Options of {@link PtyBashBackend}. */
export interface PtyBashOptions {
  /**
   * Use the Linux /proc probe (foreground group, blocked reads, session members by start time).
   * Default: where available. `false` runs the portable path (ps(1) on the session's terminal), as
   * on macOS, so that path is tested on Linux too.
   */
  probe?: boolean;
}

/** The node-pty backend. `config` is read at each spawn, so a reload applies to new sessions. */
export class PtyBashBackend implements TerminalBackend {
  readonly type = 'pty-bash';
  private readonly probe: boolean;
  private protectionLogged = false;

  constructor(
    private readonly pty: PtyModule,
    private readonly config: () => TerminalConfig,
    private readonly log: TerminalLog,
    options: PtyBashOptions = {},
  ) {
    this.probe = options.probe ?? proc.probeAvailable();
  }

  async spawn(spec: SpawnSpec, signal?: AbortSignal): Promise<BackendSession> {
    const config = this.config();
    if (spec.cwd !== undefined && !isDirectory(spec.cwd)) {
      throw new TerminalError('INVALID_ARGUMENT', `cwd ${JSON.stringify(spec.cwd)} is not an existing directory; give an absolute path to a folder, or omit cwd`);
    }
    signal?.throwIfAborted();
    const nonce = randomBytes(8).toString('hex');
    const startup = createStartupDir();
    const cwd = spec.cwd ?? os.homedir();
    const env = sessionEnv(config.env, spec.env);
    fs.writeFileSync(
      startup.rcFile,
      controlledPromptRc(nonce, { progressFile: startup.progressFile, privateTmuxTmpdir: startup.tmuxTmpdir, userTmuxTmpdir: env.TMUX_TMPDIR }),
      { mode: 0o600 },
    );
    let term: IPty;
    try {
      term = this.pty.spawn(config.shell, ['--rcfile', startup.rcFile, '-i'], {
        name: 'xterm-256color',
        cols: spec.cols ?? 120,
        rows: spec.rows ?? 30,
        cwd,
        // While the startup files run, tmux gets a private socket folder (see markers.ts).
        env: { ...env, TMUX_TMPDIR: startup.tmuxTmpdir },
      });
    } catch (error) {
      startup.remove();
      throw new TerminalError('SPAWN_FAILED', `could not start ${config.shell}: ${describe(error)}; check the dsh.terminal.shell setting`);
    }
    this.logProtection(term);
    const session = new PtyBashSession(term, nonce, cwd, config, this.log, this.probe, startup);
    try {
      await session.firstPrompt(config.openTimeoutMs, signal);
      return session;
    } catch (error) {
      try {
        await session.close(`spawn failed: ${describe(error)}`);
      } catch (cleanupError) {
        throw new TerminalBackendCleanupError(signal?.aborted ? signal.reason : error, cleanupError);
      }
      throw error;
    } finally {
      startup.removeRc();
    }
  }

  /**
   * Logs once which protection keeps a session's PTY master from other processes: node-pty
   * setting close-on-exec on it (the packaged, patched node-pty; verified in /proc/self/fdinfo on
   * Linux), or only the session rc and the language server watchdog closing inherited descriptors
   * (an unpatched node-pty, such as VS Code's own).
   */
  private logProtection(term: IPty): void {
    if (this.protectionLogged) return;
    this.protectionLogged = true;
    const fd = (term as unknown as { fd?: number }).fd;
    const cloexec = typeof fd === 'number' ? proc.closeOnExec(fd) : undefined;
    const always = 'each session closes inherited descriptors before its startup files, and language servers start without them';
    if (cloexec === true) this.log.info(`PTY masters are close-on-exec (node-pty sets FD_CLOEXEC); also ${always}`);
    else if (cloexec === false) {
      this.log.warn(`this node-pty leaves PTY masters inheritable: ${always}, but other processes the extension host starts can inherit a session's PTY master`);
    } else this.log.info(`close-on-exec of PTY masters cannot be checked here (no /proc); ${always}`);
  }
}

/**
 * A session's private folder (mode 0700): the controlled rc, the startup progress file, and the
 * private `TMUX_TMPDIR`. The rc and progress file go once the shell reached its first prompt; the
 * folder goes when the session closes, after any tmux server in it was stopped.
 */
interface StartupDir {
  dir: string;
  rcFile: string;
  progressFile: string;
  tmuxTmpdir: string;
  removeRc(): void;
  remove(): void;
}

function createStartupDir(): StartupDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bridge-'));
  const rcFile = path.join(dir, 'bashrc');
  const progressFile = path.join(dir, 'startup');
  const tmuxTmpdir = path.join(dir, 'tmux');
  fs.mkdirSync(tmuxTmpdir, { mode: 0o700 });
  return {
    dir,
    rcFile,
    progressFile,
    tmuxTmpdir,
    removeRc: () => {
      fs.rmSync(rcFile, { force: true });
      fs.rmSync(progressFile, { force: true });
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

type Mode = 'echo' | 'output';

interface ActiveSend {
  /** A send writes input first; a wait types nothing. */
  kind: 'send' | 'wait';
  baselineSeq: number;
  mode: Mode;
  sawContinuation: boolean;
  viewport: ViewportBuffer;
  echoTail: string;
  /** The alternate screen was active when the send started (input to a running vim or less). */
  alternateAtStart: boolean;
  /** Keys were pressed at the shell's prompt: the line they edited is part of the result. */
  keysAtPrompt: boolean;
  preWaits: proc.TtyWait[];
  startedAt: number;
  probeFrom: number;
  /** The readiness poll, backed off while nothing changes (pollBackoff.ts). */
  poll?: PollLoop;
  /** The foreground process group at the previous look; a change keeps the poll fast. */
  lastTpgid?: number;
  /** Full scans of /proc the session's process tree had made when the send started. */
  fullScansAtStart?: number;
  /** A wait's `until` pattern, matched as output arrives (untilPattern.ts). */
  until?: UntilMatcher;
  /** What `until` matched. */
  match?: string;
  finish: (reason: WaitReason, waiting?: Waiting, foreground?: ForegroundProcess) => void;
  /** One-shot evaluation `promptGraceMs` after the latest output that followed a prompt marker. */
  graceTimer?: ReturnType<typeof setTimeout>;
  /** The shell's own blocked read, first seen at `at` (ms); judged only once it has lasted. */
  shellWait?: { wait: proc.TtyWait; at: number };
}

class PtyBashSession implements BackendSession {
  motd = '';
  private readonly parser: MarkerParser;
  private readonly scrollback: Scrollback;
  /** Renders model text (see screenText.ts); created on first use. */
  private renderer: TextRenderer | undefined;
  private readonly shellPid: number;
  private ptsPath: string | undefined;
  /** The shell's start time (/proc stat field 22): with its pid it names our shell across pid reuse. */
  private readonly shellStart: number | undefined;
  /** The session's processes from its own process tree (Linux /proc probe only). */
  private readonly tree: SessionProcessTree | undefined;
  /** Without /proc: every process seen on this session's terminal, to be signalled while still the same. */
  private readonly seenOnTty: proc.PsEntry[] = [];
  private exitStatus: SessionStatus | undefined;
  private readonly exitListeners: ((s: SessionStatus) => void)[] = [];
  private readonly outputListeners = new Set<(text: string) => void>();
  private promptSeq = 0;
  private promptStatus = 0;
  private promptTextSeen = false;
  private lastMarker: 'prompt' | 'start' | 'continuation' | undefined;
  private scrollbackOwesPrompt = false;
  private lastDataAt = Date.now();
  private alternateScreen = false;
  /** DECCKM (application cursor keys) is set: cursor keys send `ESC O x`. */
  private applicationCursor = false;
  /** Readline edits the shell's line, as the last prompt marker said (undefined: not said). */
  private lineEditing: boolean | undefined;
  private active: ActiveSend | undefined;
  private firstPromptWaiter: (() => void) | undefined;
  /** The first prompt was reached: the startup files ran to the end. */
  private opened = false;
  /** The host's own command line: what the forked shell process shows before its exec. */
  private hostArgs: string | undefined;
  private closing: Promise<void> | undefined;
  /** Prompt seq when a signal was last delivered; a send first lets the shell settle after it. */
  private signalledAtSeq: number | undefined;
  /**
   * Input was written to the shell at its prompt and no prompt (or continuation prompt) has come
   * since: the shell may still be reading or echoing it (a 1 MiB line takes seconds).
   */
  private inputPending = false;

  constructor(
    private readonly term: IPty,
    nonce: string,
    readonly cwd: string,
    private readonly config: TerminalConfig,
    private readonly log: TerminalLog,
    private readonly probe: boolean,
    private readonly startup: StartupDir,
  ) {
    this.parser = new MarkerParser(nonce);
    this.scrollback = new Scrollback({
      maxLines: config.retainedLines,
      maxBytes: config.retainedBytes,
      maxLineBytes: Math.min(MAX_LINE_BYTES, config.maxReadBytes),
    });
    this.shellPid = term.pid;
    this.ptsPath = (term as unknown as { ptsName?: string }).ptsName;
    this.shellStart = probe ? proc.readStat(term.pid)?.startTime : undefined;
    this.tree = probe ? new SessionProcessTree(term.pid, this.shellStart) : undefined;
    term.onData((chunk) => this.onData(chunk));
    term.onExit(({ exitCode, signal }) => this.handleExit(exitCode, signal));
  }

  status(): SessionStatus {
    return this.exitStatus ?? { kind: 'running' };
  }

  isBusy(): boolean {
    if (this.exitStatus) return false;
    if (this.active || this.inputPending) return true;
    const tpgid = this.foregroundGroup();
    return tpgid !== undefined ? tpgid !== this.shellPid : this.lastMarker === 'start';
  }

  foreground(): ForegroundProcess | undefined {
    if (this.exitStatus) return undefined;
    const tpgid = this.foregroundGroup();
    const pid = tpgid ?? this.shellPid;
    return { pid, command: this.commandOf(pid) };
  }

  currentCwd(): string | undefined {
    if (this.exitStatus || process.platform !== 'linux') return undefined;
    try {
      return fs.readlinkSync(`/proc/${this.shellPid}/cwd`);
    } catch {
      return undefined;
    }
  }

  receiver(): InputReceiver {
    if (this.exitStatus) return { kind: 'exited' };
    const { tpgid, atPrompt } = this.inputState();
    if (atPrompt) {
      return {
        kind: this.lastMarker === 'continuation' ? 'shell-continuation' : 'shell-prompt',
        process: { pid: this.shellPid, command: this.commandOf(this.shellPid) },
        lineEditing: this.lineEditing !== false,
      };
    }
    const processGroup = tpgid ?? this.shellPid;
    if (!this.probe) return { kind: 'program', process: { pid: processGroup, command: this.commandOf(processGroup) }, processGroup };
    // The process that will read: one blocked reading the terminal, else the group's leader.
    const waits = proc.ttyWaits(this.groupMembers(processGroup), this.pts());
    const pid = waits[0]?.pid ?? processGroup;
    return { kind: 'program', process: { pid, command: this.commandOf(pid) }, processGroup, reading: waits.length > 0 };
  }

  /**
   * Who holds the terminal now: the foreground process group (undefined without a probe), whether
   * it is the shell's, and whether the shell waits for a command at its prompt or continuation
   * prompt (after PS0 it runs one: its own `read` builtin, or an `exec`ed program, may then read).
   */
  private inputState(): { tpgid: number | undefined; shellInForeground: boolean; atPrompt: boolean } {
    const tpgid = this.foregroundGroup();
    const shellInForeground = tpgid === undefined ? this.lastMarker !== 'start' : tpgid === this.shellPid;
    return { tpgid, shellInForeground, atPrompt: shellInForeground && this.lastMarker !== 'start' };
  }

  /**
   * Resolves at the first controlled prompt; rejects on exit, abort, after `timeoutMs`, or as soon
   * as the shell stopped being our shell (a startup file `exec`ed another program: the process no
   * longer runs with our rc on its command line), naming the startup file and the guard variable.
   */
  firstPrompt(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const done = (error?: Error) => {
        clearTimeout(timer);
        clearInterval(watch);
        signal?.removeEventListener('abort', onAbort);
        this.firstPromptWaiter = undefined;
        if (error) reject(error);
        else {
          this.opened = true;
          resolve();
        }
      };
      const timer = setTimeout(
        () => done(new TerminalError('SPAWN_FAILED', `the shell did not show its first prompt within ${timeoutMs} ms (${this.startupStage()}); check your shell startup files or raise dsh.terminal.openTimeoutMs`)),
        timeoutMs,
      );
      const watch = setInterval(() => {
        if (this.exitStatus || this.promptSeq > 0) return;
        const replacedBy = this.startupReplacedBy();
        if (replacedBy !== undefined) done(this.hijackError(replacedBy));
      }, this.probe ? STARTUP_CHECK_MS.proc : STARTUP_CHECK_MS.ps);
      const onAbort = () => done(new TerminalError('SPAWN_FAILED', `opening the session was cancelled: ${describe(signal?.reason)}`));
      signal?.addEventListener('abort', onAbort);
      this.firstPromptWaiter = () => {
        if (this.exitStatus) done(new TerminalError('SPAWN_FAILED', `the shell exited before its first prompt (${statusText(this.exitStatus)}, ${this.startupStage()})`));
        else if (this.promptSeq > 0 && this.promptTextSeen) done();
      };
    });
  }

  /**
   * The command line the shell's process runs now, when it is no longer our shell: it does not
   * carry our rc file and is not the forked host before its exec. Undefined while it is ours or
   * cannot be read.
   */
  private startupReplacedBy(): string | undefined {
    const args = proc.processArgs(this.shellPid, this.probe);
    if (args === undefined || args.includes(this.startup.rcFile)) return undefined;
    this.hostArgs ??= proc.processArgs(process.pid, this.probe) ?? '';
    return args === this.hostArgs ? undefined : args;
  }

  /** The startup file bash was reading, from the rc's progress file (see markers.ts). */
  private startupFile(): string | undefined {
    return this.startupProgress().pop();
  }

  /** Every line of the rc's progress file: the startup files in the order bash read them, then `done`. */
  private startupProgress(): string[] {
    try {
      return fs.readFileSync(this.startup.progressFile, 'utf8').split('\n').filter((l) => l !== '');
    } catch {
      return [];
    }
  }

  /** Where startup stood, for error messages: the file being read, or after / before all of them. */
  private startupStage(): string {
    const file = this.startupFile();
    if (file === undefined) return 'before the startup files ran';
    if (file === 'done') return 'after the startup files, at the first prompt (in a PROMPT_COMMAND or trap they set)';
    return `while bash read ${file}`;
  }

  private hijackError(replacedBy: string): TerminalError {
    const file = this.startupFile();
    // After the last file, the exec ran from a PROMPT_COMMAND (or trap) one of them set.
    const read = this.startupProgress().filter((f) => f !== 'done' && fs.existsSync(f));
    const where = file && file !== 'done' ? file : read.length > 0 ? `${read.join(' or ')} (the one that sets that PROMPT_COMMAND or trap)` : 'a startup file';
    return new TerminalError(
      'SPAWN_FAILED',
      `a startup file replaced the shell before its first prompt: ${this.startupStage()}, the session's process became \`${replacedBy.slice(0, 200)}\` (an \`exec\` in that file or one it sources). ` +
        `Agent sessions set ${SESSION_GUARD_VARIABLE}=1: in ${where} put \`[ -n "$${SESSION_GUARD_VARIABLE}" ] && return\` above the exec, or wrap the exec in \`if [ -z "$${SESSION_GUARD_VARIABLE}" ]; then … fi\`. ` +
        'The session and what it started are ended (a tmux it started had a server of its own, never yours).',
    );
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (this.exitStatus) {
      throw new TerminalError('SESSION_EXITED', `the session's shell has exited (${statusText(this.exitStatus)}); open a new session`);
    }
    if (this.active) throw new TerminalError('SESSION_BUSY', 'a send is already in flight on this session; wait for it to return');
    const timeoutMs = checkTimeout(request.timeoutMs ?? this.config.defaultTimeoutMs, request.timeoutMs);
    const typed = checkSendInput(request);
    const inputBytes = typed.kind === 'text' ? Buffer.byteLength(typed.text) : 0;
    if (inputBytes > MAX_INPUT_BYTES) {
      throw new TerminalError('INVALID_ARGUMENT', `input is ${inputBytes} bytes; at most ${MAX_INPUT_BYTES} bytes are typed into a terminal. Write large data to a file instead (e.g. with a heredoc in several sends, or a file the program reads)`);
    }
    await this.settleAfterSignal();
    const { tpgid, shellInForeground, atPrompt } = this.inputState();
    if (request.expectReceiver) this.checkReceiver(request.expectReceiver);
    let preWaits: proc.TtyWait[] = [];
    if (this.probe && tpgid !== undefined) {
      preWaits = proc.ttyWaits(this.groupMembers(tpgid), this.pts());
      // Not even a shell blocked in read proves the input was consumed: node-pty writes large
      // input in pieces as the terminal drains it. Only the next prompt (or SIGINT) does.
      if (atPrompt && this.inputPending) {
        throw new TerminalError(
          'SESSION_BUSY',
          'session is busy: the shell has not finished reading the previous input (no prompt since it was typed), so this input was not typed ahead of it. Wait and read the output (dsh_terminal_read), or interrupt with a signal (SIGINT).',
        );
      }
      if (!atPrompt && preWaits.length > 0 && typed.kind === 'text') await this.checkLineLength(typed.text);
      if (!shellInForeground && preWaits.length === 0) {
        const fg = this.foreground();
        throw new TerminalError(
          'SESSION_BUSY',
          `session is busy: \`${fg?.command}\` (pid ${fg?.pid}) is running and not reading input, so the text was not typed into it. Wait and read the output (dsh_terminal_read), or interrupt it with a signal (SIGINT).`,
        );
      }
    } else if (!shellInForeground) {
      throw new TerminalError('SESSION_BUSY', 'session is busy: a command is running and, without a /proc probe, it cannot be proven to read input');
    }
    const input = this.bytesToWrite(typed, atPrompt);
    const keysAtPrompt = typed.kind === 'keys' && atPrompt;
    return this.track({ kind: 'send', timeoutMs, signal: request.signal, atPrompt, preWaits, probeDelayMs: this.config.probeStartDelayMs, keysAtPrompt }, () => {
      // Keys are a few bytes written at once; they need not end the line (Up, Tab), so no prompt
      // may follow them. Text always ends with a newline: the shell prompts again once it read it.
      if (atPrompt && typed.kind === 'text') this.inputPending = true;
      this.term.write(input);
    });
  }

  async wait(request: WaitRequest): Promise<SendResult> {
    if (this.exitStatus) {
      throw new TerminalError('SESSION_EXITED', `nothing to wait for: the session's shell has exited (${statusText(this.exitStatus)}); open a new session`);
    }
    if (this.active) throw new TerminalError('SESSION_BUSY', 'a send or wait is already in flight on this session; wait for it to return');
    const timeoutMs = checkTimeout(request.timeoutMs ?? this.config.defaultTimeoutMs, request.timeoutMs);
    await this.settleAfterSignal();
    const { tpgid, atPrompt } = this.inputState();
    if (atPrompt && !this.inputPending) {
      const where =
        this.lastMarker === 'continuation'
          ? 'the shell waits for the rest of a command at its continuation prompt (an open quote or heredoc): send the rest with dsh_terminal_send, or SIGINT to drop it'
          : `the shell is at its prompt (the last command finished${this.lastMarker === 'prompt' ? ` with exit code ${this.promptStatus}` : ''}): send a command with dsh_terminal_send`;
      throw new TerminalError('NOTHING_TO_WAIT_FOR', `nothing to wait for: no command is running; ${where}`);
    }
    // A program already waiting for input is the answer at once; only input the shell is still
    // reading at its prompt is judged as a send's would be (waits from before do not count).
    const preWaits = this.probe && tpgid !== undefined && atPrompt ? proc.ttyWaits(this.groupMembers(tpgid), this.pts()) : [];
    return this.track({ kind: 'wait', timeoutMs, signal: request.signal, atPrompt, preWaits, probeDelayMs: 0, until: request.until }, () => {});
  }

  /**
   * Makes a send or wait the active one: arms its absolute timeout, its backed-off readiness poll
   * and its cancellation (SIGINT to the foreground process group), runs `start` (the write of a
   * send; nothing for a wait), and resolves with its result once it has a wait reason.
   */
  private track(
    options: { kind: ActiveSend['kind']; timeoutMs: number; signal?: AbortSignal; atPrompt: boolean; preWaits: proc.TtyWait[]; probeDelayMs: number; until?: RegExp; keysAtPrompt?: boolean },
    start: () => void,
  ): Promise<SendResult> {
    const startedAt = Date.now();
    return new Promise<SendResult>((resolve) => {
      const timer = setTimeout(() => send.finish('timeout'), options.timeoutMs);
      const poll = new PollLoop(this.config.pollIntervalMs, () => this.evaluate());
      const onAbort = () => {
        this.log.info(`${options.kind} cancelled; SIGINT to the foreground process group`);
        this.signal('SIGINT');
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const send: ActiveSend = {
        kind: options.kind,
        baselineSeq: this.promptSeq,
        mode: options.atPrompt ? 'echo' : 'output',
        sawContinuation: false,
        viewport: new ViewportBuffer(this.config.maxReadBytes),
        echoTail: '',
        alternateAtStart: this.alternateScreen,
        keysAtPrompt: options.keysAtPrompt ?? false,
        preWaits: options.preWaits,
        startedAt,
        probeFrom: startedAt + options.probeDelayMs,
        poll,
        fullScansAtStart: this.tree?.fullScanCount,
        until: options.until ? new UntilMatcher(options.until) : undefined,
        finish: (reason, waiting, foreground) => {
          if (this.active !== send) return;
          this.active = undefined;
          clearTimeout(timer);
          clearTimeout(send.graceTimer);
          poll.stop();
          options.signal?.removeEventListener('abort', onAbort);
          const result = this.result(send, reason, waiting, foreground);
          // Whether the terminal echoes is read by a child process, never on this thread.
          if (waiting !== 'program-input') return resolve(result);
          void this.echoDisabled().then((off) => {
            if (off) result.echoOff = true;
            resolve(result);
          });
        },
      };
      this.active = send;
      start();
    });
  }

  /**
   * The bytes a send writes. Keys: their sequences (cursor keys by DECCKM). Text: a newline is
   * appended when missing; where bash's line editor reads it, the text goes in as one bracketed
   * paste into an emptied line, followed by the newline that submits it.
   */
  private bytesToWrite(typed: ReturnType<typeof checkSendInput>, atPrompt: boolean): string {
    if (typed.kind === 'keys') return keyBytes(typed.keys, this.applicationCursor);
    const text = typed.text.endsWith('\n') ? typed.text.slice(0, -1) : typed.text;
    if (atPrompt && this.lineEditing !== false) return `${KILL_LINE_KEYS}${PASTE_START}${text}${PASTE_END}\n`;
    return `${text}\n`;
  }

  /**
   * Refuses the send when what would read it is not the receiver the person confirmed.
   * @throws TerminalError RECEIVER_CHANGED naming both.
   */
  private checkReceiver(expected: NonNullable<SendRequest['expectReceiver']>): void {
    const now = this.receiver();
    const actual = receiverIdentity(now);
    if (actual.kind === expected.kind && actual.processGroup === expected.processGroup) return;
    const name = (r: InputReceiver) => (r.kind === 'exited' ? 'nobody (the shell exited)' : r.kind === 'program' ? `\`${r.process.command}\` (pid ${r.process.pid})` : `the shell at its ${r.kind === 'shell-prompt' ? 'prompt' : 'continuation prompt'}`);
    const was = expected.kind === 'program' ? `a program in process group ${expected.processGroup}` : expected.kind === 'exited' ? 'nobody' : `the shell at its ${expected.kind === 'shell-prompt' ? 'prompt' : 'continuation prompt'}`;
    throw new TerminalError(
      'RECEIVER_CHANGED',
      `nothing was typed: the confirmation named ${was} as the receiver, but now ${name(now)} would read the input. Read the session (dsh_terminal_read) and send again`,
    );
  }

  read(request: ReadRequest): ReadResult {
    const offset = request.offset ?? 0;
    const count = request.count ?? DEFAULT_READ_COUNT;
    for (const [name, value, min] of [['offset', offset, 0], ['count', count, 1]] as const) {
      if (!Number.isInteger(value) || value < min) {
        throw new TerminalError('INVALID_ARGUMENT', `${name} must be an integer ≥ ${min} (got ${JSON.stringify(value)})`);
      }
    }
    if (request.screen) {
      const tail = this.scrollback.page(0, SCREEN_TAIL_LINES, this.config.maxReadBytes);
      const screen = this.render().screen(tail.text);
      const result: ReadResult = { ...tail, offset: 0, lineBegin: 0, lineEnd: 0, truncated: false, text: screen.lines.join('\n') };
      if (screen.limited) result.renderLimited = true;
      return result;
    }
    const page = this.scrollback.page(offset, count, this.config.maxReadBytes);
    if (request.raw) return page;
    try {
      // Rendering removes escapes and redraws, but a tab becomes spaces: the cap is applied again.
      const { lines, limited } = this.render().render(page.text);
      const rendered = tailByBytes(lines.join('\n'), this.config.maxReadBytes);
      const result: ReadResult = { ...page, text: rendered.text, truncated: page.truncated || rendered.dropped > 0 };
      if (limited) result.renderLimited = true;
      return result;
    } catch (error) {
      this.log.warn(`rendering a page failed, returning raw text: ${describe(error)}`);
      return page;
    }
  }

  private render(): TextRenderer {
    this.renderer ??= new TextRenderer(this.term.cols, this.term.rows);
    return this.renderer;
  }

  signal(signal: AllowedSignal): SignalResult {
    if (this.exitStatus) {
      return { signal, delivered: false, sessionStatus: this.exitStatus, reason: `the session's shell has exited (${statusText(this.exitStatus)}): there is no process to signal` };
    }
    const tpgid = this.foregroundGroup() ?? this.shellPid;
    const foreground = this.foreground();
    // Only a group of this session: never signal a group that left it or a reused pid.
    if (this.probe && this.groupMembers(tpgid, true).length === 0) return { signal, delivered: false, foreground };
    try {
      process.kill(-tpgid, signal);
      this.signalledAtSeq = this.promptSeq;
      this.log.info(`signal ${signal} delivered to process group ${tpgid}`);
      return { signal, delivered: true, foreground };
    } catch (error) {
      this.log.warn(`signal ${signal} to process group ${tpgid} failed: ${describe(error)}`);
      return { signal, delivered: false, foreground };
    }
  }

  writeUserInput(data: string): void {
    if (!this.exitStatus) this.term.write(data);
  }

  onOutput(listener: (text: string) => void): Disposable {
    this.outputListeners.add(listener);
    return { dispose: () => this.outputListeners.delete(listener) };
  }

  onExit(listener: (status: SessionStatus) => void): void {
    if (this.exitStatus) listener(this.exitStatus);
    else this.exitListeners.push(listener);
  }

  close(reason: string): Promise<void> {
    this.closing ??= this.teardown(reason);
    return this.closing;
  }

  /**
   * Ends every process of the session, and only those: SIGHUP and SIGCONT to each of its process
   * groups, SIGKILL to what is left after CLOSE_HANGUP_MS, and an error when anything survives
   * CLOSE_KILL_MS more. Each round re-lists the groups with {@link ownGroups}, so a group id is
   * signalled only while it still belongs to the session. Then, for an open that failed during
   * startup, processes that escaped the session (a daemonized tmux server) are ended, any tmux
   * server in the private socket folder is stopped, and the session's folder is removed.
   * @throws Error naming the shell pid when processes survive SIGKILL.
   */
  private async teardown(reason: string): Promise<void> {
    this.log.info(`closing shell pid ${this.shellPid}: ${reason}`);
    this.renderer?.dispose();
    this.renderer = undefined;
    const signalAll = (sig: NodeJS.Signals) => {
      for (const pgrp of this.ownGroups()) {
        try {
          process.kill(-pgrp, sig);
        } catch {
          // The group is already gone.
        }
      }
    };
    const quiet = () => !!this.exitStatus && this.ownGroups().length === 0;
    const pollMs = this.probe ? 20 : 100;
    let survived = false;
    signalAll('SIGHUP');
    signalAll('SIGCONT');
    if (!(await this.waitUntil(quiet, CLOSE_HANGUP_MS, pollMs))) {
      signalAll('SIGKILL');
      if (!this.exitStatus) {
        try {
          this.term.kill('SIGKILL');
        } catch {
          // Already dead.
        }
      }
      survived = !(await this.waitUntil(quiet, CLOSE_KILL_MS, pollMs));
    }
    if (!this.opened) this.endEscapedStartupProcesses();
    this.stopPrivateTmuxServers();
    this.startup.remove();
    if (survived) throw new Error(`processes of session ${this.shellPid} survived SIGKILL`);
  }

  /**
   * The process groups that belong to this session now. With /proc: every group of the shell's
   * session, checked by the shell's start time (see procProbe.sessionProcesses), so a reused pid
   * is never taken for ours. Without /proc: the groups of processes on the session's terminal
   * (ps -t; the terminal is ours while we hold its master), plus those seen there before that still
   * run as the same process (same pid, group and start time: jobs that outlived the shell), plus
   * the shell's own group until it exited.
   */
  private ownGroups(): number[] {
    if (this.probe) {
      if (this.shellStart === undefined && this.exitStatus) return [];
      return [...new Set(proc.sessionProcesses(this.shellPid, this.shellStart).map((p) => p.pgrp))];
    }
    const tty = this.ptsPath;
    for (const entry of tty ? proc.psOnTty(tty) : []) {
      if (!this.seenOnTty.some((e) => e.pid === entry.pid && e.lstart === entry.lstart)) this.seenOnTty.push(entry);
    }
    const alive = proc.psStillSame(this.seenOnTty);
    this.seenOnTty.splice(0, this.seenOnTty.length, ...alive);
    const groups = new Set(alive.map((e) => e.pgid));
    if (!this.exitStatus) groups.add(this.shellPid);
    return [...groups];
  }

  /**
   * After an open that failed during startup: SIGKILL to the processes that left the session but
   * carry its private `TMUX_TMPDIR` in their environment (only processes started by this session's
   * startup files have it), e.g. a tmux server that daemonized. Linux /proc only; elsewhere
   * {@link stopPrivateTmuxServers} covers tmux.
   */
  private endEscapedStartupProcesses(): void {
    if (!this.probe) return;
    const mark = `\0TMUX_TMPDIR=${this.startup.tmuxTmpdir}\0`;
    for (const name of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      try {
        const stat = proc.readStat(Number(name));
        if (!stat || (this.shellStart !== undefined && stat.startTime < this.shellStart)) continue;
        if (!`\0${fs.readFileSync(`/proc/${name}/environ`, 'latin1')}`.includes(mark)) continue;
        process.kill(Number(name), 'SIGKILL');
        this.log.info(`ended pid ${name}, started by the startup files of shell pid ${this.shellPid} outside its session`);
      } catch {
        // Gone, or not ours to read.
      }
    }
  }

  /** Stops each tmux server whose socket is in the session's private `TMUX_TMPDIR` (tmux kill-server). */
  private stopPrivateTmuxServers(): void {
    const uid = process.getuid?.();
    if (uid === undefined) return;
    const socketDir = path.join(this.startup.tmuxTmpdir, `tmux-${uid}`);
    let sockets: string[];
    try {
      sockets = fs.readdirSync(socketDir);
    } catch {
      return;
    }
    for (const socket of sockets) {
      try {
        execFileSync('tmux', ['-S', path.join(socketDir, socket), 'kill-server'], { timeout: 2000, stdio: 'ignore' });
        this.log.info(`stopped the tmux server at socket ${socket} that the startup files of shell pid ${this.shellPid} started`);
      } catch {
        // No server behind the socket any more, or tmux is gone.
      }
    }
  }

  /**
   * After a signal the shell discards type-ahead while it redraws its prompt (readline on SIGINT),
   * and a dying program may still hold the foreground: input written then is lost or refused.
   * Waits up to SIGNAL_SETTLE_MS for the next prompt, or for the foreground to be reading again.
   */
  settled(): Promise<void> {
    return this.settleAfterSignal();
  }

  private async settleAfterSignal(): Promise<void> {
    const since = this.signalledAtSeq;
    if (since === undefined) return;
    this.signalledAtSeq = undefined;
    await this.waitUntil(() => {
      if (this.exitStatus) return true;
      if (this.promptSeq > since && this.promptTextSeen && Date.now() - this.lastDataAt >= this.config.promptGraceMs) return true;
      const tpgid = this.foregroundGroup();
      return tpgid !== undefined && tpgid !== this.shellPid && proc.ttyWaits(this.groupMembers(tpgid), this.pts()).length > 0;
    }, SIGNAL_SETTLE_MS);
  }

  private waitUntil(predicate: () => boolean, ms: number, pollMs = 20): Promise<boolean> {
    return new Promise((resolve) => {
      const deadline = Date.now() + ms;
      const check = () => {
        if (predicate()) resolve(true);
        else if (Date.now() >= deadline) resolve(false);
        else setTimeout(check, pollMs);
      };
      check();
    });
  }

  private onData(chunk: string): void {
    this.lastDataAt = Date.now();
    this.active?.poll?.poke();
    for (const event of this.parser.push(chunk)) {
      switch (event.kind) {
        case 'text':
          this.onText(event.text);
          break;
        case 'prompt':
          this.inputPending = false;
          this.promptSeq = event.seq;
          this.promptStatus = event.status;
          if (event.lineEditing !== undefined) this.lineEditing = event.lineEditing;
          this.promptTextSeen = false;
          this.lastMarker = 'prompt';
          if (this.active) {
            this.active.mode = 'echo';
            this.active.echoTail = '';
          }
          break;
        case 'prompt-text':
          this.promptTextSeen = true;
          this.scrollbackOwesPrompt = true;
          this.firstPromptWaiter?.();
          break;
        case 'start':
          this.lastMarker = 'start';
          if (this.active) this.active.mode = 'output';
          break;
        case 'continuation':
          this.inputPending = false;
          this.lastMarker = 'continuation';
          if (this.active) this.active.sawContinuation = true;
          break;
      }
    }
    // After a prompt (or continuation) marker the send may be complete once promptGraceMs of
    // quiet has passed: evaluate exactly then, not at the next poll tick, which would add up to
    // one poll interval to every send (bench:terminal measured 78 ms against a 75 ms bound).
    const send = this.active;
    if (send && (this.lastMarker === 'prompt' || this.lastMarker === 'continuation')) {
      clearTimeout(send.graceTimer);
      send.graceTimer = setTimeout(() => this.evaluate(), this.config.promptGraceMs + 1);
    }
  }

  private onText(text: string): void {
    const alt = /\x1b\[\?(?:1049|1047|47)([hl])/g;
    for (const m of text.matchAll(alt)) this.alternateScreen = m[1] === 'h';
    for (const m of text.matchAll(/\x1b\[\?1([hl])/g)) this.applicationCursor = m[1] === 'h';
    // The prompt text was swallowed with its marker; the scrollback shows it only once something
    // follows it, so a page read at an idle prompt ends with the last output line.
    const shown = this.scrollbackOwesPrompt ? PROMPT_TEXT + text : text;
    this.scrollback.append(shown);
    for (const listener of this.outputListeners) listener(shown);
    this.scrollbackOwesPrompt = false;
    if (this.firstPromptWaiter && this.promptSeq === 0 && Buffer.byteLength(this.motd) < MOTD_MAX_BYTES) {
      this.motd = tailByBytes(this.motd + text, MOTD_MAX_BYTES).text;
    }
    const send = this.active;
    if (!send) return;
    if (send.mode === 'output') send.viewport.append(text);
    else send.echoTail = (send.echoTail + text).slice(-ECHO_TAIL_MAX);
    const match = send.until?.push(text);
    if (match !== undefined) {
      send.match = match;
      send.finish('output_match');
    }
  }

  private handleExit(exitCode: number, signal?: number): void {
    const name = signal ? (Object.entries(os.constants.signals).find(([, n]) => n === signal)?.[0] ?? String(signal)) : null;
    this.exitStatus = { kind: 'exited', exitCode: name ? null : exitCode, signal: name };
    this.log.info(`shell pid ${this.shellPid} exited: ${statusText(this.exitStatus)}`);
    this.firstPromptWaiter?.();
    this.active?.finish('session_exit');
    for (const listener of this.exitListeners.splice(0)) listener(this.exitStatus);
  }

  /**
   * One readiness poll of the active send, in the decision order of the module comment. Returns
   * what the poll loop needs: whether anything changed since the previous look (the foreground
   * group, a shell read still to be confirmed), and the next deadline it waits for.
   */
  private evaluate(): LookOutcome | undefined {
    const send = this.active;
    if (!send) return undefined;
    if (this.exitStatus) return void send.finish('session_exit');
    const now = Date.now();
    // Quiet counts from the write at the earliest: output from before this send is not silence of it.
    const quiet = now - Math.max(this.lastDataAt, send.startedAt);
    const tpgid = this.foregroundGroup();
    const changed = tpgid !== send.lastTpgid;
    send.lastTpgid = tpgid;
    const shellInForeground = tpgid === undefined || tpgid === this.shellPid;
    if (shellInForeground && quiet >= this.config.promptGraceMs) {
      if (this.lastMarker === 'prompt' && this.promptSeq > send.baselineSeq && this.promptTextSeen) {
        return void send.finish('stdin_read', 'shell-prompt');
      }
      if (this.lastMarker === 'continuation' && send.sawContinuation) {
        return void send.finish('stdin_read', 'shell-continuation');
      }
    }
    if (this.probe && tpgid !== undefined && now >= send.probeFrom) {
      const waits = proc.newWaits(proc.ttyWaits(this.groupMembers(tpgid), this.pts()), send.preWaits);
      if (waits.length > 0) {
        const pid = waits[0].pid;
        const fg = { pid, command: this.commandOf(pid) };
        if (tpgid !== this.shellPid) return void send.finish('stdin_read', 'program-input', fg);
        // The shell itself reads its terminal. Only a blocking read counts: readline waits in
        // pselect6 between keys too, and under load it was seen re-blocking there before it had
        // echoed the send's input (npm run stress). And only a read that lasted promptGraceMs: a
        // shell that just printed its prompt reads at once, before its marker has reached us.
        // Keys pressed at the prompt are one small write that readline takes at once; when they
        // did not end the line (Up, Tab) no prompt follows, and readline's wait for the next key
        // (pselect6) is the answer.
        const read = waits.find((w) => w.via === 'read' || send.keysAtPrompt);
        const seen = send.shellWait;
        if (!read) send.shellWait = undefined;
        else if (!seen || seen.wait.tid !== read.tid || seen.wait.switches !== read.switches) send.shellWait = { wait: read, at: now };
        else if (now - seen.at >= this.config.promptGraceMs && quiet >= this.config.promptGraceMs) {
          // After PS0 it runs a command that reads (its `read` builtin, or a program it became
          // with `exec`); otherwise it waits for a command without a controlled prompt (both PS1
          // and PROMPT_COMMAND were replaced).
          return void send.finish('stdin_read', this.lastMarker === 'start' ? 'program-input' : 'shell-prompt', fg);
        }
      }
    }
    if (quiet >= this.config.quietThresholdMs) return void send.finish('inferred_idle');
    const dueInMs = Math.min(this.config.quietThresholdMs - quiet, now < send.probeFrom ? send.probeFrom - now : Infinity);
    return { changed: changed || send.shellWait !== undefined, dueInMs };
  }

  /**
   * Members of process group `pgrp` in this session, from the session's own process tree
   * (processTree.ts). `thorough`: when the tree finds none, a full scan of /proc decides at once
   * (a signal must never miss a member, nor reach a group that is not ours).
   */
  private groupMembers(pgrp: number, thorough = false): proc.ProcStat[] {
    const members = this.tree?.group(pgrp) ?? proc.groupProcesses(this.shellPid, pgrp, this.shellStart);
    return members.length > 0 || !thorough ? members : proc.groupProcesses(this.shellPid, pgrp, this.shellStart);
  }

  private result(send: ActiveSend, waitReason: WaitReason, waiting?: Waiting, foreground?: ForegroundProcess): SendResult {
    const { text, dropped } = send.viewport.result();
    let output = text;
    // A send that ends before the shell ran anything shows what the shell shows: the pending
    // command and its continuation prompt. At a fresh prompt the echo region is just the prompt.
    // Keys pressed at the prompt that did not end the line (Up, Tab) show the line they edited.
    if (send.mode === 'echo' && (waiting !== 'shell-prompt' || (send.keysAtPrompt && this.promptSeq === send.baselineSeq))) output += send.echoTail;
    const viewport = this.modelText(output, send.alternateAtStart);
    const result: SendResult = {
      waitReason,
      sessionStatus: this.status(),
      output: viewport.text,
      truncated: dropped > 0,
      droppedBytes: dropped,
      probe: this.probe ? 'linux-proc' : 'unavailable',
      durationMs: Date.now() - send.startedAt,
    };
    if (viewport.limited) result.renderLimited = true;
    if (waiting) result.waiting = waiting;
    if (send.match !== undefined) result.match = send.match;
    if (waiting === 'shell-prompt' && this.lastMarker === 'prompt' && this.promptSeq > send.baselineSeq) {
      result.exitCode = this.promptStatus;
    }
    if (waitReason !== 'session_exit') {
      result.foreground = foreground ?? this.foreground();
      if (this.alternateScreen) result.alternateScreen = true;
    }
    this.log.info(
      `${send.kind} finished: ${waitReason}${waiting ? `/${waiting}` : ''} after ${result.durationMs} ms, ${send.poll?.looks ?? 0} looks, ${(this.tree?.fullScanCount ?? 0) - (send.fullScansAtStart ?? 0)} full scans of /proc, viewport ${Buffer.byteLength(result.output)} bytes${dropped ? `, ${dropped} dropped` : ''}`,
    );
    return result;
  }

  /**
   * A send's viewport as a person saw it (screenText.ts): escapes and redraws applied, trailing
   * blank lines dropped, the blanks before the cursor kept (`Name: `). When a full-screen program
   * holds the alternate screen at the end, its visible screen follows. Capped at maxReadBytes.
   * `limited`: the rendering was cut short (screenText.ts, Rendered.limited).
   */
  private modelText(raw: string, startInAlternate: boolean): { text: string; limited?: boolean } {
    try {
      const { lines, alternateScreen, limited } = this.render().render(raw, { startInAlternate, keepCursorBlanks: true });
      let text = normalizeOutput(lines.join('\n'));
      if (alternateScreen?.length) text = text ? `${text}\n${alternateScreen.join('\n')}` : alternateScreen.join('\n');
      return { text: tailByBytes(text, this.config.maxReadBytes).text, limited };
    } catch (error) {
      // Never lose a send's result to the renderer: fall back to the raw text.
      this.log.warn(`rendering the viewport failed, returning raw text: ${describe(error)}`);
      return { text: normalizeOutput(raw) };
    }
  }

  /**
   * A password prompt: termios ECHO off while ICANON is on (termios(3)); false when the settings
   * cannot be read. Full-screen programs (vim, less) turn both off and are not password prompts.
   */
  private async echoDisabled(): Promise<boolean> {
    const settings = await this.termios();
    return /(^|\s)-echo(\s|$)/.test(settings) && /(^|\s)icanon(\s|$)/.test(settings);
  }

  /** True when the PTY is in canonical (line-by-line) mode, termios(3) ICANON. */
  private async canonicalMode(): Promise<boolean> {
    return /(^|\s)icanon(\s|$)/.test(await this.termios());
  }

  /**
   * The PTY's termios settings as `stty -a` prints them, or '' when they cannot be read. stty runs
   * as an asynchronous child process: nothing waits for it on the extension host's thread.
   */
  private termios(): Promise<string> {
    return new Promise((resolve) => {
      execFile('stty', ['-F', this.pts(), '-a'], { encoding: 'utf8', timeout: 2000 }, (error, stdout) => resolve(error ? '' : stdout));
    });
  }

  /**
   * In canonical mode the line discipline keeps at most 4095 bytes of a line (N_TTY_BUF_SIZE 4096,
   * newline included) and silently drops the rest, so such input is refused.
   * @throws TerminalError INVALID_ARGUMENT naming the line, its size and the limit.
   */
  private async checkLineLength(input: string): Promise<void> {
    const lines = input.split('\n');
    const long = lines.findIndex((line) => Buffer.byteLength(line) > MAX_CANONICAL_LINE_BYTES);
    if (long < 0 || !(await this.canonicalMode())) return;
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `line ${long + 1} of the input is ${Buffer.byteLength(lines[long])} bytes; a program reading the terminal line by line gets at most ${MAX_CANONICAL_LINE_BYTES} bytes of a line and the rest would be lost. Put the data in a file and let the program read the file`,
    );
  }

  /** The shell is named by its executable (its command line holds our rc path); others in full. */
  private commandOf(pid: number): string {
    if (pid === this.shellPid && proc.readStat(pid)?.comm === path.basename(this.config.shell)) return path.basename(this.config.shell);
    return proc.commandLine(pid, proc.readStat(pid)?.comm ?? '');
  }

  private foregroundGroup(): number | undefined {
    if (!this.probe || this.exitStatus) return undefined;
    const tpgid = proc.readStat(this.shellPid)?.tpgid;
    return tpgid !== undefined && tpgid > 0 ? tpgid : undefined;
  }

  private pts(): string {
    this.ptsPath ??= fs.readlinkSync(`/proc/${this.shellPid}/fd/0`);
    return this.ptsPath;
  }
}

/**
 * A send's or wait's absolute time limit (ms), checked.
 * @throws TerminalError INVALID_ARGUMENT unless an integer from 1 to MAX_TIMER_MS (`given` is shown).
 */
function checkTimeout(timeoutMs: number, given: unknown): number {
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new TerminalError('INVALID_ARGUMENT', `timeoutMs must be an integer of milliseconds from 1 to ${MAX_TIMER_MS} (got ${JSON.stringify(given)})`);
  }
  return timeoutMs;
}

/** Terminal text as a model reads it: `\r\n` → `\n`, trailing newlines dropped. */
function normalizeOutput(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
}

function statusText(status: SessionStatus): string {
  return status.kind === 'running' ? 'running' : status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`;
}

function isDirectory(p: string): boolean {
  try {
    return path.isAbsolute(p) && fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
