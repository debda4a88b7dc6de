/**
 * Where a send would go, as a confirmation shows it, and what the send then passes to be refused
 * when that changed (RECEIVER_CHANGED). Plain Node, no `vscode` import.
 */
import type { ShellTraps } from './readiness/shellTraps';
import type { ShellNames } from './readiness/shellNames';
import { type BackendSession, type InputReceiver, type ReceiverIdentity, receiverIdentity } from './types';

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
  /**
   * True when `traps` are the person's own setup: those the session's first prompt reported, set
   * by their startup files (a bash-preexec or starship DEBUG trap) and unchanged since, or only
   * prompt hooks the startup files set up (`startupHooksOnly`). Auto approval follows the person's
   * own setup and asks only for traps or hooks set, changed or hidden after that.
   */
  trapsFromStartup?: boolean;
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

/**
 * Who would read a send typed into `session` now, its working directory now, its traps (marked
 * when they are those its first prompt reported) and its names, all read at the call.
 */
export function sendTargetOf(session: BackendSession): SendTarget {
  const current = session.currentCwd();
  const target: SendTarget = { receiver: session.receiver(), cwd: current ?? session.cwd, cwdIsCurrent: current !== undefined };
  const trap = session.traps?.();
  if (trap && trap.kind !== 'none') {
    target.traps = trap;
    const atStart = session.startupTraps?.();
    if (trap.kind === 'set' && (trap.startupHooksOnly === true || (atStart?.kind === 'set' && atStart.text === trap.text))) {
      target.trapsFromStartup = true;
    }
  }
  const names = session.shellNames?.();
  if (names) target.shellNames = names;
  return target;
}
