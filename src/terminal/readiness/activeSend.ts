/**
 * The send/wait state machine of a pty-bash session: one `ActiveSend` per send or wait in flight,
 * from the write to its wait reason. It follows the session's output (echo, then the command's
 * output into the viewport; a wait's `until` pattern), arms the absolute timeout, the backed-off
 * readiness poll (pollBackoff.ts) and the cancellation (SIGINT to the foreground process group),
 * looks at the session when the evidence may be complete (readiness.ts decides), drains the PTY
 * before a `program-input` answer (ptyDrain.ts), and builds the result, its viewport rendered in
 * the render thread. The session (ptySession.ts) owns the PTY and tells it what happened.
 */
import type { TerminalConfig } from '../config';
import { drainMarker } from './markers';
import { viewportText } from '../output/outputText';
import { PollLoop, type LookOutcome } from './pollBackoff';
import * as proc from '../../proc/procProbe';
import type { SessionProcessTree } from '../../proc/processTree';
import { writeDrainMarker } from '../session/ptyDrain';
import { ReadinessSnapshot, SeenWait, decideReadiness } from './readiness';
import type { RenderOptions, Rendered } from '../output/screenText';
import { ViewportBuffer } from '../output/byteTail';
import type { ShellMarkers } from './shellMarkers';
import { echoDisabled } from '../../proc/termios';
import type { ForegroundProcess, SendResult, SessionStatus, WaitReason, Waiting } from '../types';
import { UntilMatcher } from './untilPattern';
import { personMustAnswerGuidance, programName } from '../input/echoOffInput';
import { withoutCutHead } from '../secrets/heldTail';
import type { PortWatch } from './portWatch';
import type { ListeningSocket } from '../../proc/listeningSockets';
import type { Log } from '../../common/log';
import type { WorkerMatchOutcome } from './untilMatchThread';

/** Bytes of echo kept while a send is in its echo region (the typed line and prompts). */
const ECHO_TAIL_MAX = 4096;
/**
 * Longest wait for the drain marker before a `program-input` answer returns without it (ms): the
 * marker comes back within milliseconds unless the terminal's output is stopped.
 */
const DRAIN_MAX_MS = 1000;
/**
 * Output younger than this (ms) means it is still flowing: a readiness poll then skips its look
 * (the /proc reads), which could not decide anything, and comes back when the output pauses.
 */
const FLOWING_MS = 25;

/** What a send or wait needs from its session, read at the moment it asks. */
export interface SendHost {
  readonly config: TerminalConfig;
  readonly log: Log;
  /** The Linux /proc probe is in use. */
  readonly probe: boolean;
  /** The controlled prompt's nonce (for the drain marker). */
  readonly nonce: string;
  readonly markers: ShellMarkers;
  readonly tree: SessionProcessTree | undefined;
  exitStatus(): SessionStatus | undefined;
  /** When the PTY last gave output (ms, Date.now()). */
  lastDataAt(): number;
  /** The alternate screen is active now. */
  alternateScreen(): boolean;
  shellPid(): number;
  foregroundGroup(): number | undefined;
  /** The blocked reads of the terminal by process group `pgrp`'s members. */
  groupWaits(pgrp: number): proc.GroupWaits;
  commandOf(pid: number): string;
  foreground(): ForegroundProcess | undefined;
  status(): SessionStatus;
  /** The session's terminal, or '' when it cannot be named. */
  ptsIfKnown(): string;
  /** The shell's process runs another executable than the shell started (see PtySession.shellReplaced). */
  shellReplaced(): boolean;
  /** SIGINT to the foreground process group (a cancelled send). */
  interrupt(): void;
  /** The stop signal of the command the latest prompt ended, when it was stopped, not ended (commandHistory.ts). */
  stoppedAtPrompt(): string | undefined;
  /** Renders model text in the render thread at the terminal's size (outputText.ts). */
  render(raw: string, options: RenderOptions): Promise<Rendered>;
  /** Redacts secrets in model text, off this thread for long text (secrets/secretRedactor.ts). */
  redact(text: string): Promise<string>;
  /** Redacts secrets in a short string on this thread (a process's command line). */
  redactLine(line: string): string;
  /** A wait's `until` match in a worker thread of the shared pool, in the session owner's slots (output/matchPool.ts). */
  matchUntil(pattern: RegExp, text: string): Promise<WorkerMatchOutcome>;
}

/** How a send or wait starts (see {@link ActiveSend}). */
export interface SendOptions {
  kind: 'send' | 'wait';
  timeoutMs: number;
  signal?: AbortSignal;
  /** The shell was at its prompt: what follows first is the input's echo. */
  atPrompt: boolean;
  /** Blocked reads from before the send (they prove nothing about it). */
  preWaits: proc.GroupWaits;
  /** Probe looks start this many ms after the send. */
  probeDelayMs: number;
  until?: RegExp;
  /**
   * A wait's `untilListening` (portWatch.ts): it ends the wait with `port_listening`, and the wait
   * never ends as `inferred_idle` (a server waiting for connections is quiet). With `idleStart`
   * (the wait began at the shell's prompt, the server runs in the background) only the port, the
   * timeout and the shell's exit end it.
   */
  listening?: { watch: PortWatch; idleStart: boolean };
  /** Keys were pressed at the shell's prompt: the line they edited is part of the result. */
  keysAtPrompt?: boolean;
  /** The send typed several lines read one at a time (readiness.ts, `typeAhead`). */
  typeAhead?: boolean;
}

/** One send or wait in flight (see the module comment). */
export class ActiveSend {
  readonly kind: 'send' | 'wait';
  private readonly baselineSeq: number;
  private mode: 'echo' | 'output';
  private sawContinuation = false;
  private readonly viewport: ViewportBuffer;
  private echoTail = '';
  /** The alternate screen was active when the send started (input to a running vim or less). */
  private readonly alternateAtStart: boolean;
  private readonly keysAtPrompt: boolean;
  private readonly typeAhead: boolean;
  private readonly preWaits: proc.GroupWaits;
  private readonly startedAt = Date.now();
  private readonly probeFrom: number;
  /** The readiness poll, backed off while nothing changes (pollBackoff.ts). */
  private readonly poll: PollLoop;
  /** The foreground process group at the previous look; a change keeps the poll fast. */
  private lastTpgid?: number;
  /** Full scans of /proc the session's process tree had made when the send started. */
  private readonly fullScansAtStart?: number;
  /** Readiness evaluations run on output (a prompt's evidence completing), and probe looks (reads of the group's waits). */
  private readonly counts = { onOutput: 0, probeLooks: 0 };
  /** A wait's `until` pattern, matched as output arrives (untilPattern.ts). */
  private readonly until?: UntilMatcher;
  /** What `until` matched. */
  private match?: string;
  /** The socket that answered `listening`. */
  private listened?: ListeningSocket;
  /** One-shot evaluation `promptGraceMs` after the latest output that followed a prompt marker. */
  private graceTimer?: ReturnType<typeof setTimeout>;
  /** A blocked read first seen at `at` (ms); judged only once it has lasted (readiness.ts). */
  private seenWait?: SeenWait;
  /** The answer waiting for the drain marker `seq` (ptyDrain.ts) before it is returned. */
  private draining?: {
    seq: number;
    reason: WaitReason;
    waiting?: Waiting;
    foreground?: ForegroundProcess;
    timer: ReturnType<typeof setTimeout>;
  };
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort: () => void;
  private finished = false;

  /**
   * Starts following the session at once: arms the timeout, the poll and the cancellation.
   * @param drainSeq the number of the drain marker this send would write (ptyDrain.ts).
   * @param ends `finished` is called once, at once, when the send has its wait reason (the session
   *   is then free for the next send); `answered` once its result is ready (after the render), or
   *   `failed` instead when a wait's `until` pattern was stopped (untilPattern.ts).
   */
  constructor(
    private readonly host: SendHost,
    private readonly options: SendOptions,
    private readonly drainSeq: () => number,
    private readonly ends: { finished(): void; answered(result: SendResult): void; failed(error: Error): void },
  ) {
    this.kind = options.kind;
    this.baselineSeq = host.markers.promptSeq;
    this.mode = options.atPrompt ? 'echo' : 'output';
    this.viewport = new ViewportBuffer(host.config.maxReadBytes);
    this.alternateAtStart = host.alternateScreen();
    this.keysAtPrompt = options.keysAtPrompt ?? false;
    this.typeAhead = options.typeAhead ?? false;
    this.preWaits = options.preWaits;
    this.probeFrom = this.startedAt + options.probeDelayMs;
    this.fullScansAtStart = host.tree?.fullScanCount;
    this.until = options.until
      ? new UntilMatcher(
          options.until,
          (text) => host.redact(text),
          (pattern, text) => host.matchUntil(pattern, text),
          {
            matched: (text) => {
              this.match = text;
              this.finish('output_match');
            },
            failed: (error) => this.fail(error),
          },
        )
      : undefined;
    options.listening?.watch.start((socket) => {
      this.listened = socket;
      this.finish('port_listening');
    });
    this.timer = setTimeout(() => this.finish('timeout'), options.timeoutMs);
    this.poll = new PollLoop(host.config.pollIntervalMs, () => this.evaluate(true));
    this.onAbort = () => {
      host.log.info(`${options.kind} cancelled; SIGINT to the foreground process group`);
      host.interrupt();
    };
    options.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Output arrived (before it is parsed): the poll looks sooner. */
  poke(): void {
    this.poll.poke();
  }

  /** A controlled prompt was shown: what follows is the echo of what is typed next. */
  onPrompt(): void {
    this.mode = 'echo';
    this.echoTail = '';
  }

  /** The shell started a command (PS0): what follows is its output. */
  onCommandStart(): void {
    this.mode = 'output';
  }

  onContinuation(): void {
    this.sawContinuation = true;
  }

  /** Drain marker `seq` came back: everything written before it has been read. */
  onDrain(seq: number): void {
    const draining = this.draining;
    if (draining?.seq === seq) this.finish(draining.reason, draining.waiting, draining.foreground);
  }

  /** Terminal text (markers removed): the viewport or the echo region, and a wait's pattern. */
  onText(text: string): void {
    if (this.mode === 'output') this.viewport.append(text);
    else this.echoTail = (this.echoTail + text).slice(-ECHO_TAIL_MAX);
    this.until?.push(text);
  }

  /**
   * After a chunk's markers were applied. Only a prompt this send has not seen before can answer
   * it: while the send's input echoes after the prompt it was typed at, there is nothing to decide.
   */
  onMarkersApplied(): void {
    const markers = this.host.markers;
    const fresh =
      markers.last === 'prompt' ? markers.promptSeq > this.baselineSeq : markers.last === 'continuation' && this.sawContinuation;
    if (!fresh) return;
    // The evidence of a prompt is complete (marker and its text): decide now, on the event.
    if (markers.last === 'prompt' ? markers.promptTextSeen : markers.continuationTextSeen) {
      this.counts.onOutput++;
      this.evaluate();
    }
    // Where the event does not decide (no /proc, or type-ahead), promptGraceMs of quiet after
    // the marker does: evaluate exactly then, not at the next poll tick.
    if (!this.finished) {
      clearTimeout(this.graceTimer);
      this.graceTimer = setTimeout(() => this.evaluate(), this.host.config.promptGraceMs + 1);
    }
  }

  /**
   * Ends the send with `reason` (once; later calls do nothing): stops its timers and poll, then
   * awaits the viewport's render and, for `program-input`, whether the terminal echoes (read by a
   * child process), never on this thread, and hands the result to `done`.
   */
  finish(reason: WaitReason, waiting?: Waiting, foreground?: ForegroundProcess): void {
    if (!this.end()) return;
    const echoOff = waiting === 'program-input' ? echoDisabled(this.host.ptsIfKnown()) : Promise.resolve(false);
    void Promise.all([this.result(reason, waiting, foreground), echoOff]).then(([result, off]) => {
      if (off) {
        result.echoOff = true;
        result.guidance = personMustAnswerGuidance(programName(result.foreground?.command));
      }
      this.ends.answered(result);
    });
  }

  /** Ends the send with `error` instead of a result (once; nothing if it already ended): its `until` pattern was stopped. */
  private fail(error: Error): void {
    if (this.end()) this.ends.failed(error);
  }

  /** Marks the send ended and stops its timers, poll, pattern and cancellation; false when it already was. */
  private end(): boolean {
    if (this.finished) return false;
    this.finished = true;
    this.ends.finished();
    clearTimeout(this.timer);
    clearTimeout(this.graceTimer);
    clearTimeout(this.draining?.timer);
    this.poll.stop();
    this.until?.stop();
    this.options.listening?.watch.stop();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    return true;
  }

  /**
   * One readiness look: gathers the snapshot (readiness.ts), with the probe's waits only when the
   * decision asks for them, and acts on the decision. Returns what the poll loop needs: whether
   * anything changed since the previous look, and the next deadline.
   */
  evaluate(polled = false): LookOutcome | undefined {
    if (this.finished) return undefined;
    // Decided already; the answer waits for the PTY to be drained.
    if (this.draining) return { changed: false };
    const host = this.host;
    const now = Date.now();
    const exited = !!host.exitStatus();
    // While output flows, a poll cannot decide: a prompt is decided on its own output, and every
    // other answer needs promptGraceMs of quiet. The look comes once the output pauses.
    const quiet = now - host.lastDataAt();
    if (polled && quiet < FLOWING_MS && !exited) return { changed: true, dueInMs: FLOWING_MS - quiet };
    const tpgid = host.foregroundGroup();
    const snapshot: ReadinessSnapshot = {
      now,
      exited,
      // Quiet counts from the write at the earliest: output from before this send is not silence of it.
      quietMs: now - Math.max(host.lastDataAt(), this.startedAt),
      marker: {
        last: host.markers.last,
        promptSeq: host.markers.promptSeq,
        promptTextSeen: host.markers.promptTextSeen,
        continuationTextSeen: host.markers.continuationTextSeen,
      },
      send: {
        baselineSeq: this.baselineSeq,
        sawContinuation: this.sawContinuation,
        keysAtPrompt: this.keysAtPrompt,
        typeAhead: this.typeAhead,
        probeFrom: this.probeFrom,
        seenWait: this.seenWait,
        lastForegroundGroup: this.lastTpgid,
      },
      shellPid: host.shellPid(),
      // Looked at only where a prompt marker would count: the shell in the foreground after one.
      shellReplaced: (tpgid === undefined || tpgid === host.shellPid()) && host.markers.last !== 'start' && host.shellReplaced(),
      foregroundGroup: tpgid,
      probe: host.probe,
      timing: { promptGraceMs: host.config.promptGraceMs, quietThresholdMs: host.config.quietThresholdMs },
    };
    let decision = decideReadiness(snapshot);
    if (decision.kind === 'look' && tpgid !== undefined) {
      this.counts.probeLooks++;
      const waits = proc.newWaits(host.groupWaits(tpgid), this.preWaits);
      decision = decideReadiness({ ...snapshot, waits });
    }
    this.lastTpgid = tpgid;
    const listening = this.options.listening;
    if (
      decision.kind === 'finish' &&
      listening &&
      decision.reason !== 'session_exit' &&
      (listening.idleStart || decision.reason === 'inferred_idle')
    ) {
      // Waiting for a port: what answers other waits does not answer this one.
      return { changed: false, dueInMs: host.config.quietThresholdMs };
    }
    if (decision.kind === 'finish') {
      const pid = decision.foregroundPid;
      const foreground = pid === undefined ? undefined : { pid, command: host.commandOf(pid) };
      if (decision.waiting === 'program-input') return void this.drainThenFinish(decision.reason, decision.waiting, foreground);
      return void this.finish(decision.reason, decision.waiting, foreground);
    }
    if (decision.kind === 'look') return { changed: true, dueInMs: host.config.pollIntervalMs };
    this.seenWait = decision.seenWait;
    return { changed: decision.changed, dueInMs: decision.dueInMs };
  }

  /**
   * Finishes once everything the terminal's programs wrote so far has been read: writes the drain
   * marker into the PTY's output and finishes when the parser sees it come back (ptyDrain.ts).
   * Finishes at once when the marker cannot be written, and after DRAIN_MAX_MS when it does not
   * come back (output stopped by XOFF), logging either.
   */
  private drainThenFinish(reason: WaitReason, waiting: Waiting, foreground: ForegroundProcess | undefined): void {
    const seq = this.drainSeq();
    const pts = this.host.ptsIfKnown(); // '' when not nameable: no drain
    if (!pts || !writeDrainMarker(pts, drainMarker(this.host.nonce, seq))) {
      this.host.log.warn(`${this.kind}: the drain marker could not be written to the terminal; returning without it`);
      return this.finish(reason, waiting, foreground);
    }
    const timer = setTimeout(() => {
      this.host.log.warn(`${this.kind}: the drain marker did not come back within ${DRAIN_MAX_MS} ms; returning without it`);
      this.finish(reason, waiting, foreground);
    }, DRAIN_MAX_MS);
    this.draining = { seq, reason, waiting, foreground, timer };
  }

  /** The send's result; the state is taken now, the viewport rendered in the render thread. */
  private async result(waitReason: WaitReason, waiting?: Waiting, foreground?: ForegroundProcess): Promise<SendResult> {
    const host = this.host;
    const { text, dropped } = this.viewport.result();
    let output = text;
    // A send that ends before the shell ran anything shows what the shell shows: the pending
    // command and its continuation prompt. At a fresh prompt the echo region is just the prompt.
    // Keys pressed at the prompt that did not end the line (Up, Tab) show the line they edited.
    if (this.mode === 'echo' && (waiting !== 'shell-prompt' || (this.keysAtPrompt && host.markers.promptSeq === this.baselineSeq)))
      output += this.echoTail;
    const rendering = viewportText(
      (raw, options) => host.render(raw, options),
      output,
      this.alternateAtStart,
      host.config.maxReadBytes,
      host.log,
    );
    const result: SendResult = {
      waitReason,
      sessionStatus: host.status(),
      output: '',
      truncated: dropped > 0,
      droppedBytes: dropped,
      probe: host.probe ? 'linux-proc' : 'unavailable',
      durationMs: Date.now() - this.startedAt,
    };
    if (waiting) result.waiting = waiting;
    if (this.match !== undefined) result.match = this.match;
    if (this.listened !== undefined) result.listened = this.listened;
    if (waiting === 'shell-prompt' && host.markers.last === 'prompt' && host.markers.promptSeq > this.baselineSeq) {
      const stopped = host.stoppedAtPrompt();
      if (stopped !== undefined) result.stopped = stopped;
      else result.exitCode = host.markers.promptStatus;
    }
    if (waitReason !== 'session_exit') {
      const shown = foreground ?? host.foreground();
      if (shown) result.foreground = { ...shown, command: host.redactLine(shown.command) };
      if (host.alternateScreen()) result.alternateScreen = true;
    }
    const viewport = await rendering;
    result.output = await host.redact(viewport.text);
    if (dropped > 0) result.output = withoutCutHead(result.output);
    if (viewport.limited) result.renderLimited = true;
    host.log.info(
      `${this.kind} finished: ${waitReason}${waiting ? `/${waiting}` : ''} after ${result.durationMs} ms, ${this.poll.looks} looks, ${this.counts.probeLooks} probe looks, ${this.counts.onOutput} evaluations on output, ${(host.tree?.fullScanCount ?? 0) - (this.fullScansAtStart ?? 0)} full scans of /proc, viewport ${Buffer.byteLength(result.output)} bytes${dropped ? `, ${dropped} dropped` : ''}`,
    );
    return result;
  }
}
