/**
 * A process as the kernel identifies it, not as it names itself: its pid with its start time (a
 * pid reused by a later process has another start time; exec keeps it), and the executable it
 * runs (`/proc/<pid>/exe`: its path and the device and inode of the file, which exec changes).
 * A process may set its own `comm` (`/proc/self/comm`, prctl PR_SET_NAME) and its command line
 * (`$0` in perl, argv in C) to anything, so neither is trusted to say what runs (proc(5)).
 * Plain Node, no `vscode` import. Linux only: elsewhere every read gives undefined.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readStat } from './stat';

/** The executable a process runs: `/proc/<pid>/exe` as the kernel resolves it. */
export interface Executable {
  /** Its path (with " (deleted)" when the file was removed or replaced since it was started). */
  path: string;
  /** Device and inode of the file (fs.stat of `/proc/<pid>/exe`). */
  dev: number;
  ino: number;
}

/** A process as the kernel identifies it (see the module comment). */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks after boot (`/proc/<pid>/stat` field 22). */
  startTime: number;
  /** Undefined when `/proc/<pid>/exe` cannot be read (a process of another user, a kernel thread). */
  executable?: Executable;
}

/**
 * The executable of process `pid`, or undefined when it cannot be read. Two system calls
 * (readlink and stat of `/proc/<pid>/exe`).
 */
export function executableOf(pid: number): Executable | undefined {
  try {
    const link = `/proc/${pid}/exe`;
    const target = fs.readlinkSync(link);
    const st = fs.statSync(link);
    return { path: target, dev: st.dev, ino: st.ino };
  } catch {
    return undefined;
  }
}

/** Process `pid` as the kernel identifies it now, or undefined when it is gone or `/proc` cannot be read. */
export function processIdentity(pid: number): ProcessIdentity | undefined {
  const stat = readStat(pid);
  if (!stat) return undefined;
  const executable = executableOf(pid);
  // Read twice around the executable: a pid that ended and was reused meanwhile is not taken for one process.
  if (readStat(pid)?.startTime !== stat.startTime) return undefined;
  return { pid, startTime: stat.startTime, ...(executable && { executable }) };
}

/** True when the two executables are the same file (device and inode). */
export function sameExecutable(a: Executable | undefined, b: Executable | undefined): boolean {
  return a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;
}

/**
 * True when `a` and `b` are the same process running the same executable: the same pid and start
 * time, and the same executable file, or both unreadable.
 */
export function sameProcess(a: ProcessIdentity, b: ProcessIdentity): boolean {
  if (a.pid !== b.pid || a.startTime !== b.startTime) return false;
  if (a.executable === undefined && b.executable === undefined) return true;
  return sameExecutable(a.executable, b.executable);
}

/**
 * Whether a process's command line names the executable it runs: the base name of its first word
 * is the executable's, or the executable's less a version suffix (`python3` for `python3.11`). An
 * interpreter running a script has the interpreter as its first word (`/bin/bash ./x.sh`). False
 * when the command line names another program than the one the kernel runs (perl with
 * `$0 = "sudo -v"`), or a link of another name (`sh` for dash, `vi` for vim.basic): a confirmation
 * then says both.
 */
export function commandNamesExecutable(command: string, executable: Executable): boolean {
  const first = command.trimStart().split(/\s/, 1)[0] ?? '';
  const named = path.basename(first);
  const runs = path.basename(executable.path.replace(/ \(deleted\)$/, ''));
  if (!named || !runs) return false;
  return runs === named || (runs.startsWith(named) && /^[.\d-]+$/.test(runs.slice(named.length)));
}
