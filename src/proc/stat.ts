/**
 * `/proc/<pid>/stat` on Linux (proc(5)): one line of space-separated fields, the second of which
 * (`comm`, in parentheses) may itself contain spaces and parentheses. Read by the terminal probe
 * (foreground process group, session, start time) and by tmux detection (controlling terminal).
 * Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';

/** The fields of `/proc/<pid>/stat` this extension uses (proc(5) field numbers, 1-based). */
export interface ProcStat {
  pid: number;
  /** Field 2, without its parentheses. */
  comm: string;
  /** Field 3: R running or runnable, S sleeping, D disk sleep, Z zombie, T stopped, … */
  state: string;
  /** Parent pid (field 4); after the parent exited, the reaper the process was reparented to. */
  ppid: number;
  /** Process group (field 5). */
  pgrp: number;
  /** Session id (field 6): the pid of the session leader. */
  session: number;
  /** Controlling terminal (field 7) as an encoded device number, 0 for none; see decodeTtyNr. */
  ttyNr: number;
  /** Foreground process group of the controlling terminal (field 8), -1 for none. */
  tpgid: number;
  /** A kernel thread: PF_KTHREAD (0x00200000, include/linux/sched.h) in the flags (field 9). */
  kernelThread: boolean;
  /** CPU time in user and kernel mode so far (fields 14 and 15), in clock ticks (100 a second on Linux). */
  utime: number;
  stime: number;
  /** Number of threads in the process (field 20). */
  threads: number;
  /** Start time in clock ticks after boot (field 22); unchanged by exec. */
  startTime: number;
}

/** The process flag of a kernel thread (include/linux/sched.h). */
const PF_KTHREAD = 0x00200000;

/**
 * Parses the text of a `/proc/<pid>/stat` file. The fixed fields are read after the LAST `)`, so a
 * `comm` holding spaces or `)` cannot shift them. Returns undefined when the text is not such a
 * line (no `)`, fewer than 22 fields, or a non-integer where the kernel prints an integer).
 */
export function parseProcStat(text: string, pid: number): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const comm = text.slice(text.indexOf('(') + 1, close);
  // After ")": state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8) flags(9) … utime(14) stime(15) …
  // num_threads(20) … starttime(22)
  const f = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = f[0];
  const [ppid, pgrp, session, ttyNr, tpgid, flags, utime, stime, threads, startTime] = [
    f[1],
    f[2],
    f[3],
    f[4],
    f[5],
    f[6],
    f[11],
    f[12],
    f[17],
    f[19],
  ].map(integerField);
  if (state === undefined || ppid === undefined || pgrp === undefined || session === undefined) return undefined;
  if (
    ttyNr === undefined ||
    tpgid === undefined ||
    flags === undefined ||
    utime === undefined ||
    stime === undefined ||
    threads === undefined ||
    startTime === undefined
  )
    return undefined;
  const kernelThread = Math.floor(flags / PF_KTHREAD) % 2 === 1;
  return { pid, comm, state, ppid, pgrp, session, ttyNr, tpgid, kernelThread, utime, stime, threads, startTime };
}

/** A field the kernel prints as a decimal integer, or undefined when it is missing or not one. */
function integerField(field: string | undefined): number | undefined {
  return field !== undefined && /^-?\d+$/.test(field) ? Number(field) : undefined;
}

/**
 * Reads and parses `/proc/<pid>/stat` (synchronously: one small file). Returns undefined when the
 * process is gone, the file cannot be read (no `/proc`) or its text does not parse.
 */
export function readStat(pid: number): ProcStat | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcStat(raw, pid);
}

/**
 * {@link readStat} through the libuv thread pool: the calling thread only runs its callback.
 * Resolves undefined when the process is gone, unreadable or its text does not parse.
 */
export async function readStatAsync(pid: number): Promise<ProcStat | undefined> {
  let raw: string;
  try {
    raw = await fs.promises.readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return parseProcStat(raw, pid);
}
