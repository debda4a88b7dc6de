/**
 * Which pids the kernel may have handed out between two moments, so that a look at every process
 * of the machine can skip the ones it read before. Linux gives out pids cyclically: the next free
 * number above the last one given, wrapping past `pid_max` back to 300 (kernel/pid.c `alloc_pid`,
 * `idr_alloc_cyclic`, RESERVED_PIDS). A pid given out between two readings of the last pid (`L0`,
 * `L1`) therefore lies in `(L0, L1]`, taken cyclically, unless the allocator went all the way
 * round meanwhile. Its cursor moves one number per pid given out (threads included) plus one per
 * number it skips because it is in use, so it cannot have gone round while the forks since
 * (`/proc/stat` `processes`, counted on the whole machine) plus the tasks that exist
 * (`/proc/loadavg`, every thread) stay below `pid_max` − 300: past that, every pid may be new.
 * A pid outside the range that was there at the first reading is the same process at the second.
 * Plain Node, no `vscode` import. Linux only: elsewhere every read gives undefined.
 */
import * as fs from 'node:fs';

/** The allocator's state at one moment. */
export interface PidMark {
  /** The last pid given out in this process's pid namespace (`/proc/loadavg` field 5). */
  lastPid: number;
  /** Forks since boot, of every namespace (`/proc/stat` line `processes`). */
  forks: number;
  /** Tasks (processes and threads) that exist (`/proc/loadavg` field 4, after the slash). */
  tasks: number;
}

/** Numbers below this are never given out again after the first wrap (kernel/pid.c RESERVED_PIDS). */
const RESERVED_PIDS = 300;

/** The allocator's state now, or undefined when /proc cannot tell it. Three small reads on this thread. */
export function pidMark(): PidMark | undefined {
  try {
    const load = fs.readFileSync('/proc/loadavg', 'latin1').trim().split(/\s+/);
    const tasks = Number(load[3]?.split('/')[1]);
    const lastPid = Number(load[4]);
    const forks = Number(/^processes\s+(\d+)$/m.exec(fs.readFileSync('/proc/stat', 'latin1'))?.[1]);
    return Number.isInteger(tasks) && Number.isInteger(lastPid) && Number.isInteger(forks) ? { lastPid, forks, tasks } : undefined;
  } catch {
    return undefined;
  }
}

let cachedPidMax: number | undefined;

/** `/proc/sys/kernel/pid_max` (read once), or undefined when unreadable. */
export function pidMax(): number | undefined {
  if (cachedPidMax === undefined) {
    try {
      const max = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'latin1').trim());
      if (Number.isInteger(max) && max > RESERVED_PIDS) cachedPidMax = max;
    } catch {
      // No /proc.
    }
  }
  return cachedPidMax;
}

/**
 * A test of whether a pid may have been given out after `before` and up to `now` (see the module
 * comment): every pid when either is unknown or the allocator may have gone round, else those in
 * `(before.lastPid, now.lastPid]`, taken cyclically below `max`.
 */
export function newSince(before: PidMark | undefined, now: PidMark | undefined, max: number | undefined): (pid: number) => boolean {
  if (!before || !now || max === undefined) return () => true;
  if (now.forks - before.forks + now.tasks >= max - RESERVED_PIDS) return () => true;
  const [from, to] = [before.lastPid, now.lastPid];
  if (from === to) return () => false;
  return from < to ? (pid) => pid > from && pid <= to : (pid) => pid > from || pid <= to;
}
