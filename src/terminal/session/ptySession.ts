/**
 * A PTY shell session (pty-bash, pty-zsh): the shell on its PTY, its output, its reads and signals, and admission of
 * its sends and waits. What it decides lives beside it: the marker state (shellMarkers.ts), send
 * admission (sendAdmission.ts), the send/wait state machine (activeSend.ts, which asks
 * readiness.ts and drains the PTY through ptyDrain.ts), the first prompt (sessionStartup.ts),
 * teardown (sessionTeardown.ts), and the rendering of what it returns (outputText.ts). PTY bytes
 * stay in memory; the log gets events only.
 * One concept in one file (over 400 lines): one PTY shell session.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { IPty } from 'node-pty';
import type { TerminalConfig } from '../config';
import { TerminalError } from '../errors';
import type { SendInput } from '../input/input';
import { integerProblem } from '../../common/integerInput';
import { quoteInput } from '../../common/quoteInput';
import { CommandHistory } from '../history/commandHistory';
import type { CommandEvent } from '../history/commandRecord';
import { readRegularFileHead } from '../../common/regularFileHead';
import { KILL_LINE_KEYS, MarkerParser, PROMPT_TEXT } from '../readiness/markers';
import { TRAPS_FILE, type ShellTraps, readShellTraps } from '../readiness/shellTraps';
import { NAMES_MAX_BYTES, type ShellNames, readShellNames } from '../readiness/shellNames';
import { renderedPage, renderedPageAsync } from '../output/outputText';
import { ActiveSend, type SendHost, type SendOptions } from '../readiness/activeSend';
import { epollReadsSettled } from '../../proc/epollSetReads';
import * as proc from '../../proc/procProbe';
import { LineKeys, LineSource, judgeLeftoverKeys, judgePromptKeys, leftoverKeysError, promptKeysError } from '../input/promptKeys';
import { readStat } from '../../proc/stat';
import { type Executable, executableOf, processIdentity, sameExecutable } from '../../proc/processIdentity';
import { TtyHolders } from '../../proc/ttyHolders';
import { checkNoOtherReader } from '../input/otherReaders';
import { SessionProcessTree } from '../../proc/processTree';
import type { SandboxSummary } from '../sandbox/policy';
import { type RenderedScreen, TextRenderer } from '../output/screenText';
import { TerminalModes } from '../output/terminalModes';
import type { SecretRedactor } from '../secrets/secretRedactor';
import { redactPage } from '../secrets/pageContext';
import { onlyControls } from '../output/onlyControls';
import type { ScreenTextThread } from '../output/screenTextThread';
import type { OwnerJobs } from '../output/matchPool';
import { Scrollback, tailByBytes } from '../output/scrollback';
import { SearchRequest, SearchResult, searchScrollback } from '../output/scrollbackSearch';
import {
  bytesToWrite,
  checkInput,
  checkLineLength,
  checkNotCancelled,
  checkPlace,
  checkReceiver,
  checkSignalReceiver,
  checkTimeout,
  inputPendingError,
  linesSubmitted,
  notReadingError,
  unprovenReaderError,
} from '../input/sendAdmission';
import { ShellMarkers } from '../readiness/shellMarkers';
import { canonicalMode, echoDisabled, readlineSettings } from '../../proc/termios';
import { personMustAnswerError, typesText } from '../input/echoOffInput';
import { StartupDir, StartupWatch } from './sessionStartup';
import { SessionTeardown } from './sessionTeardown';
import { SessionProcessWatch } from './sessionProcesses';
import { PortWatch } from '../readiness/portWatch';
import { AllowedSignal, BackendSession, CloseReport, Disposable, ListeningSocket, ProcessesReport, ForegroundProcess, InputReceiver, ReadRequest, ReadResult, ReceiverIdentity, ReceiverProcess, SendRequest, SendResult, SessionStatus, SignalResult, WaitRequest } from '../types';
import { waitUntil } from '../readiness/waitUntil';
import { errorMessage } from '../../common/errorMessage';
import type { Log } from '../../common/log';

/** Bytes of output before the first prompt kept as the message of the day. */
const MOTD_MAX_BYTES = 4096;
/** Lines a read returns when it names no count. */
const DEFAULT_READ_COUNT = 500;
/** Longest wait for a signal to take effect before the next send types (ms). */
const SIGNAL_SETTLE_MS = 2000;
/** Longest wait for the epoll sets of the foreground's waits to be read before a send looks (ms). */
const EPOLL_SETTLE_MS = 500;
/** Longest scrollback line in UTF-8 bytes before it is split with a visible marker (see scrollback.ts). */
const MAX_LINE_BYTES = 16 * 1024;
/** Raw scrollback lines rendered for a `screen: true` read: enough to redraw a full-screen program. */
const SCREEN_TAIL_LINES = 400;
/** Bytes of the traps report read (a trap's text is the user's; a confirmation shows its head). */
const TRAPS_MAX_BYTES = 16 * 1024;
/** Bytes of the whole report read: the shell's names (shellNames.ts), then its traps. */
const REPORT_MAX_BYTES = NAMES_MAX_BYTES + TRAPS_MAX_BYTES;
/** How often the open checks that the shell is still our shell while its startup files run (ms): /proc, ps(1). */
const STARTUP_CHECK_MS = { proc: 100, ps: 250 };

/**
 * One PTY shell session: a bash or zsh on its own PTY with the controlled prompt. It feeds the PTY's
 * output through the marker parser into the scrollback, the active send's viewport and the output
 * listeners, decides each send's readiness (readiness.ts), and closes with the session teardown.
 */
export class PtyShellSession implements BackendSession {
  motd = '';
  /** Set by the backend: started outside the agent sandbox on a confirmed grant while the sandbox was on. */
  outsideApproved = false;
  /**
   * Set by the backend: why input may not be typed now (the agent sandbox turned on, or no longer
   * allowing this session outside it, since it opened); see `BackendSession.inputRefusal`.
   */
  inputRefusal: () => TerminalError | undefined = () => undefined;
  private readonly parser: MarkerParser;
  private readonly scrollback: Scrollback;
  /** Every command the shell ran (commandHistory.ts), fed by the markers and the writes below. */
  readonly commands: CommandHistory;
  /** Renders model text (see screenText.ts); created on first use. */
  private renderer: TextRenderer | undefined;
  /**
   * The shell. In a sandbox it is not node-pty's child (the sandbox launcher is): until its first
   * prompt this is the launcher's pid, then the shell's (see locateSandboxedShell).
   */
  private shellPid: number;
  /** The shell's stopped children at the latest prompt that asked (see stoppedJob): pid → context switches. */
  private stoppedSwitches = new Map<number, number>();
  /** node-pty's child: the session leader, whose pid is the session id of every process of the session. */
  private readonly leaderPid: number;
  private ptsPath: string | undefined;
  /** The shell's start time (/proc stat field 22): with its pid it names our shell across pid reuse. */
  private readonly shellStart: number | undefined;
  /** The session's processes from its own process tree (Linux /proc probe only). */
  private readonly tree: SessionProcessTree | undefined;
  private readonly startupWatch: StartupWatch;
  private readonly teardownPlan: SessionTeardown;
  /** Where the shell reports its traps at every prompt (markers.ts, TRAPS_FILE). */
  private readonly trapsFile: string;
  private exitStatus: SessionStatus | undefined;
  private readonly exitListeners: ((s: SessionStatus) => void)[] = [];
  private readonly outputListeners = new Set<(text: string) => void>();
  private readonly commandListeners = new Set<(event: CommandEvent) => void>();
  private readonly markers = new ShellMarkers();
  private scrollbackOwesPrompt = false;
  /** The scrollback's text ends with a line end (or is empty). */
  private scrollbackAtLineStart = true;
  /** Control sequences held back from the scrollback until text follows them (see onText). */
  private heldControls = '';
  private lastDataAt = Date.now();
  /** The alternate screen and application cursor keys (DECCKM) as the output set them. */
  private readonly modes = new TerminalModes();
  /** The keys sends pressed at the prompt numbered `promptSeq` since it was shown (promptKeys.ts). */
  private lineKeys: { promptSeq: number; keys: LineKeys } | undefined;
  /**
   * Text the shell's command line may hold that no send at its prompt typed (promptKeys.ts
   * LineSource): set when keys go to a program (what it leaves unread reaches a later prompt) and
   * when the person types during Take Over; it lasts over prompts, since a new prompt reads what
   * was left before it, until text replaces the line (kill-whole-line first) or a prompt after
   * `interruptedAt` shows (Ctrl-C was sent at prompt `interruptedAt` and interrupted).
   */
  private foreignLine: { from: LineSource; interruptedAt?: number } | undefined;
  /** The send or wait in flight (activeSend.ts), and what it reads of this session. */
  private active: ActiveSend | undefined;
  private readonly sendHost: SendHost;
  private firstPromptWaiter: (() => void) | undefined;
  /** The executable the shell ran at its first prompt (with the /proc probe): another one since means it is no longer our shell. */
  private shellExecutable: Executable | undefined;
  /** Who has the terminal open, in any session (ttyHolders.ts): checked before every write. */
  private readonly holders = new TtyHolders(
    () => this.ptsIfKnown(),
    () => readStat(this.shellPid)?.ttyNr,
  );
  /** The first prompt was reached: the startup files ran to the end. */
  private opened = false;
  private closing: Promise<CloseReport> | undefined;
  /** The session's processes beyond its foreground: those it started, and their listening sockets. */
  private readonly processWatch: SessionProcessWatch;
  /** Drain markers written so far (ptyDrain.ts); the next one gets the next number. */
  private drainSeq = 0;
  /** Prompt seq when a signal was last delivered; a send first lets the shell settle after it. */
  private signalledAtSeq: number | undefined;

  /**
   * @param term the PTY with the shell already spawned on it.
   * @param nonce the controlled prompt's nonce written into the rc (markers.ts).
   * @param cwd the folder the shell started in.
   * @param probe use the Linux /proc probe (else ps(1) and no probe).
   * @param startup the session's private folder, removed when it closes.
   * @param sandbox the sandbox the shell runs in (its summary, and what to call once it closed).
   * @param renderThread renders model text off this thread (send results, readAsync).
   * @param redactor redacts secrets in everything an agent reads of the session (secretRedactor.ts).
   * @param mark the `DSH_SESSION=<id>` entry of the shell's environment (sessionEnv.ts).
   * @param shell the shell's name (`bash`, `zsh`), the executable started and its arguments.
   * @param jobs the shared pool of searches and `until` matches, as the session's owner uses it (output/matchPool.ts).
   */
  constructor(
    private readonly term: IPty,
    nonce: string,
    readonly cwd: string,
    private readonly config: TerminalConfig,
    private readonly log: Log,
    private readonly probe: boolean,
    startup: StartupDir,
    readonly sandboxed: { summary: SandboxSummary; release(): void } | undefined,
    private readonly renderThread: ScreenTextThread,
    readonly redactor: SecretRedactor,
    mark: string,
    readonly shell: { name: string; executable: string; args: readonly string[] },
    private readonly jobs: OwnerJobs,
  ) {
    this.parser = new MarkerParser(nonce);
    this.scrollback = new Scrollback({
      maxLines: config.retainedLines,
      maxBytes: config.retainedBytes,
      maxLineBytes: Math.min(MAX_LINE_BYTES, config.maxReadBytes),
    });
    this.commands = new CommandHistory({
      scrollback: this.scrollback,
      cwd: () => this.currentCwd(),
      size: config.historySize,
      stoppedJob: () => this.stoppedJob(),
      redactor,
    });
    this.shellPid = this.leaderPid = term.pid;
    this.ptsPath = (term as unknown as { ptsName?: string }).ptsName;
    this.shellStart = probe ? readStat(term.pid)?.startTime : undefined;
    this.tree = probe ? new SessionProcessTree(term.pid, this.shellStart) : undefined;
    this.startupWatch = new StartupWatch(startup, term.pid, probe);
    this.processWatch = new SessionProcessWatch(term.pid, this.shellStart, mark, () => this.shellPid, (commandLine) => redactor.redactLine(commandLine));
    this.trapsFile = path.join(startup.dir, TRAPS_FILE);
    this.teardownPlan = new SessionTeardown({
      shellPid: this.leaderPid,
      shellStart: this.shellStart,
      probe,
      startup,
      sandboxed: sandboxed !== undefined,
      log,
      ptsPath: () => this.ptsPath,
      exited: () => !!this.exitStatus,
      opened: () => this.opened,
      killShell: () => term.kill('SIGKILL'),
      owned: this.processWatch.owned,
      describe: (p) => this.processWatch.describe(p),
    });
    this.sendHost = {
      config,
      log,
      probe,
      nonce,
      markers: this.markers,
      tree: this.tree,
      exitStatus: () => this.exitStatus,
      lastDataAt: () => this.lastDataAt,
      alternateScreen: () => this.modes.alternateScreen,
      shellPid: () => this.shellPid,
      foregroundGroup: () => this.foregroundGroup(),
      groupWaits: (pgrp) => this.groupWaits(pgrp),
      commandOf: (pid) => this.commandOf(pid),
      foreground: () => this.foreground(),
      status: () => this.status(),
      ptsIfKnown: () => this.ptsIfKnown(),
      shellReplaced: () => this.shellReplaced(),
      interrupt: () => void this.signal('SIGINT'),
      stoppedAtPrompt: () => this.commands.stoppedAtPrompt,
      render: (raw, options) => this.renderThread.render(this.cellSize(), raw, options),
      redact: (text) => redactor.redact(text, this.term.cols),
      redactLine: (line) => redactor.redactLine(line),
      matchUntil: (pattern, text) => jobs.matchUntil(pattern, text),
    };
    term.onData((chunk) => this.onData(chunk));
    term.onExit(({ exitCode, signal }) => this.handleExit(exitCode, signal));
  }

  /**
   * Whether a command just ended by a prompt with `$?` = 128 + a stop signal left a process stopped:
   * a child of the shell stopped now that was not stopped, or has run since, at the previous such
   * prompt (its context switches grew), so a job stopped earlier and still stopped is not taken for
   * this command's. Undefined without the /proc probe.
   */
  private stoppedJob(): boolean | undefined {
    if (!this.probe) return undefined;
    const now = proc.stoppedChildren(this.shellPid);
    const fresh = now.some((p) => this.stoppedSwitches.get(p.pid) !== p.switches);
    this.stoppedSwitches = new Map(now.map((p) => [p.pid, p.switches]));
    return fresh;
  }

  /** The shell's name (`bash`, `zsh`). */
  get shellName(): string {
    return this.shell.name;
  }

  status(): SessionStatus {
    return this.exitStatus ?? { kind: 'running' };
  }

  isBusy(): boolean {
    if (this.exitStatus) return false;
    if (this.active || this.markers.inputPending) return true;
    const tpgid = this.foregroundGroup();
    return tpgid !== undefined ? tpgid !== this.shellPid : this.markers.last === 'start';
  }

  foreground(): ForegroundProcess | undefined {
    if (this.exitStatus) return undefined;
    const tpgid = this.foregroundGroup();
    const pid = tpgid ?? this.shellPid;
    return { pid, command: this.commandOf(pid) };
  }

  traps(): ShellTraps {
    if (this.exitStatus) return { kind: 'none' };
    const { content, cut } = this.report();
    return readShellTraps(content, this.markers.promptSeq, cut);
  }

  /** The traps report as the shell wrote it at its last prompt (its names, then its traps), at most REPORT_MAX_BYTES. */
  private report(): { content: string | undefined; cut: boolean } {
    // One byte more than kept: a report cut right after an entry would otherwise read as whole.
    const head = readRegularFileHead(this.trapsFile, REPORT_MAX_BYTES + 1);
    return { content: head?.toString('utf8', 0, REPORT_MAX_BYTES), cut: head !== undefined && head.length > REPORT_MAX_BYTES };
  }

  shellNames(): ShellNames {
    if (this.exitStatus) return { kind: 'unknown' };
    // A names section that ends in its delimiter is whole even when the traps after it were cut.
    return readShellNames(this.report().content, this.markers.promptSeq);
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
    const replaced = this.shellReplaced();
    if (atPrompt && !replaced) {
      const lineKeys = this.lineKeysNow();
      return {
        kind: this.markers.last === 'continuation' ? 'shell-continuation' : 'shell-prompt',
        process: this.receiverProcess(this.shellPid),
        lineEditing: this.markers.lineEditing !== false,
        ...(lineKeys && { lineKeys }),
      };
    }
    const processGroup = tpgid ?? this.shellPid;
    const standIn = replaced && processGroup === this.shellPid ? { replacedShell: true as const } : {};
    if (!this.probe) return { kind: 'program', process: this.receiverProcess(processGroup), processGroup, ...standIn };
    // The process that will read: one blocked reading the terminal, else the group's leader.
    const { waits, complete } = this.groupWaits(processGroup);
    const pid = waits[0]?.pid ?? processGroup;
    const reading = waits.length > 0 || (complete ? false : undefined);
    return { kind: 'program', process: this.receiverProcess(pid), processGroup, ...(reading !== undefined && { reading }), ...standIn };
  }

  /** Process `pid` as a receiver names it: what it says it is, and what the kernel runs (processIdentity.ts). */
  private receiverProcess(pid: number): ReceiverProcess {
    const identity = this.probe ? processIdentity(pid) : undefined;
    return { pid, command: this.commandOf(pid), ...(identity?.executable && { executable: identity.executable.path }), ...(identity && { identity }) };
  }

  /**
   * True when the shell's process runs another executable than at its first prompt: it `exec`ed a
   * program (which may call itself bash and print prompt markers), or its executable can no longer
   * be read. False without the /proc probe (nothing recorded).
   */
  shellReplaced(): boolean {
    if (this.shellExecutable === undefined || this.exitStatus) return false;
    return !sameExecutable(executableOf(this.shellPid), this.shellExecutable);
  }

  /**
   * The keys earlier sends pressed at the prompt the shell shows now, which its command line holds,
   * with `foreign` set while the line may hold text no send at the prompt typed (foreignLine);
   * undefined when neither (a new prompt starts with an empty line; text sends replace the line).
   */
  private lineKeysNow(): LineKeys | undefined {
    const seq = this.markers.promptSeq;
    const keys = this.lineKeys?.promptSeq === seq ? this.lineKeys.keys : undefined;
    const foreign = this.foreignLine;
    if (!foreign || (foreign.interruptedAt !== undefined && seq > foreign.interruptedAt)) return keys;
    return { ...(keys ?? { keys: [], more: 0 }), foreign: foreign.from };
  }

  /**
   * Who holds the terminal now: the foreground process group (undefined without a probe), whether
   * it is the shell's, and whether the shell waits for a command at its prompt or continuation
   * prompt (after PS0 it runs one: its own `read` builtin, or an `exec`ed program, may then read).
   */
  private inputState(): { tpgid: number | undefined; shellInForeground: boolean; atPrompt: boolean } {
    const tpgid = this.foregroundGroup();
    const shellInForeground = tpgid === undefined ? this.markers.last !== 'start' : tpgid === this.shellPid;
    return { tpgid, shellInForeground, atPrompt: shellInForeground && this.markers.last !== 'start' };
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
        if (!error && this.sandboxed && this.probe) error = this.locateSandboxedShell();
        if (error) reject(error);
        else {
          this.opened = true;
          if (this.probe) this.shellExecutable = executableOf(this.shellPid);
          resolve();
        }
      };
      const timer = setTimeout(
        () => done(new TerminalError('SPAWN_FAILED', `the shell did not show its first prompt within ${timeoutMs} ms (${this.startupWatch.stage()}); check your shell startup files or raise dsh.terminal.openTimeoutMs`)),
        timeoutMs,
      );
      let checking = false;
      const watch = setInterval(() => {
        if (checking || this.exitStatus || this.markers.promptSeq > 0) return;
        checking = true;
        void this.startupWatch.replacedBy().then((replacedBy) => {
          checking = false;
          if (replacedBy !== undefined && this.firstPromptWaiter && !this.exitStatus && this.markers.promptSeq === 0) done(this.startupWatch.hijackError(replacedBy));
        });
      }, this.probe ? STARTUP_CHECK_MS.proc : STARTUP_CHECK_MS.ps);
      const onAbort = () => done(new TerminalError('SPAWN_FAILED', `opening the session was cancelled: ${errorMessage(signal?.reason)}`));
      signal?.addEventListener('abort', onAbort);
      this.firstPromptWaiter = () => {
        if (this.exitStatus) done(this.startupWatch.startFolderError(this.cwd) ?? this.startupWatch.tooOldError() ?? new TerminalError('SPAWN_FAILED', `the shell exited before its first prompt (${statusText(this.exitStatus)}, ${this.startupWatch.stage()})`));
        else if (this.markers.promptSeq > 0 && this.markers.promptTextSeen) done();
      };
    });
  }

  async send(request: SendRequest): Promise<SendResult> {
    if (this.exitStatus) {
      throw new TerminalError('SESSION_EXITED', `the session's shell has exited (${statusText(this.exitStatus)}); open a new session`);
    }
    if (this.active) throw new TerminalError('SESSION_BUSY', 'a send is already in flight on this session; wait for it to return');
    const timeoutMs = checkTimeout(request.timeoutMs ?? this.config.defaultTimeoutMs, request.timeoutMs);
    const typed = checkInput(request);
    checkNotCancelled(request.signal);
    await this.settleAfterSignal();
    await this.judgeEpollWaits();
    if (this.probe) await this.holders.fresh();
    const { tpgid, shellInForeground, atPrompt } = this.inputState();
    if (request.expectReceiver) {
      checkReceiver(this.receiver(), request.expectReceiver);
      const stated = request.expectReceiver.place;
      if (stated) checkPlace({ cwd: this.currentCwd(), traps: this.traps() }, stated);
    }
    let preWaits = proc.NO_WAITS;
    if (this.probe && tpgid !== undefined) {
      preWaits = this.groupWaits(tpgid);
      // Not even a shell blocked in read proves the input was consumed: node-pty writes large
      // input in pieces as the terminal drains it. Only the next prompt (or SIGINT) does.
      if (atPrompt && this.markers.inputPending) throw inputPendingError();
      if (!atPrompt && preWaits.waits.length > 0 && typed.kind === 'text') await checkLineLength(typed.text, this.pts());
      if (!shellInForeground && preWaits.waits.length === 0) throw preWaits.complete ? notReadingError(this.foreground()) : unprovenReaderError(preWaits.searching ? 'searching' : 'crowded');
      // A program reading with echo off asks for a secret: the person types it, never the agent.
      if (!atPrompt && preWaits.waits.length > 0 && typesText(typed) && (await echoDisabled(this.ptsIfKnown()))) {
        throw personMustAnswerError(this.commandOf(preWaits.waits[0]!.pid));
      }
    } else if (!shellInForeground) {
      throw unprovenReaderError();
    }
    // Where bash's line editor reads keys, keys that would run text no confirmation shows are
    // refused here, where the keys really go, whatever the confirmation saw. So are keys for a
    // program that would do so once they reach the shell's prompt unread (promptKeys.ts).
    const readline = atPrompt && (await this.readlineReads(typed));
    const verdict = typed.kind === 'keys' && readline ? judgePromptKeys(typed.keys, this.lineKeysNow()) : undefined;
    if (verdict?.refusal) throw promptKeysError(verdict.refusal);
    if (typed.kind === 'keys' && !atPrompt) await this.checkLeftoverKeys(typed.keys);
    // After the last await, before anything changes (the service checked before the call; the agent
    // sandbox may have been turned on meanwhile).
    const refusedNow = this.inputRefusal();
    if (refusedNow) throw refusedNow;
    // Cancelled while the send was admitted: its abort listener is armed only with the write.
    checkNotCancelled(request.signal);
    // Nobody but the receiver reads: the shell alone at its prompt, the foreground group otherwise.
    if (this.probe) {
      const receiverGroup = tpgid ?? this.shellPid;
      checkNoOtherReader(this.holders.now(), this.ptsIfKnown(), (p) => (atPrompt ? p.pid === this.shellPid : p.pgrp === receiverGroup), atPrompt ? 'the shell' : `the foreground process group ${receiverGroup}`, this.shellPid);
    }
    const input = bytesToWrite(typed, atPrompt, readline, this.modes.applicationCursor);
    const keysAtPrompt = typed.kind === 'keys' && atPrompt;
    this.lineKeys = verdict?.line && { promptSeq: this.markers.promptSeq, keys: verdict.line };
    if (typed.kind === 'keys' && !atPrompt) this.foreignLine = { from: 'program' };
    else if (this.foreignLine && input.startsWith(KILL_LINE_KEYS)) this.foreignLine = undefined;
    else if (this.foreignLine && verdict && typed.kind === 'keys' && typed.keys.includes('Ctrl-C')) this.foreignLine.interruptedAt = this.markers.promptSeq;
    // Typed while the shell is not at its prompt, the input is read after the prompt that ends the
    // running command: that prompt is not this send's answer, so it is judged with quiet after it.
    const typeAhead = !atPrompt || linesSubmitted(input) > 1;
    return this.track({ kind: 'send', timeoutMs, signal: request.signal, atPrompt, preWaits, probeDelayMs: this.config.probeStartDelayMs, keysAtPrompt, typeAhead }, () => {
      // Keys are a few bytes written at once; they need not end the line (Up, Tab), so no prompt
      // may follow them. Text always ends with a newline: the shell prompts again once it read it.
      if (atPrompt && typed.kind === 'text') this.markers.inputPending = true;
      this.commands.wrote(input, request.origin ?? 'agent', typed.kind === 'text' && input.startsWith(KILL_LINE_KEYS) ? typed.text : undefined, request.approvedBy);
      this.term.write(input);
    });
  }

  /**
   * Whether readline reads what `typed` writes at the shell's prompt. The marker's word that line
   * editing is off is checked against the terminal, since a command can make the marker say `n`:
   * readline reads with ICANON off, bash without it with ICANON on. Keys are judged as readline's
   * unless the terminal shows canonical mode. Text is pasted into an emptied line (never run with
   * what keys left there) only where the terminal is set as readline sets it: ICANON left off by
   * `stty -icanon` or a crashed program, with line editing really off, would take the paste's
   * escapes as typed text. The terminal's settings (stty) are read only when the marker says off.
   */
  private async readlineReads(typed: SendInput): Promise<boolean> {
    if (this.markers.lineEditing !== false) return true;
    if (typed.kind === 'keys') return !(await canonicalMode(this.ptsIfKnown()));
    return (await readlineSettings(this.ptsIfKnown())) === true;
  }

  /**
   * Refuses keys for a program reading the terminal when what it may leave unread would run a
   * line no confirmation shows at the shell's prompt (promptKeys.ts judgeLeftoverKeys). The
   * terminal's mode (stty) is read only when the keys would be refused for a program reading key
   * by key: one reading whole lines leaves fewer keys. Unreadable settings count as key by key.
   * @throws TerminalError INVALID_ARGUMENT naming the reader, the keys and what they would do.
   */
  private async checkLeftoverKeys(keys: readonly string[]): Promise<void> {
    let leftover = judgeLeftoverKeys(keys, false);
    if (leftover && (await canonicalMode(this.ptsIfKnown()))) leftover = judgeLeftoverKeys(keys, true);
    if (!leftover) return;
    const reader = this.receiver();
    throw leftoverKeysError(reader.kind === 'program' ? reader.process.command : 'the program', leftover);
  }

  async wait(request: WaitRequest): Promise<SendResult> {
    if (this.exitStatus) {
      throw new TerminalError('SESSION_EXITED', `nothing to wait for: the session's shell has exited (${statusText(this.exitStatus)}); open a new session`);
    }
    if (this.active) throw new TerminalError('SESSION_BUSY', 'a send or wait is already in flight on this session; wait for it to return');
    const timeoutMs = checkTimeout(request.timeoutMs ?? this.config.defaultTimeoutMs, request.timeoutMs);
    checkNotCancelled(request.signal, 'wait');
    await this.settleAfterSignal();
    const { tpgid, atPrompt } = this.inputState();
    const forPort = request.untilListening;
    if (forPort !== undefined && !this.probe) {
      throw new TerminalError('INVALID_ARGUMENT', 'untilListening needs the Linux /proc probe, which this machine does not have: wait with until (a line the server prints) instead');
    }
    // A server started in the background leaves the shell at its prompt: waiting for its port is still a wait.
    const idleStart = atPrompt && !this.markers.inputPending;
    if (idleStart && forPort === undefined) {
      const where =
        this.markers.last === 'continuation'
          ? 'the shell waits for the rest of a command at its continuation prompt (an open quote or heredoc): send the rest with dsh_terminal_send, or SIGINT to drop it'
          : `the shell is at its prompt (the last command finished${this.markers.last === 'prompt' ? ` with exit code ${this.markers.promptStatus}` : ''}): send a command with dsh_terminal_send`;
      throw new TerminalError('NOTHING_TO_WAIT_FOR', `nothing to wait for: no command is running; ${where}`);
    }
    // A program already waiting for input is the answer at once; only input the shell is still
    // reading at its prompt is judged as a send's would be (waits from before do not count).
    const preWaits = this.probe && tpgid !== undefined && atPrompt ? this.groupWaits(tpgid) : proc.NO_WAITS;
    // Cancelled while the wait settled a signal: its abort listener is armed only as it starts.
    checkNotCancelled(request.signal, 'wait');
    const listening = forPort === undefined ? undefined : { watch: new PortWatch(forPort, () => this.processWatch.listening(true)), idleStart };
    return this.track({ kind: 'wait', timeoutMs, signal: request.signal, atPrompt: atPrompt && !idleStart, preWaits, probeDelayMs: 0, until: request.until, listening }, () => {});
  }

  /**
   * Makes a send or wait the active one: arms its absolute timeout, its backed-off readiness poll
   * and its cancellation (SIGINT to the foreground process group), runs `start` (the write of a
   * send; nothing for a wait), and resolves with its result once it has a wait reason.
   */
  private track(options: SendOptions, start: () => void): Promise<SendResult> {
    return new Promise<SendResult>((resolve, reject) => {
      const send = new ActiveSend(this.sendHost, options, () => ++this.drainSeq, {
        finished: () => {
          if (this.active === send) this.active = undefined;
        },
        answered: resolve,
        failed: reject,
      });
      this.active = send;
      start();
    });
  }

  /**
   * A page, a command's page or the screen, rendered on this thread (readAsync renders off it).
   * Not redacted: the person's view (the panel's backlog); what an agent reads is readAsync.
   */
  read(request: ReadRequest): ReadResult {
    const source = this.readSource(request);
    if (source.kind === 'screen') return screenPage(source.tail, this.render().screen(source.tail.text));
    if (request.raw) return source.page;
    return renderedPage(() => this.render(), source.page, source.pageOf, this.config.maxReadBytes, this.log);
  }

  /** As read, rendered in the render thread: the caller's thread is not held by the render. */
  async readAsync(request: ReadRequest): Promise<ReadResult> {
    const page = await this.unredactedReadAsync(request);
    const shown = request.screen ? 0 : page.lineEnd - page.lineBegin;
    return { ...page, text: await redactPage(this.scrollback, (text) => this.redactor.redact(text, this.term.cols), page.text, page.firstLineNumber, shown) };
  }

  private async unredactedReadAsync(request: ReadRequest): Promise<ReadResult> {
    const source = this.readSource(request);
    const size = this.cellSize();
    if (source.kind === 'screen') return screenPage(source.tail, await this.renderThread.screen(size, source.tail.text));
    if (request.raw) return source.page;
    return renderedPageAsync((raw) => this.renderThread.render(size, raw), source.page, source.pageOf, this.config.maxReadBytes, this.log);
  }

  /**
   * The raw text a read renders: the scrollback's tail for the screen, else the page asked for,
   * and `pageOf(count)`, the same page with at most `count` lines (the same newest line).
   * @throws TerminalError INVALID_ARGUMENT for an offset or count out of range, a `raw` or `screen`
   *   that is not a boolean, screen with command, or a command the record does not hold.
   */
  private readSource(request: ReadRequest): { kind: 'screen'; tail: ReadResult } | { kind: 'page'; page: ReadResult; pageOf: (count: number) => ReadResult } {
    const offset = request.offset ?? 0;
    const count = request.count ?? DEFAULT_READ_COUNT;
    for (const [name, value, min] of [['offset', offset, 0], ['count', count, 1]] as const) {
      const problem = integerProblem(value, name, min);
      if (problem) throw new TerminalError('INVALID_ARGUMENT', problem);
    }
    // A string "false" is truthy: anything but a boolean would pick the wrong kind of page.
    for (const name of ['raw', 'screen'] as const) {
      const value: unknown = request[name];
      if (value !== undefined && typeof value !== 'boolean') throw new TerminalError('INVALID_ARGUMENT', `${name} must be true or false, or left out (got ${quoteInput(value)})`);
    }
    if (request.screen && request.command !== undefined) throw new TerminalError('INVALID_ARGUMENT', 'give screen or command, not both: the screen is not part of any command');
    if (request.screen) return { kind: 'screen', tail: this.scrollback.page(0, SCREEN_TAIL_LINES, this.config.maxReadBytes) };
    const { command } = request;
    const pageOf = (lines: number) =>
      command === undefined ? this.scrollback.page(offset, lines, this.config.maxReadBytes) : this.commands.outputPage(command, offset, lines, this.config.maxReadBytes);
    return { kind: 'page', page: pageOf(count), pageOf };
  }

  search(request: SearchRequest): Promise<SearchResult> {
    return this.jobs.admitSearch(() => searchScrollback(this.scrollback, this.commands, request, (texts) => this.redactor.redactAll(texts, this.term.cols), this.jobs));
  }

  private render(): TextRenderer {
    this.renderer ??= new TextRenderer(this.term.cols, this.term.rows);
    return this.renderer;
  }

  private cellSize(): { cols: number; rows: number } {
    return { cols: this.term.cols, rows: this.term.rows };
  }

  signal(signal: AllowedSignal, expect?: ReceiverIdentity): SignalResult {
    if (this.exitStatus) {
      return { signal, delivered: false, sessionStatus: this.exitStatus, reason: `the session's shell has exited (${statusText(this.exitStatus)}): there is no process to signal` };
    }
    if (expect) checkSignalReceiver(this.receiver(), expect);
    const tpgid = this.foregroundGroup() ?? this.shellPid;
    const foreground = this.foreground();
    // Only a group of this session: never signal a group that left it or a reused pid.
    const ours = this.probe ? this.groupIsOurs(tpgid) : true;
    if (ours === 'searching') {
      const reason = `the foreground process group ${tpgid} has lost its leader and none of its members was found near it or in the shell's process tree; they are being searched for in /proc: send the signal again in a moment`;
      return { signal, delivered: false, foreground, reason };
    }
    if (!ours) return { signal, delivered: false, foreground };
    try {
      process.kill(-tpgid, signal);
      this.signalledAtSeq = this.markers.promptSeq;
      this.commands.signalled(signal);
      this.log.info(`signal ${signal} delivered to process group ${tpgid}`);
      return { signal, delivered: true, foreground };
    } catch (error) {
      this.log.warn(`signal ${signal} to process group ${tpgid} failed: ${errorMessage(error)}`);
      return { signal, delivered: false, foreground };
    }
  }

  writeUserInput(data: string, secret = false): void {
    if (this.exitStatus) return;
    // What the person types is not judged (they see it), but no agent send may run it unseen.
    this.foreignLine = { from: 'user' };
    // An answer to a prompt that reads with echo off is not recorded anywhere.
    if (!secret) this.commands.wrote(data, 'user');
    this.term.write(data);
  }

  onOutput(listener: (text: string) => void): Disposable {
    this.outputListeners.add(listener);
    return { dispose: () => this.outputListeners.delete(listener) };
  }

  onCommand(listener: (event: CommandEvent) => void): Disposable {
    this.commandListeners.add(listener);
    return { dispose: () => this.commandListeners.delete(listener) };
  }

  onExit(listener: (status: SessionStatus) => void): void {
    if (this.exitStatus) listener(this.exitStatus);
    else this.exitListeners.push(listener);
  }

  close(reason: string, options: { keep?: boolean } = {}): Promise<CloseReport> {
    this.closing ??= this.teardown(reason, options.keep === true);
    return this.closing;
  }

  processes(scan: boolean): Promise<ProcessesReport> {
    return this.processWatch.report(scan);
  }

  listening(): Promise<ListeningSocket[] | undefined> {
    return this.processWatch.listening();
  }

  private async teardown(reason: string, keep: boolean): Promise<CloseReport> {
    this.log.info(`closing shell pid ${this.shellPid}${keep ? ', keeping its background processes' : ''}: ${reason}`);
    this.renderer?.dispose();
    this.renderer = undefined;
    try {
      return await this.teardownPlan.run({ keep });
    } finally {
      this.sandboxed?.release();
    }
  }

  /**
   * In a sandbox the shell is a descendant of node-pty's child, in the same session. At its first
   * prompt an interactive bash or zsh holds the terminal's foreground in a process group of its own, so
   * the foreground group names it; its command line must be the one the session started.
   */
  private locateSandboxedShell(): TerminalError | undefined {
    const tpgid = readStat(this.leaderPid)?.tpgid;
    const args = tpgid !== undefined && tpgid > 0 ? proc.procArgs(tpgid) : undefined;
    if (tpgid === undefined || args === undefined || !args.endsWith(` ${this.shell.args.join(' ')}`)) {
      return new TerminalError('SPAWN_FAILED', `the sandboxed shell reached its first prompt but does not hold the terminal's foreground (foreground group ${tpgid ?? 'unknown'}); the session is ended`);
    }
    this.shellPid = tpgid;
    return undefined;
  }

  /**
   * After a signal the shell discards type-ahead while it redraws its prompt (readline on SIGINT),
   * and a dying program may still hold the foreground: input written then is lost or refused.
   * Waits up to SIGNAL_SETTLE_MS for the next prompt, or for the foreground to be reading again.
   */
  settled(): Promise<void> {
    return this.settleAfterSignal();
  }

  /**
   * A program in the foreground that waits in epoll is judged from its epoll set, which is read
   * off this thread (procProbe.ts epollWatches): one look starts the reads, and the send's own
   * look comes once they are in (at most EPOLL_SETTLE_MS), so it can tell that the program reads.
   */
  private async judgeEpollWaits(): Promise<void> {
    const tpgid = this.probe ? this.foregroundGroup() : undefined;
    if (tpgid === undefined || tpgid === this.shellPid) return;
    this.groupWaits(tpgid);
    await epollReadsSettled(EPOLL_SETTLE_MS);
  }

  private async settleAfterSignal(): Promise<void> {
    const since = this.signalledAtSeq;
    if (since === undefined) return;
    this.signalledAtSeq = undefined;
    await waitUntil(() => {
      if (this.exitStatus) return true;
      if (this.markers.promptSeq > since && this.markers.promptTextSeen && Date.now() - this.lastDataAt >= this.config.promptGraceMs) return true;
      const tpgid = this.foregroundGroup();
      return tpgid !== undefined && tpgid !== this.shellPid && this.groupWaits(tpgid).waits.length > 0;
    }, SIGNAL_SETTLE_MS);
  }

  private onData(chunk: string): void {
    this.lastDataAt = Date.now();
    this.active?.poke();
    for (const event of this.parser.push(chunk)) {
      if (event.kind === 'text') {
        this.onText(event.text);
        continue;
      }
      if (event.kind === 'drain') {
        this.active?.onDrain(event.seq);
        continue;
      }
      this.markers.apply(event);
      const boundary = this.commands.marker(event);
      if (boundary) for (const listener of this.commandListeners) listener(boundary);
      switch (event.kind) {
        case 'prompt':
          this.active?.onPrompt();
          break;
        case 'prompt-text':
          this.scrollbackOwesPrompt = true;
          this.firstPromptWaiter?.();
          break;
        case 'start':
          this.active?.onCommandStart();
          break;
        case 'continuation':
          this.active?.onContinuation();
          break;
      }
    }
    this.active?.onMarkersApplied();
  }

  private onText(text: string): void {
    this.modes.push(text);
    // The prompt text was swallowed with its marker; the scrollback shows it only once text
    // follows it, so a page read at an idle prompt ends with the last output line. Control
    // sequences alone at the start of a line (zle resets attributes and erases below before its
    // prompt, erases to the end of the line and sets keypad mode after it) draw nothing: the
    // scrollback takes them with the next text, so they make no line of their own.
    const cut = text.lastIndexOf('\n') + 1;
    const tail = text.slice(cut);
    const lineStart = cut > 0 || this.scrollbackAtLineStart || this.scrollbackOwesPrompt;
    const holdTail = lineStart && tail !== '' && this.heldControls.length < MOTD_MAX_BYTES && onlyControls(tail);
    const body = holdTail ? text.slice(0, cut) : text;
    let shown = text;
    if (body !== '') {
      if (this.scrollbackOwesPrompt) shown = PROMPT_TEXT + text;
      this.scrollback.append(this.heldControls + (this.scrollbackOwesPrompt ? PROMPT_TEXT : '') + body);
      this.heldControls = '';
      this.scrollbackOwesPrompt = false;
      this.scrollbackAtLineStart = body.endsWith('\n');
    }
    if (holdTail) this.heldControls += tail;
    this.commands.text(text);
    for (const listener of this.outputListeners) listener(shown);
    this.markers.text(text);
    if (this.firstPromptWaiter && this.markers.promptSeq === 0 && Buffer.byteLength(this.motd) < MOTD_MAX_BYTES) {
      this.motd = tailByBytes(this.motd + text, MOTD_MAX_BYTES).text;
    }
    this.active?.onText(text);
  }

  private handleExit(exitCode: number, signal?: number): void {
    const name = signal ? (Object.entries(os.constants.signals).find(([, n]) => n === signal)?.[0] ?? String(signal)) : null;
    this.exitStatus = { kind: 'exited', exitCode: name ? null : exitCode, signal: name };
    this.log.info(`shell pid ${this.shellPid} exited: ${statusText(this.exitStatus)}`);
    this.commands.sessionExited();
    this.firstPromptWaiter?.();
    this.active?.finish('session_exit');
    for (const listener of this.exitListeners.splice(0)) listener(this.exitStatus);
  }

  /**
   * The waits on this session's terminal of process group `pgrp`, from one look at the session's
   * own process tree (processTree.ts; a look reads a bounded number of processes and says when it
   * was cut). Call only with the probe on.
   */
  private groupWaits(pgrp: number): proc.GroupWaits {
    const look = this.tree?.look(pgrp) ?? { members: proc.groupProcesses(this.leaderPid, pgrp, this.shellStart), complete: true };
    return proc.groupWaits(pgrp, look, this.pts());
  }

  /**
   * True when process group `pgrp` has a member in this session now, so a signal to it reaches
   * only processes of ours (see SessionProcessTree.hasMember; 'searching' while a scan of /proc
   * off this thread looks for members nothing nearer found). Call only with the probe on.
   */
  private groupIsOurs(pgrp: number): boolean | 'searching' {
    return this.tree ? this.tree.hasMember(pgrp) : proc.groupProcesses(this.leaderPid, pgrp, this.shellStart).length > 0;
  }

  /**
   * The shell is named by its executable (its command line holds our rc path); others in full,
   * secrets in their arguments redacted (results, listings, errors and confirmations name them).
   */
  private commandOf(pid: number): string {
    // The shell's short name, while it is still the shell started (a stand-in may write it into its comm).
    if (pid === this.shellPid && readStat(pid)?.comm === path.basename(this.shell.executable) && !this.shellReplaced()) return path.basename(this.shell.executable);
    return this.redactor.redactLine(proc.commandLine(pid, readStat(pid)?.comm ?? ''));
  }

  private foregroundGroup(): number | undefined {
    if (!this.probe || this.exitStatus) return undefined;
    const tpgid = readStat(this.shellPid)?.tpgid;
    return tpgid !== undefined && tpgid > 0 ? tpgid : undefined;
  }

  /** The session's terminal, or '' when it cannot be named (then stty reads nothing). */
  private ptsIfKnown(): string {
    try {
      return this.pts();
    } catch {
      return '';
    }
  }

  /**
   * The session's terminal (`/dev/pts/N`): node-pty's name for it, else the link of the shell's stdin.
   * @throws the file system's error when neither is known and the link cannot be read.
   */
  private pts(): string {
    this.ptsPath ??= fs.readlinkSync(`/proc/${this.shellPid}/fd/0`);
    return this.ptsPath;
  }
}

function statusText(status: SessionStatus): string {
  return status.kind === 'running' ? 'running' : status.signal ? `killed by ${status.signal}` : `exit code ${status.exitCode}`;
}

/** A screen read: the scrollback tail's page fields with the rendered screen as its text. */
function screenPage(tail: ReadResult, screen: RenderedScreen): ReadResult {
  const result: ReadResult = { ...tail, offset: 0, lineBegin: 0, lineEnd: 0, truncated: false, text: screen.lines.join('\n') };
  if (screen.limited) result.renderLimited = true;
  return result;
}
