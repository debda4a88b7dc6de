/**
 * Who would read a send (plain Node): the foreground process of a session's terminal, the input
 * receiver it makes (the shell at its prompt or continuation prompt, a program, nobody), and the
 * identity a confirmation states so that a send is refused when the receiver changed since.
 */
import type { ShellTraps } from '../readiness/shellTraps';
import type { LineKeys } from './promptKeys';
import type { ProcessIdentity } from '../../proc/processIdentity';

/** A process of the foreground process group: its pid and command line (bounded, 200 chars). */
export interface ForegroundProcess {
  pid: number;
  command: string;
}

/**
 * Who reads what a send types, as seen at one moment:
 * - `shell-prompt` / `shell-continuation`: bash's line editor at the controlled prompt or the
 *   continuation prompt (PS2); `lineEditing` says whether readline is on (`set -o emacs`/`vi`);
 *   `lineKeys`, the keys earlier sends pressed at this prompt, which its command line holds
 *   (absent when none; see promptKeys.ts);
 * - `program`: a process of the foreground process group (`reading`: it is provably blocked
 *   reading the terminal; false: it runs and a send would be refused; absent: not known, without
 *   a /proc probe or when a look could not examine every process of the group);
 * - `exited`: nobody, the shell has exited.
 */
export type InputReceiver =
  | { kind: 'shell-prompt' | 'shell-continuation'; process: ReceiverProcess; lineEditing: boolean; lineKeys?: LineKeys }
  | { kind: 'program'; process: ReceiverProcess; processGroup: number; reading?: boolean; replacedShell?: true }
  | { kind: 'exited' };

/**
 * The process that reads, as a confirmation names it: `command` is what it says of itself (its
 * command line, which it may set to anything); `executable` the path of what the kernel runs
 * (`/proc/<pid>/exe`) and `identity` its pid, start time and executable file, where /proc can be
 * read (see proc/processIdentity.ts). On the `program` receiver, `replacedShell` is set when the
 * process is the session's shell process running another executable than the shell DSH Bridge
 * started (it `exec`ed a program, which may print prompt markers and call itself bash).
 */
export interface ReceiverProcess extends ForegroundProcess {
  executable?: string;
  identity?: ProcessIdentity;
}

/**
 * What must not change between a confirmation and the write: the receiver's kind and foreground
 * process group and, for a command the shell runs at its prompt, where the confirmation said it
 * runs (`place`, see `confirmedIdentity` in service.ts).
 */
export interface ReceiverIdentity {
  kind: InputReceiver['kind'];
  processGroup?: number;
  /**
   * The exact process confirmed (pid, start time and executable file; see
   * proc/processIdentity.ts), where it could be read: another process of the same group reading
   * by then, or the same pid running another executable, refuses the send.
   */
  process?: StatedProcess;
  /** Absent: where the command runs is not checked (a signal, or no folder was shown). */
  place?: StatedPlace;
}

/** A process as a confirmation identified it: `dev` and `ino` of its executable file, absent when `/proc/<pid>/exe` could not be read. */
export interface StatedProcess {
  pid: number;
  startTime: number;
  dev?: number;
  ino?: number;
}

/** Where a confirmation said a command typed at the shell's prompt or continuation prompt runs. */
export interface StatedPlace {
  /** The shell's current folder (a real path, read from /proc); undefined when it could not be read and the confirmation said so. */
  cwd?: string;
  /** The shell's traps the confirmation showed (`none` when none was set). */
  traps: ShellTraps;
}

/** The identity of a receiver, to pass back as `SendRequest.expectReceiver`. */
export function receiverIdentity(receiver: InputReceiver): ReceiverIdentity {
  if (receiver.kind === 'exited') return { kind: 'exited' };
  const identity: ReceiverIdentity = {
    kind: receiver.kind,
    processGroup: receiver.kind === 'program' ? receiver.processGroup : receiver.process.pid,
  };
  const known = receiver.process.identity;
  if (known)
    identity.process = {
      pid: known.pid,
      startTime: known.startTime,
      ...(known.executable && { dev: known.executable.dev, ino: known.executable.ino }),
    };
  return identity;
}
