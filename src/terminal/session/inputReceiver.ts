/**
 * Who would read a send typed into a PTY session now: the shell at its prompt or continuation
 * prompt (with what its command line holds), or a program of the terminal's foreground process
 * group (the one blocked reading the terminal, else the group's leader), from the marker state and
 * the foreground probe.
 */
import type { LineKeys } from '../input/promptKeys';
import type { ShellMarkers } from '../readiness/shellMarkers';
import type { InputReceiver } from '../types';
import type { ForegroundProbe } from './foregroundProbe';

/** Where input goes now, as a send's admission asks it. */
export interface InputState {
  /** The foreground process group; undefined without the probe. */
  tpgid: number | undefined;
  /** The shell's group holds the foreground (without the probe: no command started since the last prompt). */
  shellInForeground: boolean;
  /** The shell waits for a command at its prompt or continuation prompt. */
  atPrompt: boolean;
}

/**
 * Who holds the terminal now: the foreground process group (undefined without a probe), whether
 * it is the shell's, and whether the shell waits for a command at its prompt or continuation
 * prompt (after PS0 it runs one: its own `read` builtin, or an `exec`ed program, may then read).
 */
export function inputState(fg: ForegroundProbe, markers: ShellMarkers): InputState {
  const tpgid = fg.foregroundGroup();
  const shellInForeground = tpgid === undefined ? markers.last !== 'start' : tpgid === fg.shellPid;
  return { tpgid, shellInForeground, atPrompt: shellInForeground && markers.last !== 'start' };
}

/**
 * The receiver of a send typed now (see InputReceiver), the shell's exit aside (the caller says
 * `exited`). A shell whose process runs another executable than it started is no shell at a prompt.
 * @param lineKeys what the shell's command line holds at its prompt now (input/promptLine.ts).
 */
export function currentReceiver(fg: ForegroundProbe, markers: ShellMarkers, lineKeys: () => LineKeys | undefined): InputReceiver {
  const { tpgid, atPrompt } = inputState(fg, markers);
  const replaced = fg.shellReplaced();
  if (atPrompt && !replaced) {
    const keys = lineKeys();
    return {
      kind: markers.last === 'continuation' ? 'shell-continuation' : 'shell-prompt',
      process: fg.receiverProcess(fg.shellPid),
      lineEditing: markers.lineEditing !== false,
      ...(keys && { lineKeys: keys }),
    };
  }
  const processGroup = tpgid ?? fg.shellPid;
  const standIn = replaced && processGroup === fg.shellPid ? { replacedShell: true as const } : {};
  if (!fg.probe) return { kind: 'program', process: fg.receiverProcess(processGroup), processGroup, ...standIn };
  // The process that will read: one blocked reading the terminal, else the group's leader.
  const { waits, complete } = fg.groupWaits(processGroup);
  const pid = waits[0]?.pid ?? processGroup;
  const reading = waits.length > 0 || (complete ? false : undefined);
  return { kind: 'program', process: fg.receiverProcess(pid), processGroup, ...(reading !== undefined && { reading }), ...standIn };
}
