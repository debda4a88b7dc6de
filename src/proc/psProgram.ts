/**
 * ps(1), where there is no /proc (macOS): which ps the extension runs and what it lists. The
 * program is the system's (`/bin/ps`, else `/usr/bin/ps`), never one looked up
 * by name on the extension host's PATH. That PATH may hold a folder sandboxed commands can write (a
 * workspace virtualenv's `bin`), and ps runs outside the sandbox (at every send where /proc is
 * missing, as on macOS): a ps written there would run with the person's full permissions.
 * Undefined when neither exists: callers say ps is not installed.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';

export const PS_PROGRAM: string | undefined = ['/bin/ps', '/usr/bin/ps'].find((p) => fs.existsSync(p));

/** A process as ps(1) lists it: pid, process group, state and start time (`lstart`, as ps prints it). */
export interface PsEntry {
  pid: number;
  pgid: number;
  /** ps's `stat` column: the state letter first (`Z` for a zombie), then flags such as `s` or `+`. */
  stat: string;
  lstart: string;
}

/**
 * Without /proc: the processes whose controlling terminal is `ttyPath` (`ps -t`), each with its
 * process group and start time. A PTY's slave name is ours for as long as we hold its master, so
 * everything listed belongs to the session. Processes that lost the terminal (jobs that outlived
 * the shell) are not listed: see {@link psStillSame}.
 */
export async function psOnTty(ttyPath: string): Promise<PsEntry[]> {
  return parsePs(await ps(['-t', ttyPath, '-o', 'pid=,pgid=,stat=,lstart=']));
}

/**
 * Without /proc: those of `entries` that are still the same process (same pid, process group and
 * start time, `ps -p`), as ps lists them now (with their current `stat`), so a remembered process
 * group is signalled only while it is still ours.
 */
export async function psStillSame(entries: PsEntry[]): Promise<PsEntry[]> {
  if (entries.length === 0) return [];
  const now = parsePs(await ps(['-o', 'pid=,pgid=,stat=,lstart=', '-p', entries.map((e) => e.pid).join(',')]));
  return now.filter((n) => entries.some((e) => n.pid === e.pid && n.pgid === e.pgid && n.lstart === e.lstart));
}

function parsePs(out: string): PsEntry[] {
  const entries: PsEntry[] = [];
  for (const line of out.split('\n')) {
    const [, pid, pgid, stat, lstart] = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.+?)\s*$/.exec(line) ?? [];
    if (pid && pgid && stat && lstart) entries.push({ pid: Number(pid), pgid: Number(pgid), stat, lstart });
  }
  return entries;
}

/**
 * Output of ps(1) ({@link PS_PROGRAM}) with `args`, run off this thread (at most 2 s); '' when it
 * lists nothing (ps exits 1) or cannot run. Never rejects.
 */
export function ps(args: string[]): Promise<string> {
  return new Promise((resolve) => {
    if (PS_PROGRAM === undefined) return resolve('');
    const child = execFile(PS_PROGRAM, args, { encoding: 'utf8', timeout: 2000 }, (_error, stdout) => resolve(stdout ?? ''));
    child.stdin?.end();
  });
}
