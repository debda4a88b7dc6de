/**
 * The wait for a PTY session's first controlled prompt: the open succeeds when the shell shows it,
 * and fails, saying why, when the shell exits first, a startup file replaced the shell with
 * another program, the open is cancelled, or its time runs out.
 */
import { TerminalError } from '../errors';
import { errorMessage } from '../../common/errorMessage';
import type { ShellMarkers } from '../readiness/shellMarkers';
import type { SessionStatus } from '../types';
import type { StartupWatch } from './sessionStartup';
import { statusText } from './statusText';

/** How often the open checks that the shell is still our shell while its startup files run (ms): /proc, ps(1). */
const STARTUP_CHECK_MS = { proc: 100, ps: 250 };

/** What the wait reads of the session, and how it tells the session. */
export interface FirstPromptSession {
  readonly markers: ShellMarkers;
  readonly startupWatch: StartupWatch;
  /** The folder the shell started in (named when it no longer exists). */
  readonly cwd: string;
  /** The Linux /proc probe is in use (it checks the shell more often). */
  readonly probe: boolean;
  exitStatus(): SessionStatus | undefined;
  /**
   * Sets the callback the session calls at prompt text and at the shell's exit while the wait
   * lasts; undefined once it ended.
   */
  setWaiter(waiter: (() => void) | undefined): void;
  /** The wait is still on (its callback set). */
  waiting(): boolean;
  /** The first prompt showed: the session takes it as opened, or returns the error that ends the open. */
  reached(): Error | undefined;
}

/**
 * Resolves at the first controlled prompt; rejects on exit, abort, after `timeoutMs`, or as soon
 * as the shell stopped being our shell (a startup file `exec`ed another program: the process no
 * longer runs with our rc on its command line), naming the startup file and the guard variable.
 * @throws (rejects with) TerminalError SPAWN_FAILED saying which of these ended the wait, or what `reached` returned.
 */
export function firstPrompt(session: FirstPromptSession, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const { markers, startupWatch } = session;
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      clearInterval(watch);
      signal?.removeEventListener('abort', onAbort);
      session.setWaiter(undefined);
      if (!error) error = session.reached();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () =>
        done(
          new TerminalError(
            'SPAWN_FAILED',
            `the shell did not show its first prompt within ${timeoutMs} ms (${startupWatch.stage()}); check your shell startup files or raise dsh.terminal.openTimeoutMs`,
          ),
        ),
      timeoutMs,
    );
    let checking = false;
    const watch = setInterval(
      () => {
        if (checking || session.exitStatus() || markers.promptSeq > 0) return;
        checking = true;
        void startupWatch.replacedBy().then((replacedBy) => {
          checking = false;
          if (replacedBy !== undefined && session.waiting() && !session.exitStatus() && markers.promptSeq === 0)
            done(startupWatch.hijackError(replacedBy));
        });
      },
      session.probe ? STARTUP_CHECK_MS.proc : STARTUP_CHECK_MS.ps,
    );
    const onAbort = () => done(new TerminalError('SPAWN_FAILED', `opening the session was cancelled: ${errorMessage(signal?.reason)}`));
    signal?.addEventListener('abort', onAbort);
    session.setWaiter(() => {
      const exitStatus = session.exitStatus();
      if (exitStatus)
        done(
          startupWatch.startFolderError(session.cwd) ??
            startupWatch.tooOldError() ??
            new TerminalError(
              'SPAWN_FAILED',
              `the shell exited before its first prompt (${statusText(exitStatus)}, ${startupWatch.stage()})`,
            ),
        );
      else if (markers.promptSeq > 0 && markers.promptTextSeen) done();
    });
  });
}
