/**
 * One session in the terminal service's table, once published: its id and display name, its
 * owner, the backend session, the one send-or-wait slot, the person's take-over and its background
 * jobs. While the person has taken a session over (from its panel terminal), agent sends and
 * signals are refused and only their keystrokes reach it.
 */
import { OUTSIDE_APPROVED, UNSANDBOXED, type SandboxSummary } from '../sandbox/policy';
import { BackgroundJobs } from './backgroundJobs';
import { TerminalError } from '../errors';
import type { ServiceOwner } from '../owner';
import type { BackendSession, CloseReport, SendRequest, SessionStatus } from '../types';
import { type CheckedSendInput, checkSendInput } from '../input/input';
import { checkReceiverIdentity } from '../input/receiverIdentityCheck';
import { checkAbortSignal } from '../requestChecks';
import { quoteInput } from '../../common/quoteInput';
import type { Log } from '../../common/log';

/** What a caller learns about one of its sessions. */
export interface SessionInfo {
  sessionId: string;
  name: string;
  backend: string;
  /** The shell the session runs (`bash`, `zsh`), when its backend names one. */
  shell?: string;
  cwd: string;
  sessionStatus: SessionStatus;
  /** True while a send is in flight or a command holds the foreground. */
  busy: boolean;
  /** The running foreground command, when busy. */
  foregroundCommand?: string;
  /** True while the person took the session over: agent sends and signals are refused. */
  takenOver: boolean;
  /** True while that take-over is for one line only (an answer to a prompt that reads with echo off). */
  lineTakeOver?: boolean;
  /** The agent sandbox the session runs in (`on: false` outside any). */
  sandbox: SandboxSummary;
  /**
   * Why agent input (text, keys, background sends) is refused now, as the refusal's message: the
   * session runs outside the agent sandbox, which is on now (BackendSession.inputRefusal). Reads,
   * signals and close still work. Absent while input is taken.
   */
  inputRefused?: string;
}

/** A published session (see the module comment). */
export class PublishedSession {
  /** A send or wait is in flight (the session's one slot is taken). */
  sending = false;
  /** The person has taken the session over. */
  takenOver = false;
  /**
   * The take-over is for one line (a prompt that reads with echo off): what the person types is
   * recorded nowhere, and Enter hands the session back.
   */
  lineTakeOver = false;
  /** Set once a close began; resolves as that close does. */
  closing?: Promise<CloseReport>;
  readonly jobs: BackgroundJobs;

  constructor(
    readonly id: string,
    readonly name: string,
    readonly owner: ServiceOwner,
    readonly backend: string,
    readonly session: BackendSession,
  ) {
    this.jobs = new BackgroundJobs(id);
  }

  /** @throws TerminalError TAKEN_OVER while the person has taken the session over. */
  checkNotTakenOver(): void {
    if (this.takenOver) {
      throw new TerminalError(
        'TAKEN_OVER',
        `the user has taken over session ${this.id} in the terminal panel; agent input and signals are refused until they hand it back. Read its output with dsh_terminal_read, use another session, or ask the user`,
      );
    }
  }

  /** Starts (`true`) or ends a take-over, logging it; false when it already was so. */
  setTakenOver(value: boolean, log: Log): boolean {
    if (this.takenOver === value) return false;
    this.takenOver = value;
    if (!value) this.lineTakeOver = false;
    log.info(`session ${this.id} ${value ? 'taken over by the user' : 'handed back to the agent'}`);
    return true;
  }

  /**
   * The person's keystrokes, written to the PTY as they are. In a one-line take-over
   * (`lineTakeOver`) they are written up to the first Enter (CR or LF), recorded nowhere, and keys
   * after it in the same `data` are dropped. @returns true when that Enter ends the one-line
   * take-over (the caller hands the session back).
   * @throws TerminalError INVALID_ARGUMENT unless the session is taken over.
   */
  writeUserInput(data: string): boolean {
    if (!this.takenOver)
      throw new TerminalError('INVALID_ARGUMENT', `session ${this.id} is the agent's; take it over before typing into it`);
    if (!this.lineTakeOver) {
      this.session.writeUserInput(data);
      return false;
    }
    const enter = data.search(/[\r\n]/);
    this.session.writeUserInput(enter < 0 ? data : data.slice(0, enter + 1), true);
    return enter >= 0;
  }

  /**
   * Checks an agent's send once, before the session is asked: the checked input is what the
   * session types. @throws TerminalError TAKEN_OVER, INVALID_ARGUMENT (the input, its cancellation
   * signal, `expectReceiver`, an `origin` other than "agent" or "dsh_run"), SESSION_BUSY, or the
   * backend's refusal of input (a session outside the sandbox whose approval lapsed).
   */
  checkSendable(request: SendRequest): CheckedSendInput {
    this.checkNotTakenOver();
    const typed = checkSendInput(request);
    checkAbortSignal(request.signal);
    checkReceiverIdentity(request.expectReceiver, 'expectReceiver');
    // Only the person's own keystrokes (writeUserInput) are recorded as theirs.
    if (request.origin !== undefined && request.origin !== 'agent' && request.origin !== 'dsh_run') {
      throw new TerminalError('INVALID_ARGUMENT', `origin must be "agent" or "dsh_run" (got ${quoteInput(request.origin)})`);
    }
    this.checkIdle();
    const refusal = this.session.inputRefusal?.();
    if (refusal) throw refusal;
    return typed;
  }

  /** @throws TerminalError SESSION_BUSY while a send or wait is in flight on the session. */
  checkIdle(): void {
    if (this.sending) {
      const fg = this.session.foreground();
      throw new TerminalError(
        'SESSION_BUSY',
        `session ${this.id} already has a send or wait in flight${fg ? ` (running \`${this.session.redactor.redactLine(fg.command)}\`)` : ''}; wait for it to return, read its output, or send a signal`,
      );
    }
  }

  /** What the owner learns about the session now (see {@link SessionInfo}). */
  info(): SessionInfo {
    const busy = this.sending || this.session.isBusy();
    const info: SessionInfo = {
      sessionId: this.id,
      name: this.name,
      backend: this.backend,
      cwd: this.session.cwd,
      sessionStatus: this.session.status(),
      busy,
      takenOver: this.takenOver,
      ...(this.lineTakeOver && { lineTakeOver: true }),
      sandbox: this.session.sandboxed?.summary ?? (this.session.outsideApproved ? OUTSIDE_APPROVED : UNSANDBOXED),
    };
    if (this.session.shellName !== undefined) info.shell = this.session.shellName;
    if (busy) {
      const fg = this.session.foreground();
      if (fg) info.foregroundCommand = this.session.redactor.redactLine(fg.command);
    }
    const refusal = this.session.inputRefusal?.();
    if (refusal) info.inputRefused = refusal.message;
    return info;
  }
}

/**
 * The error for a session id that names none of the caller's sessions, listing `mine` (the
 * caller's sessions) so the caller can pick a valid id.
 */
export function noSuchSessionError(sessionId: unknown, mine: readonly SessionInfo[]): TerminalError {
  const valid = mine.map((s) => `${s.sessionId} (${s.name}, ${s.sessionStatus.kind}${s.busy ? ', busy' : ''})`);
  return new TerminalError(
    'NO_SUCH_SESSION',
    `no session ${quoteInput(sessionId)}. sessionId is an id returned by dsh_terminal_open, not a command. Valid ids: ${valid.length ? valid.join(', ') : 'none; open one with dsh_terminal_open'}`,
  );
}
