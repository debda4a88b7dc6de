/**
 * Nobody else reads what a send types: before the write, every process that has the session's
 * terminal open (proc/ttyHolders.ts), in any session or process group, and is blocked reading it
 * (proc/procProbe.ts ttyWaits), other than the receiver, refuses the send. Such a process would
 * race the receiver for the input and could take it: a reader started in the shell's own process
 * group, or a `setsid` program of another session that opened `/dev/pts/N`.
 */
import { visibleText } from './input';
import { TerminalError } from '../errors';
import type { HolderLook } from '../../proc/ttyHolders';
import { commandLine, ttyWaits } from '../../proc/procProbe';
import { executableOf } from '../../proc/processIdentity';
import { type ProcStat, readStat } from '../../proc/stat';

/** Readers named in the error, at most. */
const READERS_NAMED = 4;

/**
 * Refuses the send when a process of `look` that `isReceiver` does not accept is blocked reading
 * `tty`.
 * @param isReceiver true for a process the input is meant for (the shell at its prompt; the
 *   foreground group of a program).
 * @param receiver how the error names the receiver.
 * @param sid the session's id (the shell's pid), to say which readers are outside it.
 * @throws TerminalError OTHER_READER naming each reader (pid, command line, executable, session
 *   and group); nothing is typed.
 */
export function checkNoOtherReader(
  look: HolderLook,
  tty: string,
  isReceiver: (stat: ProcStat) => boolean,
  receiver: string,
  sid: number,
): void {
  const others = look.pids.map((pid) => readStat(pid)).filter((s): s is ProcStat => s !== undefined && !isReceiver(s));
  if (others.length === 0) return;
  const { waits } = ttyWaits(others, tty);
  const readers = [...new Set(waits.map((w) => w.pid))];
  if (readers.length === 0) return;
  const named = readers.slice(0, READERS_NAMED).map((pid) => {
    const stat = others.find((s) => s.pid === pid);
    const exe = executableOf(pid);
    const where =
      stat && stat.session !== sid ? `another session (${stat.session}), group ${stat.pgrp}` : `this session, group ${stat?.pgrp}`;
    return `pid ${pid} \`${visibleText(commandLine(pid, stat?.comm ?? ''))}\`${exe ? ` (running ${visibleText(exe.path)})` : ''} in ${where}`;
  });
  throw new TerminalError(
    'OTHER_READER',
    `nothing was typed: besides ${receiver}, ${named.join('; ')}${readers.length > READERS_NAMED ? ` and ${readers.length - READERS_NAMED} more` : ''} ${readers.length === 1 ? 'is' : 'are'} reading this terminal and could take the input. ` +
      'Ask the person to look at it: end the reader (dsh_terminal_signal reaches only the foreground group), or close the session and open a new one',
  );
}
