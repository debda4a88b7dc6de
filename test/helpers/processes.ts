// Whether a process still runs, for tests that check what a close, a crash or a shutdown left
// behind. Linux only (it reads /proc), like the terminal service's probe.
import { readStat } from '../../src/proc/stat';

/**
 * True while process `pid` runs: `/proc/<pid>/stat` exists and its state is not `Z`. A zombie
 * (exited, not yet reaped by its parent) counts as gone: it runs no code and holds no terminal.
 */
export function alive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}
