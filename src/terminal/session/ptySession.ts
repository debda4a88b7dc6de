/**
 * A PTY shell session (pty-bash, pty-zsh): the shell on its PTY, and admission of its sends and
 * waits. The parts it is made of live beside it: the data pump (outputPump.ts), foreground
 * probing (foregroundProbe.ts), who would read a send (inputReceiver.ts), paging
 * (sessionPages.ts), signals (sessionSignals.ts), the command line's keys (input/promptLine.ts),
 * the marker state (shellMarkers.ts), send admission (sendAdmission.ts), the send/wait state
 * machine (activeSend.ts, which asks readiness.ts and drains the PTY through ptyDrain.ts), the
 * first prompt (firstPrompt.ts, sessionStartup.ts) and teardown (sessionTeardown.ts). PTY bytes
 * stay in memory; the log gets events only.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import type { IPty } from 'node-pty';
import type { TerminalConfig } from '../config';
import { TerminalError } from '../errors';
import { CommandHistory } from '../history/commandHistory';
import type { CommandEvent } from '../history/commandRecord';
import { KILL_LINE_KEYS } from '../readiness/markers';
import { TRAPS_FILE, type ShellTraps, readShellTraps } from '../readiness/shellTraps';
import { readTrapsReport } from '../readiness/trapsReport';
import { type ShellNames, readShellNames } from '../readiness/shellNames';
import { ActiveSend, type SendHost, type SendOptions } from '../readiness/activeSend';
import * as proc from '../../proc/procProbe';
import { judgePromptKeys, promptKeysError } from '../input/promptKeys';
import { PromptLine } from '../input/promptLine';
import type { CheckedSendInput } from '../input/input';
import { readStat } from '../../proc/stat';
import { TtyHolders } from '../../proc/ttyHolders';
import { checkNoOtherReader } from '../input/otherReaders';
import type { SandboxSummary } from '../sandbox/policy';
import type { ScreenTextThread } from '../output/screenTextThread';
import type { OwnerJobs } from '../output/matchPool';
import { Scrollback } from '../output/scrollback';
import type { SearchRequest, SearchResult } from '../output/scrollbackSearch';
import type { SecretRedactor } from '../secrets/secretRedactor';
import {
  bytesToWrite,
  checkLeftoverKeys,
  checkLineLength,
  checkNotCancelled,
  checkPlace,
  checkReceiver,
  checkTimeout,
  inputPendingError,
  linesSubmitted,
  notReadingError,
  readlineReads,
  unprovenReaderError,
} from '../input/sendAdmission';
import { ShellMarkers } from '../readiness/shellMarkers';
import { echoDisabled } from '../../proc/termios';
import { personMustAnswerError, typesText } from '../input/echoOffInput';
import { StartupDir, StartupWatch } from './sessionStartup';
import { SessionTeardown } from './sessionTeardown';
import { SessionProcessWatch } from './sessionProcesses';
import { ForegroundProbe } from './foregroundProbe';
import { OutputPump } from './outputPump';
import { SessionPages } from './sessionPages';
import { SessionSignals } from './sessionSignals';
import { statusText } from './statusText';
import { firstPrompt } from './firstPrompt';
import { currentReceiver, inputState } from './inputReceiver';
import { PortWatch } from '../readiness/portWatch';
import type {
  AllowedSignal,
  BackendSession,
  CloseReport,
  Disposable,
  ListeningSocket,
  ProcessesReport,
  ForegroundProcess,
  InputReceiver,
  ReadRequest,
  ReadResult,
  ReceiverIdentity,
  SendRequest,
  SendResult,
  SessionStatus,
  SignalResult,
  WaitRequest,
} from '../types';
import type { Log } from '../../common/log';

/** Longest scrollback line in UTF-8 bytes before it is split with a visible marker (see scrollback.ts). */
const MAX_LINE_BYTES = 16 * 1024;

/**
 * One PTY shell session: a bash or zsh on its own PTY with the controlled prompt. It feeds the PTY's
 * output through the marker parser into the scrollback, the active send's viewport and the output
 * listeners (outputPump.ts), decides each send's readiness (readiness.ts), and closes with the
 * session teardown.
 */
export class PtyShellSession implements BackendSession {
  /** Set by the backend: started outside the agent sandbox on a confirmed grant while the sandbox was on. */
  outsideApproved = false;
  /**
   * Set by the backend: why input may not be typed now (the agent sandbox turned on, or no longer
   * allowing this session outside it, since it opened); see `BackendSession.inputRefusal`.
   */
  inputRefusal: () => TerminalError | undefined = () => undefined;
  private readonly scrollback: Scrollback;
  /** Every command the shell ran (commandHistory.ts), fed by the markers and the writes below. */
  readonly commands: CommandHistory;
  /** The shell and the terminal's foreground process group (foregroundProbe.ts). */
  private readonly fg: ForegroundProbe;
  /** The PTY's output on its way to the markers, the scrollback, the record and the listeners (outputPump.ts). */
  private readonly pump: OutputPump;
  /** Reads and searches (sessionPages.ts). */
  private readonly pages: SessionPages;
  private readonly signals: SessionSignals;
  /** What the shell's command line may hold (promptLine.ts). */
  private readonly line = new PromptLine();
  private readonly startupWatch: StartupWatch;
  private readonly teardownPlan: SessionTeardown;
  /** Where the shell reports its traps at every prompt (markers.ts, TRAPS_FILE). */
  private readonly trapsFile: string;
  private exitStatus: SessionStatus | undefined;
  private readonly exitListeners: ((s: SessionStatus) => void)[] = [];
  private readonly markers = new ShellMarkers();
  /** The send or wait in flight (activeSend.ts), and what it reads of this session. */
  private active: ActiveSend | undefined;
  private readonly sendHost: SendHost;
  private firstPromptWaiter: (() => void) | undefined;
  /** The traps the first prompt reported (the person's startup files set them); undefined before it. */
  private trapsAtStart: ShellTraps | undefined;
  /** Who has the terminal open, in any session (ttyHolders.ts): checked before every write. */
  private readonly holders = new TtyHolders(
    () => this.fg.ptsIfKnown(),
    () => readStat(this.fg.shellPid)?.ttyNr,
  );
  /** The first prompt was reached: the startup files ran to the end. */
  private opened = false;
  private closing: Promise<CloseReport> | undefined;
  /** The session's processes beyond its foreground: those it started, and their listening sockets. */
  private readonly processWatch: SessionProcessWatch;
  /** Drain markers written so far (ptyDrain.ts); the next one gets the next number. */
  private drainSeq = 0;

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
    renderThread: ScreenTextThread,
    readonly redactor: SecretRedactor,
    mark: string,
    readonly shell: { name: string; executable: string; args: readonly string[] },
    private readonly jobs: OwnerJobs,
  ) {
    this.scrollback = new Scrollback({
      maxLines: config.retainedLines,
      maxBytes: config.retainedBytes,
      maxLineBytes: Math.min(MAX_LINE_BYTES, config.maxReadBytes),
    });
    const fg = (this.fg = new ForegroundProbe(
      term.pid,
      (term as unknown as { ptsName?: string }).ptsName,
      probe,
      shell,
      (line) => redactor.redactLine(line),
      () => !!this.exitStatus,
    ));
    this.commands = new CommandHistory({
      scrollback: this.scrollback,
      cwd: () => this.currentCwd(),
      size: config.historySize,
      stoppedJob: () => fg.stoppedJob(),
      redactor,
    });
    this.pump = new OutputPump(nonce, {
      markers: this.markers,
      commands: this.commands,
      scrollback: this.scrollback,
      active: () => this.active,
      firstPromptWaiter: () => this.firstPromptWaiter,
    });
    this.pages = new SessionPages(this.scrollback, this.commands, config, log, term, renderThread, redactor);
    this.signals = new SessionSignals({
      fg,
      markers: this.markers,
      commands: this.commands,
      config,
      log,
      exitStatus: () => this.exitStatus,
      receiver: () => this.receiver(),
      lastDataAt: () => this.pump.lastDataAt,
    });
    this.startupWatch = new StartupWatch(startup, term.pid, probe);
    this.processWatch = new SessionProcessWatch(term.pid, fg.shellStart, mark, () => fg.shellPid, redactor);
    this.trapsFile = path.join(startup.dir, TRAPS_FILE);
    this.teardownPlan = new SessionTeardown({
      shellPid: fg.leaderPid,
      shellStart: fg.shellStart,
      probe,
      startup,
      sandboxed: sandboxed !== undefined,
      log,
      ptsPath: () => fg.knownPts(),
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
      tree: fg.tree,
      exitStatus: () => this.exitStatus,
      lastDataAt: () => this.pump.lastDataAt,
      alternateScreen: () => this.pump.modes.alternateScreen,
      shellPid: () => fg.shellPid,
      foregroundGroup: () => fg.foregroundGroup(),
      groupWaits: (pgrp) => fg.groupWaits(pgrp),
      commandOf: (pid) => fg.commandOf(pid),
      foreground: () => this.foreground(),
      status: () => this.status(),
      ptsIfKnown: () => fg.ptsIfKnown(),
      shellReplaced: () => this.shellReplaced(),
      interrupt: () => void this.signal('SIGINT'),
      stoppedAtPrompt: () => this.commands.stoppedAtPrompt,
      render: (raw, options) => renderThread.render(this.pages.cellSize(), raw, options),
      redact: (text) => redactor.redact(text, this.term.cols),
      redactLine: (line) => redactor.redactLine(line),
      matchUntil: (pattern, text) => jobs.matchUntil(pattern, text),
    };
    term.onData((chunk) => this.pump.push(chunk));
    term.onExit(({ exitCode, signal }) => this.handleExit(exitCode, signal));
  }

  /** Output shown before the first prompt, as an agent may read it (messageOfTheDay.ts). */
  get motd(): string {
    return this.pump.motd.agentText(this.redactor);
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
    const tpgid = this.fg.foregroundGroup();
    return tpgid !== undefined ? tpgid !== this.fg.shellPid : this.markers.last === 'start';
  }

  foreground(): ForegroundProcess | undefined {
    return this.fg.foreground();
  }

  traps(): ShellTraps {
    if (this.exitStatus) return { kind: 'none' };
    const { content, cut } = readTrapsReport(this.trapsFile);
    return readShellTraps(content, this.markers.promptSeq, cut);
  }

  /** The traps the first prompt reported (the person's startup files set them); undefined before it. */
  startupTraps(): ShellTraps | undefined {
    return this.trapsAtStart;
  }

  shellNames(): ShellNames {
    if (this.exitStatus) return { kind: 'unknown' };
    // A names section that ends in its delimiter is whole even when the traps after it were cut.
    return readShellNames(readTrapsReport(this.trapsFile).content, this.markers.promptSeq);
  }

  currentCwd(): string | undefined {
    return this.fg.currentCwd();
  }

  receiver(): InputReceiver {
    if (this.exitStatus) return { kind: 'exited' };
    return currentReceiver(this.fg, this.markers, () => this.line.at(this.markers.promptSeq));
  }

  /** The shell's process runs another executable than at its first prompt (foregroundProbe.ts). */
  shellReplaced(): boolean {
    return this.fg.shellReplaced();
  }

  /**
   * Resolves at the first controlled prompt, once the message of the day is redacted; rejects
   * when the open fails (firstPrompt.ts).
   */
  async firstPrompt(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    await firstPrompt(
      {
        markers: this.markers,
        startupWatch: this.startupWatch,
        cwd: this.cwd,
        probe: this.probe,
        exitStatus: () => this.exitStatus,
        setWaiter: (waiter) => (this.firstPromptWaiter = waiter),
        waiting: () => this.firstPromptWaiter !== undefined,
        reached: () => {
          const error = this.sandboxed && this.probe ? this.fg.locateSandboxedShell() : undefined;
          if (error) return error;
          this.opened = true;
          this.fg.recordShellExecutable();
          this.trapsAtStart = this.traps();
          return undefined;
        },
      },
      timeoutMs,
      signal,
    );
    await this.pump.motd.settle(this.redactor, this.term.cols);
  }

  /** Types `typed` (the request's input, checked once by the service) where admission lets it go. */
  async send(request: SendRequest, typed: CheckedSendInput): Promise<SendResult> {
    if (this.exitStatus) {
      throw new TerminalError('SESSION_EXITED', `the session's shell has exited (${statusText(this.exitStatus)}); open a new session`);
    }
    if (this.active) throw new TerminalError('SESSION_BUSY', 'a send is already in flight on this session; wait for it to return');
    const timeoutMs = checkTimeout(request.timeoutMs, this.config.defaultTimeoutMs);
    checkNotCancelled(request.signal);
    await this.signals.settle();
    await this.fg.epollWaitsSettled();
    if (this.probe) await this.holders.fresh();
    const { tpgid, shellInForeground, atPrompt } = inputState(this.fg, this.markers);
    if (request.expectReceiver) {
      checkReceiver(this.receiver(), request.expectReceiver);
      const stated = request.expectReceiver.place;
      if (stated) checkPlace({ cwd: this.currentCwd(), traps: this.traps() }, stated, (text) => this.redactor.redactLine(text));
    }
    let preWaits = proc.NO_WAITS;
    if (this.probe && tpgid !== undefined) {
      preWaits = this.fg.groupWaits(tpgid);
      // Not even a shell blocked in read proves the input was consumed: node-pty writes large
      // input in pieces as the terminal drains it. Only the next prompt (or SIGINT) does.
      if (atPrompt && this.markers.inputPending) throw inputPendingError();
      if (!atPrompt && preWaits.waits.length > 0 && typed.kind === 'text') await checkLineLength(typed.text, this.fg.pts());
      if (!shellInForeground && preWaits.waits.length === 0)
        throw preWaits.complete ? notReadingError(this.fg.foreground()) : unprovenReaderError(preWaits.searching ? 'searching' : 'crowded');
      // A program reading with echo off asks for a secret: the person types it, never the agent.
      if (!atPrompt && preWaits.waits.length > 0 && typesText(typed) && (await echoDisabled(this.fg.ptsIfKnown()))) {
        throw personMustAnswerError(this.fg.commandOf(preWaits.waits[0]!.pid));
      }
    } else if (!shellInForeground) {
      throw unprovenReaderError();
    }
    // Where bash's line editor reads keys, keys that would run text no confirmation shows are
    // refused here, where the keys really go, whatever the confirmation saw. So are keys for a
    // program that would do so once they reach the shell's prompt unread (promptKeys.ts).
    const readline = atPrompt && (await readlineReads(typed, this.markers.lineEditing, this.fg.ptsIfKnown()));
    const verdict = typed.kind === 'keys' && readline ? judgePromptKeys(typed.keys, this.line.at(this.markers.promptSeq)) : undefined;
    if (verdict?.refusal) throw promptKeysError(verdict.refusal);
    if (typed.kind === 'keys' && !atPrompt) {
      await checkLeftoverKeys(typed.keys, this.fg.ptsIfKnown(), () => {
        const reader = this.receiver();
        return reader.kind === 'program' ? reader.process.command : 'the program';
      });
    }
    // After the last await, before anything changes (the service checked before the call; the agent
    // sandbox may have been turned on meanwhile).
    const refusedNow = this.inputRefusal();
    if (refusedNow) throw refusedNow;
    // Cancelled while the send was admitted: its abort listener is armed only with the write.
    checkNotCancelled(request.signal);
    // Nobody but the receiver reads: the shell alone at its prompt, the foreground group otherwise.
    if (this.probe) {
      const shellPid = this.fg.shellPid;
      const receiverGroup = tpgid ?? shellPid;
      checkNoOtherReader(
        this.holders.now(),
        this.fg.ptsIfKnown(),
        (p) => (atPrompt ? p.pid === shellPid : p.pgrp === receiverGroup),
        atPrompt ? 'the shell' : `the foreground process group ${receiverGroup}`,
        shellPid,
      );
    }
    const input = bytesToWrite(typed, atPrompt, readline, this.pump.modes.applicationCursor);
    const keysAtPrompt = typed.kind === 'keys' && atPrompt;
    this.line.sending(this.markers.promptSeq, typed, input, atPrompt, verdict);
    // Typed while the shell is not at its prompt, the input is read after the prompt that ends the
    // running command: that prompt is not this send's answer, so it is judged with quiet after it.
    const typeAhead = !atPrompt || linesSubmitted(input) > 1;
    return this.track(
      {
        kind: 'send',
        timeoutMs,
        signal: request.signal,
        atPrompt,
        preWaits,
        probeDelayMs: this.config.probeStartDelayMs,
        keysAtPrompt,
        typeAhead,
      },
      () => {
        // Keys are a few bytes written at once; they need not end the line (Up, Tab), so no prompt
        // may follow them. Text always ends with a newline: the shell prompts again once it read it.
        if (atPrompt && typed.kind === 'text') this.markers.inputPending = true;
        this.commands.wrote(
          input,
          request.origin ?? 'agent',
          typed.kind === 'text' && input.startsWith(KILL_LINE_KEYS) ? typed.text : undefined,
          request.approvedBy,
        );
        this.term.write(input);
      },
    );
  }

  async wait(request: WaitRequest): Promise<SendResult> {
    if (this.exitStatus) {
      throw new TerminalError(
        'SESSION_EXITED',
        `nothing to wait for: the session's shell has exited (${statusText(this.exitStatus)}); open a new session`,
      );
    }
    if (this.active) throw new TerminalError('SESSION_BUSY', 'a send or wait is already in flight on this session; wait for it to return');
    const timeoutMs = checkTimeout(request.timeoutMs, this.config.defaultTimeoutMs);
    checkNotCancelled(request.signal, 'wait');
    await this.signals.settle();
    const { tpgid, atPrompt } = inputState(this.fg, this.markers);
    const forPort = request.untilListening;
    if (forPort !== undefined && !this.probe) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        'untilListening needs the Linux /proc probe, which this machine does not have: wait with until (a line the server prints) instead',
      );
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
    const preWaits = this.probe && tpgid !== undefined && atPrompt ? this.fg.groupWaits(tpgid) : proc.NO_WAITS;
    // Cancelled while the wait settled a signal: its abort listener is armed only as it starts.
    checkNotCancelled(request.signal, 'wait');
    const listening =
      forPort === undefined ? undefined : { watch: new PortWatch(forPort, () => this.processWatch.listening(true)), idleStart };
    return this.track(
      {
        kind: 'wait',
        timeoutMs,
        signal: request.signal,
        atPrompt: atPrompt && !idleStart,
        preWaits,
        probeDelayMs: 0,
        until: request.until,
        listening,
      },
      () => {},
    );
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
    return this.pages.read(request);
  }

  /** As read, rendered in the render thread: the caller's thread is not held by the render. */
  readAsync(request: ReadRequest): Promise<ReadResult> {
    return this.pages.readAsync(request);
  }

  search(request: SearchRequest): Promise<SearchResult> {
    return this.jobs.admitSearch(() => this.pages.search(request, this.jobs));
  }

  signal(signal: AllowedSignal, expect?: ReceiverIdentity): SignalResult {
    return this.signals.deliver(signal, expect);
  }

  /**
   * After a signal the shell discards type-ahead while it redraws its prompt (readline on SIGINT),
   * and a dying program may still hold the foreground: input written then is lost or refused.
   * Waits up to 2 s for the next prompt, or for the foreground to be reading again (sessionSignals.ts).
   */
  settled(): Promise<void> {
    return this.signals.settle();
  }

  writeUserInput(data: string, secret = false): void {
    if (this.exitStatus) return;
    // What the person types is not judged (they see it), but no agent send may run it unseen.
    this.line.userTyped();
    // An answer to a prompt that reads with echo off is not recorded anywhere.
    if (!secret) this.commands.wrote(data, 'user');
    this.term.write(data);
  }

  onOutput(listener: (text: string) => void): Disposable {
    return this.pump.onOutput(listener);
  }

  onCommand(listener: (event: CommandEvent) => void): Disposable {
    return this.pump.onCommand(listener);
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
    this.log.info(`closing shell pid ${this.fg.shellPid}${keep ? ', keeping its background processes' : ''}: ${reason}`);
    this.pages.dispose();
    try {
      return await this.teardownPlan.run({ keep });
    } finally {
      this.sandboxed?.release();
    }
  }

  private handleExit(exitCode: number, signal?: number): void {
    const name = signal ? (Object.entries(os.constants.signals).find(([, n]) => n === signal)?.[0] ?? String(signal)) : null;
    this.exitStatus = { kind: 'exited', exitCode: name ? null : exitCode, signal: name };
    this.log.info(`shell pid ${this.fg.shellPid} exited: ${statusText(this.exitStatus)}`);
    this.commands.sessionExited();
    this.firstPromptWaiter?.();
    this.active?.finish('session_exit');
    for (const listener of this.exitListeners.splice(0)) listener(this.exitStatus);
  }
}
