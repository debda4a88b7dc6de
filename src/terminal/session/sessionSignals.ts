/**
 * Signals of a PTY session: a signal delivered to the terminal's foreground process group (only a
 * group of the session's, and only to the receiver a person confirmed), and the settle after it
 * that the next send waits for before it types.
 */
import type { TerminalConfig } from '../config';
import { errorMessage } from '../../common/errorMessage';
import type { Log } from '../../common/log';
import type { CommandHistory } from '../history/commandHistory';
import { checkSignalReceiver } from '../input/sendAdmission';
import type { ShellMarkers } from '../readiness/shellMarkers';
import { waitUntil } from '../readiness/waitUntil';
import type { AllowedSignal, InputReceiver, ReceiverIdentity, SessionStatus, SignalResult } from '../types';
import type { ForegroundProbe } from './foregroundProbe';
import { statusText } from './statusText';

/** Longest wait for a signal to take effect before the next send types (ms). */
const SIGNAL_SETTLE_MS = 2000;

/** What signalling reads of the session. */
export interface SignalTarget {
  readonly fg: ForegroundProbe;
  readonly markers: ShellMarkers;
  readonly commands: CommandHistory;
  readonly config: TerminalConfig;
  readonly log: Log;
  exitStatus(): SessionStatus | undefined;
  /** Who would read a send typed now (BackendSession.receiver). */
  receiver(): InputReceiver;
  /** When the PTY last gave output (ms, Date.now()). */
  lastDataAt(): number;
}

/** Delivers a session's signals and remembers the latest until a send has let it settle. */
export class SessionSignals {
  /** Prompt seq when a signal was last delivered; a send first lets the shell settle after it. */
  private signalledAtSeq: number | undefined;

  constructor(private readonly session: SignalTarget) {}

  /**
   * Delivers `signal` to the foreground process group (the shell's without the probe), see
   * BackendSession.signal; not delivered, with the reason, when the shell exited or the group is
   * not the session's.
   * @throws TerminalError RECEIVER_CHANGED when `expect` is given and another receiver reads now.
   */
  deliver(signal: AllowedSignal, expect?: ReceiverIdentity): SignalResult {
    const { fg, markers, commands, log } = this.session;
    const exitStatus = this.session.exitStatus();
    if (exitStatus) {
      return {
        signal,
        delivered: false,
        sessionStatus: exitStatus,
        reason: `the session's shell has exited (${statusText(exitStatus)}): there is no process to signal`,
      };
    }
    if (expect) checkSignalReceiver(this.session.receiver(), expect);
    const tpgid = fg.foregroundGroup() ?? fg.shellPid;
    const foreground = fg.foreground();
    // Only a group of this session: never signal a group that left it or a reused pid.
    const ours = fg.probe ? fg.groupIsOurs(tpgid) : true;
    if (ours === 'searching') {
      const reason = `the foreground process group ${tpgid} has lost its leader and none of its members was found near it or in the shell's process tree; they are being searched for in /proc: send the signal again in a moment`;
      return { signal, delivered: false, foreground, reason };
    }
    if (!ours) return { signal, delivered: false, foreground };
    try {
      process.kill(-tpgid, signal);
      this.signalledAtSeq = markers.promptSeq;
      commands.signalled(signal);
      log.info(`signal ${signal} delivered to process group ${tpgid}`);
      return { signal, delivered: true, foreground };
    } catch (error) {
      log.warn(`signal ${signal} to process group ${tpgid} failed: ${errorMessage(error)}`);
      return { signal, delivered: false, foreground };
    }
  }

  /**
   * After a signal the shell discards type-ahead while it redraws its prompt (readline on SIGINT),
   * and a dying program may still hold the foreground: input written then is lost or refused.
   * Waits up to SIGNAL_SETTLE_MS for the next prompt, or for the foreground to be reading again;
   * at once when no signal was delivered since the last settle.
   */
  async settle(): Promise<void> {
    const since = this.signalledAtSeq;
    if (since === undefined) return;
    this.signalledAtSeq = undefined;
    const { fg, markers, config } = this.session;
    await waitUntil(() => {
      if (this.session.exitStatus()) return true;
      if (markers.promptSeq > since && markers.promptTextSeen && Date.now() - this.session.lastDataAt() >= config.promptGraceMs)
        return true;
      const tpgid = fg.foregroundGroup();
      return tpgid !== undefined && tpgid !== fg.shellPid && fg.groupWaits(tpgid).waits.length > 0;
    }, SIGNAL_SETTLE_MS);
  }
}
