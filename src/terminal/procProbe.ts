/**
 * The Linux /proc probe: who holds a PTY's foreground, and is any of it blocked reading that PTY?
 *
 * Sources (proc(5)): `/proc/<pid>/stat` fields 5 `pgrp`, 6 `session`, 8 `tpgid` (foreground
 * process group of the controlling terminal); `/proc/<pid>/task/<tid>/syscall` (syscall number and
 * arguments of a blocked thread); `/proc/<pid>/fd/<n>` (link to the open file);
 * `/proc/<pid>/fdinfo/<epfd>` (`tfd:` lines of an epoll instance); `/proc/<pid>/status`
 * (`voluntary_ctxt_switches`, which changes whenever a thread blocks anew).
 * Everything here is synchronous and bounded by the size of one process group; no terminal
 * content is read.
 */
import * as fs from 'node:fs';

/** Syscall numbers that are proof of waiting on a descriptor, per architecture (unistd.h). */
const SYSCALLS: Record<string, { read: number[]; epoll: number[] }> = {
  // x86_64: read 0, readv 19, pread64 17; epoll_wait 232, epoll_pwait 281, epoll_pwait2 441.
  x64: { read: [0, 17, 19], epoll: [232, 281, 441] },
  // aarch64 (asm-generic): read 63, readv 65, pread64 67; epoll_pwait 22, epoll_pwait2 441.
  arm64: { read: [63, 65, 67], epoll: [22, 441] },
};

/** Fields of `/proc/<pid>/stat` that the probe needs. */
export interface ProcStat {
  pid: number;
  comm: string;
  state: string;
  pgrp: number;
  session: number;
  ttyNr: number;
  tpgid: number;
}

/** A thread provably blocked reading the PTY, with a counter that changes when it blocks anew. */
export interface TtyWait {
  pid: number;
  tid: number;
  /** `voluntary_ctxt_switches` of the thread at the time of the look. */
  switches: number;
}

/** True when this machine has a readable /proc with per-thread syscall files (Linux). */
export function probeAvailable(): boolean {
  return process.platform === 'linux' && SYSCALLS[process.arch] !== undefined && fs.existsSync('/proc/self/stat');
}

/**
 * Parses `/proc/<pid>/stat`. `comm` may contain spaces and parentheses, so fields are read after
 * the last `)`. Returns undefined when the process is gone.
 */
export function readStat(pid: number): ProcStat | undefined {
  let raw: string;
  try {
    raw = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const close = raw.lastIndexOf(')');
  const comm = raw.slice(raw.indexOf('(') + 1, close);
  const f = raw.slice(close + 2).split(' ');
  // After ")": state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8)
  return {
    pid,
    comm,
    state: f[0],
    pgrp: Number(f[2]),
    session: Number(f[3]),
    ttyNr: Number(f[4]),
    tpgid: Number(f[5]),
  };
}

/** Pids of every process whose session id is `sid` (all process groups of one PTY session). */
export function sessionProcesses(sid: number): ProcStat[] {
  const result: ProcStat[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat && stat.session === sid) result.push(stat);
  }
  return result;
}

/** Members of process group `pgrp` inside session `sid`. */
export function groupProcesses(sid: number, pgrp: number): ProcStat[] {
  return sessionProcesses(sid).filter((p) => p.pgrp === pgrp);
}

/** Command line of a process, NULs as spaces, at most 200 characters; `comm` when unreadable. */
export function commandLine(pid: number, fallback = ''): string {
  try {
    const raw = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').replace(/\0/g, ' ');
    return (raw || fallback).slice(0, 200);
  } catch {
    return fallback;
  }
}

/**
 * Threads of the processes in `group` (all of one PTY session) that are blocked reading `ttyPath` — through any descriptor
 * (stdin, `/dev/tty` opened anew, a dup), or in `epoll_wait` on an epoll set that watches it.
 * `poll`/`select` are not proof (the descriptor set is not visible) and are not counted.
 */
export function ttyWaits(group: ProcStat[], ttyPath: string): TtyWait[] {
  const numbers = SYSCALLS[process.arch];
  if (!numbers) return [];
  const waits: TtyWait[] = [];
  for (const proc of group) {
    for (const tid of safeReaddir(`/proc/${proc.pid}/task`)) {
      const syscall = readText(`/proc/${proc.pid}/task/${tid}/syscall`);
      if (!syscall || syscall === 'running') continue;
      const fields = syscall.trim().split(' ');
      const nr = Number(fields[0]);
      const fd = Number.parseInt(fields[1] ?? '', 16);
      if (!Number.isInteger(fd)) continue;
      let onTty = false;
      if (numbers.read.includes(nr)) onTty = isOurTty(fdTarget(proc.pid, fd), ttyPath);
      else if (numbers.epoll.includes(nr)) onTty = epollWatches(proc.pid, fd, ttyPath);
      if (onTty) waits.push({ pid: proc.pid, tid: Number(tid), switches: voluntarySwitches(proc.pid, tid) });
    }
  }
  return waits;
}

/** Waits in `now` that are new since `before`: a thread not waiting then, or one that has run since. */
export function newWaits(now: TtyWait[], before: TtyWait[]): TtyWait[] {
  return now.filter((w) => !before.some((b) => b.pid === w.pid && b.tid === w.tid && b.switches === w.switches));
}

function epollWatches(pid: number, epfd: number, ttyPath: string): boolean {
  if (!fdTarget(pid, epfd)?.startsWith('anon_inode:[eventpoll]')) return false;
  const info = readText(`/proc/${pid}/fdinfo/${epfd}`) ?? '';
  for (const match of info.matchAll(/^tfd:\s*(\d+)/gm)) {
    if (isOurTty(fdTarget(pid, Number(match[1])), ttyPath)) return true;
  }
  return false;
}

/**
 * `/dev/tty` names the opener's controlling terminal (tty(4)); every process handed to the probe
 * belongs to the PTY's session, whose controlling terminal is that PTY.
 */
function isOurTty(target: string | undefined, ttyPath: string): boolean {
  return target === ttyPath || target === '/dev/tty';
}

function fdTarget(pid: number, fd: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function voluntarySwitches(pid: number, tid: string): number {
  const status = readText(`/proc/${pid}/task/${tid}/status`) ?? '';
  const m = /^voluntary_ctxt_switches:\s*(\d+)/m.exec(status);
  return m ? Number(m[1]) : -1;
}

function readText(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function safeReaddir(path: string): string[] {
  try {
    return fs.readdirSync(path);
  } catch {
    return [];
  }
}
