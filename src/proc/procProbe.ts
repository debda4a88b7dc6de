/**
 * The Linux /proc probe: who holds a PTY's foreground, and is any of it blocked reading that PTY?
 *
 * Sources (proc(5)): `/proc/<pid>/stat` fields 5 `pgrp`, 6 `session`, 8 `tpgid` (foreground
 * process group of the controlling terminal), 22 `starttime` (clock ticks after boot: with the pid
 * it names one process across pid reuse); `/proc/<pid>/task/<tid>/syscall` (syscall number and
 * arguments of a blocked thread); `/proc/<pid>/fd/<n>` (link to the open file);
 * `/proc/<pid>/fdinfo/<epfd>` (`tfd:` lines of an epoll instance); `/proc/<pid>/status`
 * (`voluntary_ctxt_switches`, which changes whenever a thread blocks anew); `/proc/<pid>/mem`
 * (only the `pollfd` array or `fd_set` that a thread blocked in poll/select passed to the kernel,
 * at most 8 KiB, readable for our own descendants under ptrace access rules, see ptrace(2)).
 * Everything here is synchronous; a look at a group's waits reads at most MAX_WAIT_READS files,
 * whatever the size of the group, its threads and descriptors. No terminal content is read.
 */
import * as fs from 'node:fs';
import { epollSetRead, readEpollSet } from './epollSetReads';
import { procAvailable, safeReaddir, sessionProcesses } from './sessions';
import { parseProcStat, readStat } from './stat';
import type { ProcStat } from './stat';

// Moved to files of their own, named here too for the callers that import them from the probe.
export { commandLine, commandLineAsync, procArgs, processArgs } from './commandLine';
import { readText } from './commandLine';
export { psOnTty, psStillSame, type PsEntry } from './psProgram';

/**
 * Syscall numbers that can be proof of waiting on a descriptor, per architecture (unistd.h).
 * `poll`: (fds, nfds, …) with an array of `struct pollfd`; `select`: (nfds, readfds, …).
 */
const SYSCALLS: Record<string, { read: number[]; epoll: number[]; poll: number[]; select: number[] }> = {
  // x86_64: read 0, readv 19, pread64 17; epoll_wait 232, epoll_pwait 281, epoll_pwait2 441;
  // poll 7, ppoll 271; select 23, pselect6 270.
  x64: { read: [0, 17, 19], epoll: [232, 281, 441], poll: [7, 271], select: [23, 270] },
  // aarch64 (asm-generic): read 63, readv 65, pread64 67; epoll_pwait 22, epoll_pwait2 441;
  // ppoll 73; pselect6 72.
  arm64: { read: [63, 65, 67], epoll: [22, 441], poll: [73], select: [72] },
};
/** Largest descriptor set the probe reads from a poll (entries) or select (nfds). */
const MAX_POLL_FDS = 1024;
/**
 * Most files of /proc one look at a group's waits reads (see {@link ttyWaits}): tens of µs each
 * on this thread, so a look costs at most some ms, however many threads and descriptors the
 * session's programs have.
 */
export const MAX_WAIT_READS = 512;
/** `events` bits of a pollfd that mean "wants to read" (poll.h: POLLIN, POLLPRI, POLLRDNORM). */
const POLL_READ_EVENTS = 0x1 | 0x2 | 0x40;

/** A thread provably blocked reading the PTY, with a counter that changes when it blocks anew. */
export interface TtyWait {
  pid: number;
  tid: number;
  /** `voluntary_ctxt_switches` of the thread at the time of the look. */
  switches: number;
  /** How it waits: `read` (any read syscall), `epoll`, or `poll`/`select` (the set read from its memory). */
  via: 'read' | 'epoll' | 'poll' | 'select';
}

/**
 * What one look found of a foreground group's waits on the terminal. A look may be cut before it
 * read every member (processTree.ts, MAX_LOOK_PROCESSES): a wait it found is still a real wait,
 * but a member it did not examine may wait too.
 */
export interface GroupWaits {
  /** The process group looked at; undefined for {@link NO_WAITS}. */
  pgrp: number | undefined;
  waits: TtyWait[];
  /** The pids whose threads were examined: every member of the group when `complete`. */
  examined: ReadonlySet<number>;
  /** False when members of group `pgrp` may not have been examined. */
  complete: boolean;
  /** The look did not reach the group's members through the session's tree (processTree.ts). */
  searching?: true;
}

/** A look that found nothing and missed nothing: every wait another look finds is new to it. */
export const NO_WAITS: GroupWaits = { pgrp: undefined, waits: [], examined: new Set(), complete: true };

/** The waits on `ttyPath` of the members of group `pgrp` one look found, complete or not (see {@link GroupWaits}). */
export function groupWaits(pgrp: number, look: { members: ProcStat[]; complete: boolean; searching?: true }, ttyPath: string): GroupWaits {
  const { waits, examined, complete } = ttyWaits(look.members, ttyPath);
  return { pgrp, waits, examined, complete: look.complete && complete, ...(look.searching && { searching: look.searching }) };
}

/** True when this machine has a readable /proc with per-thread syscall files (Linux). */
export function probeAvailable(): boolean {
  return procAvailable() && SYSCALLS[process.arch] !== undefined;
}

/**
 * True when this kernel lists a thread's children in `/proc/<pid>/task/<tid>/children` (proc(5),
 * CONFIG_PROC_CHILDREN): a session's processes can then be found from its own process tree.
 */
export function childListsAvailable(): boolean {
  return fs.existsSync(`/proc/${process.pid}/task/${process.pid}/children`);
}

/**
 * The pids the kernel lists as children of `pid` at the moment of the read: of every thread
 * (`/proc/<pid>/task/<tid>/children`, where a child is listed under the thread that forked it), or
 * with `mainThreadOnly` of its main thread only, which is where the kernel reparents orphans when
 * `pid` is their reaper (kernel/exit.c find_new_reaper: the first live thread of the reaper, its
 * leader unless that is exiting), of at most `maxThreads` threads. Empty when the process is gone or the lists cannot be read. The
 * list is not a proof of identity: a child created or ended during the read may be missing
 * (proc(5)), and a listed pid may have exited, or been reused, before the caller reads it, so
 * callers check each one (session id and start time, see processTree.ts).
 */
export function childPids(pid: number, mainThreadOnly = false, maxThreads = Infinity): number[] {
  const pids: number[] = [];
  for (const tid of mainThreadOnly ? [String(pid)] : safeReaddir(`/proc/${pid}/task`).slice(0, maxThreads)) {
    const list = readText(`/proc/${pid}/task/${tid}/children`);
    if (!list) continue;
    for (const child of list.split(' ')) if (child.trim()) pids.push(Number(child));
  }
  return pids;
}

/**
 * The shell's children in session `sid` (the shell's pid) that are stopped by a signal now (state
 * `T`; a tracing stop `t` is not one), each with the context switches it has made so far
 * (`voluntary_ctxt_switches` + `nonvoluntary_ctxt_switches` of /proc/<pid>/status): a process that
 * was continued and stopped again ran in between, so its count grew. A bash job's processes are
 * all the shell's children. Reads the shell's child lists and one `stat` and `status` per child
 * (where the kernel lists no children, the session's processes: a scan of /proc); empty without
 * /proc.
 */
export function stoppedChildren(sid: number): { pid: number; switches: number }[] {
  const stopped: { pid: number; switches: number }[] = [];
  const children = childListsAvailable() ? childPids(sid).map((pid) => readStat(pid)) : sessionProcesses(sid).filter((p) => p.ppid === sid);
  for (const stat of children) {
    if (stat?.state !== 'T' || stat.session !== sid) continue;
    const status = readText(`/proc/${stat.pid}/status`) ?? '';
    const count = (field: string) => Number(new RegExp(`^${field}:\\s*(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    stopped.push({ pid: stat.pid, switches: count('voluntary_ctxt_switches') + count('nonvoluntary_ctxt_switches') });
  }
  return stopped;
}

/** Members of process group `pgrp` inside session `sid` (see {@link sessionProcesses} for `leaderStart`). */
export function groupProcesses(sid: number, pgrp: number, leaderStart?: number): ProcStat[] {
  return sessionProcesses(sid, leaderStart).filter((p) => p.pgrp === pgrp);
}

/**
 * True when descriptor `fd` of this process is close-on-exec: `O_CLOEXEC` (02000000 octal, open(2))
 * in the `flags:` line of `/proc/self/fdinfo/<fd>`. Undefined without /proc or when unreadable.
 */
export function closeOnExec(fd: number): boolean | undefined {
  const flags = /^flags:\s*([0-7]+)/m.exec(readText(`/proc/self/fdinfo/${fd}`) ?? '')?.[1];
  return flags === undefined ? undefined : (Number.parseInt(flags, 8) & 0o2000000) !== 0;
}

/** What {@link ttyWaits} found (see {@link GroupWaits}). */
export interface WaitScan {
  waits: TtyWait[];
  /** The pids whose every thread was examined. */
  examined: Set<number>;
  /** True when every process handed to it was examined. */
  complete: boolean;
}

/**
 * Threads of the processes in `group` (members of one process group of the PTY's session) that
 * are asleep blocked reading `ttyPath`: in a read through any descriptor (stdin, `/dev/tty` opened
 * anew, a dup), in `epoll_wait` on an epoll set that watches it, or in `poll`/`select` (vim waits
 * in pselect6) with the tty in the set of descriptors it waits to read.
 * The poll/select set lives in the process's memory: when `/proc/<pid>/mem` cannot be read, that
 * wait is not proof and is not counted.
 * At most `maxReads` files of /proc are read (MAX_WAIT_READS): a program chooses how many threads
 * and descriptors it has, and each costs reads on this thread. A process with more threads than
 * the reads left has its main thread examined alone; a process whose reads did not all fit is not
 * `examined`, and the scan is then not `complete`. Every wait returned is a real one.
 */
export function ttyWaits(group: ProcStat[], ttyPath: string, maxReads = MAX_WAIT_READS): WaitScan {
  const numbers = SYSCALLS[process.arch];
  const scan: WaitScan = { waits: [], examined: new Set(), complete: true };
  if (!numbers) return scan;
  const reads = new WaitReads(ttyPath, maxReads);
  for (const proc of group) {
    let whole = true;
    // A single-threaded process has one task, its main thread.
    let tids = [String(proc.pid)];
    if (proc.threads > 1) {
      if (proc.threads < reads.left) tids = safeReaddir(`/proc/${proc.pid}/task`);
      else whole = false;
    }
    reads.process(proc.pid);
    for (const tid of tids) {
      if (!reads.take()) {
        whole = false;
        break;
      }
      const syscall = readText(`/proc/${proc.pid}/task/${tid}/syscall`);
      if (!syscall || syscall === 'running') continue;
      // The syscall number, then its arguments in hex: a waiting call has at least the first one.
      const [nrField, firstArgument, secondArgument] = syscall.trim().split(' ');
      if (firstArgument === undefined) continue;
      const nr = Number(nrField);
      const fd = Number.parseInt(firstArgument, 16);
      if (!Number.isInteger(fd)) continue;
      let onTty: boolean | undefined = false;
      let via: TtyWait['via'] = 'read';
      if (numbers.read.includes(nr)) onTty = reads.isTty(fd);
      else if (numbers.epoll.includes(nr)) [onTty, via] = [epollWatches(reads, fd, tid), 'epoll'];
      else if (numbers.poll.includes(nr))
        [onTty, via] = [pollWatches(reads, firstArgument, Number.parseInt(secondArgument ?? '', 16)), 'poll'];
      else if (numbers.select.includes(nr)) [onTty, via] = [selectWatches(reads, fd, secondArgument ?? '0'), 'select'];
      if (onTty === undefined) whole = false;
      if (!onTty) continue;
      if (!reads.take(2)) {
        whole = false;
        continue;
      }
      // A thread woken by our input but not yet scheduled still shows its old syscall: only one
      // asleep (state S) is waiting. Without this, a shell that blocked just after the send's
      // first look and has not yet run since the write looked like a shell idle at its prompt.
      if (taskState(proc.pid, tid) === 'S') {
        scan.waits.push({ pid: proc.pid, tid: Number(tid), switches: voluntarySwitches(proc.pid, tid), via });
      }
    }
    if (whole) scan.examined.add(proc.pid);
    else scan.complete = false;
  }
  return scan;
}

/**
 * Waits in `now` that are new since `before`: a thread not waiting then, or one that has run
 * since. A process of `before`'s group that `before` did not examine (a cut look) may have waited
 * then already: its waits are never new. A cut says nothing about other groups: when the
 * foreground group changed since `before` (a command the shell started), `before` is judged as a
 * complete look would be, as it always was.
 */
export function newWaits(now: GroupWaits, before: GroupWaits): TtyWait[] {
  const judged = (pid: number) => before.complete || before.pgrp !== now.pgrp || before.examined.has(pid);
  return now.waits.filter(
    (w) => judged(w.pid) && !before.waits.some((b) => b.pid === w.pid && b.tid === w.tid && b.switches === w.switches),
  );
}

/**
 * The reads of /proc one {@link ttyWaits} may still make, and what it learned of the descriptors
 * of the process it examines. The checks below answer undefined when they ran out of reads.
 */
class WaitReads {
  left: number;
  pid = 0;
  /** Descriptors of `pid` already read: open on our tty or not. */
  private fds = new Map<number, boolean>();
  /** See {@link ttyInEpoll}. */
  private id?: string | null;

  constructor(
    readonly ttyPath: string,
    maxReads: number,
  ) {
    this.left = maxReads;
  }

  /** Starts the examination of process `pid`. */
  process(pid: number): void {
    this.pid = pid;
    this.fds.clear();
  }

  /** Takes `count` reads; false (and none taken) when fewer are left. */
  take(count = 1): boolean {
    if (this.left < count) return false;
    this.left -= count;
    return true;
  }

  /** Whether descriptor `fd` of the process is open on our tty (or /dev/tty); undefined when out of reads. */
  isTty(fd: number): boolean | undefined {
    const known = this.fds.get(fd);
    if (known !== undefined) return known;
    if (!this.take()) return undefined;
    const onTty = isOurTty(fdTarget(this.pid, fd), this.ttyPath);
    this.fds.set(fd, onTty);
    return onTty;
  }

  /**
   * How epoll's fdinfo names our tty's slave in a `tfd:` line (` ino:<hex> sdev:<hex>` and the
   * line's end, Linux 4.15 and later): the kernel's dev_t (major << 20 | minor) from the one
   * stat(2) gives (glibc's encoding). Read once; null when the tty cannot be stat'ed.
   */
  ttyInEpoll(): string | null {
    if (this.id === undefined) {
      try {
        const stat = fs.statSync(this.ttyPath, { bigint: true });
        const major = ((stat.dev >> 8n) & 0xfffn) | ((stat.dev >> 32n) & ~0xfffn);
        const minor = (stat.dev & 0xffn) | ((stat.dev >> 12n) & ~0xffn);
        this.id = ` ino:${stat.ino.toString(16)} sdev:${((major << 20n) | minor).toString(16)}\n`;
      } catch {
        this.id = null;
      }
    }
    return this.id;
  }

  /** `length` bytes at `address` of the process's memory (one read); undefined when unreadable. */
  memory(address: string, length: number): Buffer | undefined | 'out' {
    return this.take() ? readMemory(this.pid, address, length) : 'out';
  }
}

/**
 * True when a `poll(fds, nfds)` wait has a descriptor of our tty with a read event in `fds`: the
 * set is read first, then only its descriptors that wait to read. Undefined when out of reads.
 */
function pollWatches(reads: WaitReads, fdsAddress: string, nfds: number): boolean | undefined {
  if (!Number.isInteger(nfds) || nfds <= 0 || nfds > MAX_POLL_FDS) return false;
  const fds = reads.memory(fdsAddress, nfds * 8); // struct pollfd { int fd; short events; short revents; }
  if (fds === 'out') return undefined;
  if (!fds) return false;
  let unknown = false;
  for (let i = 0; i < nfds; i++) {
    if ((fds.readInt16LE(i * 8 + 4) & POLL_READ_EVENTS) === 0) continue;
    const fd = fds.readInt32LE(i * 8);
    if (fd < 0) continue; // poll(2) ignores a negative fd
    const onTty = reads.isTty(fd);
    if (onTty) return true;
    if (onTty === undefined) unknown = true;
  }
  return unknown ? undefined : false;
}

/**
 * True when a `select(nfds, readfds, …)` wait has a descriptor of our tty in `readfds`: the set is
 * read first, then only its descriptors. Undefined when out of reads.
 */
function selectWatches(reads: WaitReads, nfds: number, readfdsAddress: string): boolean | undefined {
  if (nfds <= 0 || nfds > MAX_POLL_FDS) return false;
  // fd_set: a bit array in unsigned longs; on little-endian x86_64 and aarch64 bit fd is bit
  // (fd % 8) of byte (fd / 8). Every fd < nfds lies inside the ceil(nfds / 64) × 8 bytes read.
  const set = reads.memory(readfdsAddress, Math.ceil(nfds / 64) * 8);
  if (set === 'out') return undefined;
  if (!set) return false;
  let unknown = false;
  for (let fd = 0; fd < nfds; fd++) {
    if ((set.readUInt8(fd >> 3) & (1 << (fd & 7))) === 0) continue;
    const onTty = reads.isTty(fd);
    if (onTty) return true;
    if (onTty === undefined) unknown = true;
  }
  return unknown ? undefined : false;
}

/** `length` bytes at `address` (hex, from the syscall file) of `pid`'s memory; undefined when unreadable. */
function readMemory(pid: number, address: string, length: number): Buffer | undefined {
  let position: bigint;
  try {
    position = BigInt(address);
  } catch {
    return undefined;
  }
  if (position === 0n) return undefined;
  let fd: number | undefined;
  try {
    fd = fs.openSync(`/proc/${pid}/mem`, 'r');
    const buffer = Buffer.alloc(length);
    return fs.readSync(fd, buffer, 0, length, position) === length ? buffer : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * True when the epoll set `epfd`, in which thread `tid` of the examined process waits, watches our
 * tty: a watched descriptor whose inode and device (`ino:`, `sdev:` in its fdinfo line, Linux 4.15
 * and later) are our tty's slave, else one whose link names it or /dev/tty. The kernel formats the
 * whole set at any read of its fdinfo, and a program makes a set as large as it likes (one entry
 * per open file and descriptor number registered, closed again or not: a million entries took
 * 1.4 s): the set is read through libuv's thread pool, once per wait, and until it is in the answer
 * is undefined, as it is when out of reads, or when the set is larger than what is read of it and
 * what was read does not watch the tty.
 */
function epollWatches(reads: WaitReads, epfd: number, tid: string): boolean | undefined {
  if (!reads.take(2)) return undefined;
  if (!fdTarget(reads.pid, epfd)?.startsWith('anon_inode:[eventpoll]')) return false;
  const key = `${reads.pid} ${tid} ${voluntarySwitches(reads.pid, tid)} ${epfd}`;
  const set = epollSetRead(key);
  if (set === undefined) readEpollSet(key, `/proc/${reads.pid}/fdinfo/${epfd}`, reads.ttyInEpoll());
  if (set === undefined || set === 'reading') return undefined;
  if (set === null) return false;
  if (set.watchesTty) return true;
  let unknown = set.cut;
  // Opened as /dev/tty, the terminal's descriptor has that node's inode: only its link tells.
  for (const fd of set.others) {
    const onTty = reads.isTty(fd);
    if (onTty) return true;
    if (onTty === undefined) unknown = true;
  }
  return unknown ? undefined : false;
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

/** State letter of a thread (proc(5) stat field 3: R running or runnable, S sleeping, …). */
function taskState(pid: number, tid: string): string | undefined {
  const stat = readText(`/proc/${pid}/task/${tid}/stat`);
  return stat === undefined ? undefined : parseProcStat(stat, pid)?.state;
}

function voluntarySwitches(pid: number, tid: string): number {
  const status = readText(`/proc/${pid}/task/${tid}/status`) ?? '';
  const m = /^voluntary_ctxt_switches:\s*(\d+)/m.exec(status);
  return m ? Number(m[1]) : -1;
}
