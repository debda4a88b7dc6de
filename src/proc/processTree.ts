/**
 * The processes of one PTY session, found from the session's own process tree instead of a scan
 * of every process on the machine, and at most MAX_LOOK_PROCESSES of them per look: what a waiting
 * send looks at costs neither the size of the machine nor that of the session.
 *
 * A look walks the shell's descendants through `/proc/<pid>/task/<tid>/children` (proc(5)). A
 * process whose parent exited is no longer a descendant of the shell: the kernel reparents it to
 * the nearest ancestor that is a child subreaper, or to init (prctl(2) PR_SET_CHILD_SUBREAPER),
 * and those are ancestors of the shell. So the children of the shell's ancestors' main threads
 * (where the kernel puts orphans) are looked at too; each one outside the session costs one read
 * of its `stat` while it stays listed, and what is inside (same session id, started no earlier
 * than the shell) is walked like the shell. The chain of ancestors is read again when the shell's
 * parent changed or ANCESTORS_TTL_MS passed.
 * A descendant that left the session with setsid(2) is walked below too (its children forked
 * before it left are still in the session): each of its children costs a read. Once its parent
 * exited it is reparented out of the shell's tree, where it is not walked below (the children of
 * the shell's ancestors include every session on the machine): a member of ours below it is then
 * missed, and a look is `searching` only when it found no member of that group at all. Every
 * process counted carries the session id of the shell and started no earlier than it, the identity
 * check of {@link sessionProcesses}. Without child lists (a kernel without CONFIG_PROC_CHILDREN)
 * every look is a full scan of /proc, on this thread; once the shell is gone, a look takes what a
 * full scan off this thread found.
 */
import * as proc from './procProbe';
import { readStat, type ProcStat } from './stat';
import { scanSessionProcesses, sessionProcesses, stillMember } from './sessions';

/** How long the chain of the shell's ancestors is reused before it is read again (ms). */
const ANCESTORS_TTL_MS = 5000;
/** Least time between two full scans of /proc made because a look found no member of a live group (ms). */
const FULL_SCAN_MIN_INTERVAL_MS = 1000;

/**
 * Most processes one look reads the `stat` of. Past it the look is cut: it returns what it found
 * and says it is not complete. Each process costs a few small /proc reads (tens of µs each, on
 * this thread), and a program in the session chooses how many processes it has: thousands would
 * hold the extension host thread for hundreds of ms at every look.
 */
export const MAX_LOOK_PROCESSES = 128;
/**
 * Most child lists (`/proc/<pid>/task/<tid>/children`, one per thread) one look reads. A process
 * lists its children under the thread that forked each, and a program chooses how many threads it
 * has: one of 10 000 threads cost 10 000 reads at every look. Past it the look is cut.
 */
export const MAX_LOOK_CHILD_LISTS = 512;

/** Pids after a process group's id where {@link SessionProcessTree.hasMember} looks for a member when the group's leader is gone. */
const NEARBY_PIDS = 128;

/** What one look found of a process group. */
export interface GroupLook {
  /** Members of the group found (all of them when `complete`). */
  members: ProcStat[];
  /**
   * False when the look stopped at MAX_LOOK_PROCESSES or MAX_LOOK_CHILD_LISTS, or `searching`:
   * members may be missing. True misses only members below a process that left the session and
   * was reparented out of the shell's tree (see the top of this file).
   */
  complete: boolean;
  /**
   * The walk of the session's tree reached no member of the group although it has some: the
   * members are those a full scan of /proc found (see {@link SessionProcessTree.look}).
   */
  searching?: true;
  /** `stat` files the look read. */
  read: number;
}

/** The processes of the session whose leader (the shell) is `shellPid`, started at `shellStart`. */
export class SessionProcessTree {
  /** Children of the shell's ancestors known to be outside the session, kept while still listed. */
  private outside = new Set<number>();
  private readonly treeAvailable = proc.childListsAvailable();
  private lastFullScanAt = -Infinity;
  private fullScans = 0;
  /** The group a look found without members although it exists; a full scan follows if it stays so. */
  private missing: number | undefined;
  private chain: { ppid: number; at: number; pids: number[] } | undefined;
  /** The full scan in flight, started by a look or {@link hasMember} that missed a group's members. */
  private scanning: Promise<void> | undefined;
  /** What the last full scan found of the group it was started for. */
  private scanned: { pgrp: number; members: ProcStat[] } | undefined;

  /**
   * @param shellPid the session leader's pid, which is also the session id.
   * @param shellStart its start time (`/proc/<pid>/stat` field 22), or undefined when unknown:
   *   then nothing is checked by start time.
   */
  constructor(
    private readonly shellPid: number,
    private readonly shellStart: number | undefined,
  ) {}

  /** How many full scans of /proc this tree made (the fallback); for tests and benchmarks. */
  get fullScanCount(): number {
    return this.fullScans;
  }

  /**
   * Members of process group `pgrp` in the session: the shell's descendants first (depth first,
   * below the group's members before below others, from the kernel's child lists, so repeated
   * looks read the same processes first), then those reparented out of its tree, reading at most
   * MAX_LOOK_PROCESSES processes. When the shell is gone or its pid was reused, a full scan of
   * /proc off this thread decides (jobs that outlived the shell are found by their session id; a
   * reused pid yields nothing): the look is `searching`, as below, and starts that scan.
   * When a complete walk finds no member although the group still has members (kill(2) with
   * signal 0 to the group succeeds: members the walk cannot reach, e.g. below a process that left
   * the session with setsid(2) and whose parent then exited, out of the shell's tree), the look is
   * not complete (`searching`): its members are those the latest full scan of /proc found for the
   * group that are still the same processes in it, and when the same held at the previous look a
   * new full scan starts off this thread (at most once per FULL_SCAN_MIN_INTERVAL_MS). A scan's
   * answer is never complete: members may have come since.
   */
  look(pgrp: number): GroupLook {
    const walk = this.walk(pgrp);
    if (walk.shellGone) {
      this.search(pgrp);
      return this.fromLastScan(pgrp, walk.read);
    }
    const members = walk.processes.filter((p) => p.pgrp === pgrp);
    if (members.length > 0 || !walk.complete || !this.treeAvailable || !groupExists(pgrp)) {
      this.missing = undefined;
      return { members, complete: walk.complete, read: walk.read };
    }
    const persistent = this.missing === pgrp;
    this.missing = pgrp;
    if (persistent) this.search(pgrp);
    return this.fromLastScan(pgrp, walk.read);
  }

  /**
   * A look that cannot be complete (`searching`): the members of `pgrp` the latest full scan found
   * that are still the same processes in it; `read` stat files were read before.
   */
  private fromLastScan(pgrp: number, read: number): GroupLook {
    const found = this.scanned?.pgrp === pgrp ? this.scanned.members.slice(0, MAX_LOOK_PROCESSES) : [];
    const still = found.flatMap((p) => stillMember(p, pgrp) ?? []);
    return { members: still, complete: false, searching: true, read: read + found.length };
  }

  /**
   * Starts a full scan of /proc off this thread for the members of group `pgrp`, unless one is in
   * flight or the last started less than FULL_SCAN_MIN_INTERVAL_MS ago; a later {@link look} at
   * that group takes what it found.
   */
  private search(pgrp: number): void {
    const now = Date.now();
    if (this.scanning || now - this.lastFullScanAt < FULL_SCAN_MIN_INTERVAL_MS) return;
    this.missing = pgrp;
    this.lastFullScanAt = now;
    this.fullScans++;
    this.scanning = scanSessionProcesses(this.shellPid, this.shellStart).then((all) => {
      this.scanned = { pgrp, members: all.filter((p) => p.pgrp === pgrp) };
      this.scanning = undefined;
    });
  }

  /**
   * The session's processes that descend from the shell or were reparented out of its tree, at
   * most MAX_LOOK_PROCESSES `stat` reads (`complete` false when it stopped there), those of group
   * `pgrp` walked below first.
   */
  private walk(pgrp: number): { processes: ProcStat[]; complete: boolean; read: number; shellGone?: true } {
    if (!this.treeAvailable) return { processes: this.fullScan(), complete: true, read: 0 };
    let read = 1;
    let lists = 0;
    const root = readStat(this.shellPid);
    if (!root || (this.shellStart !== undefined && root.startTime !== this.shellStart))
      return { processes: [], complete: false, read, shellGone: true };
    const found = new Map<number, ProcStat>();
    /** Descendants that left the session, walked below: see `left`. */
    const leftPids = new Set<number>();
    // The processes of the group looked for are walked below first (a stack each, the group's
    // popped first): a background job of many processes does not use up the look before the
    // foreground command's children are read. Descendants that called setsid(2) left the session,
    // and so did what they fork since; but what they forked before stays in the session, in its
    // process group (a process leaves a session only by its own setsid, and joins one only by
    // being forked in it), and so does an orphan of the session they adopt as a child subreaper:
    // they are walked below last (`left`), every child of theirs is read, and only the session's
    // processes among their descendants are counted. Their child lists do not tell which children
    // came before the setsid: the kernel moves an exited thread's children to the tail of a live
    // thread's list and adds adopted orphans at the tail (kernel/exit.c forget_original_parent),
    // so a child of the session can follow children forked since.
    const mine: ProcStat[] = [];
    const others: ProcStat[] = [];
    const left: ProcStat[] = [];
    const push = (stat: ProcStat) => {
      if (this.inSession(stat)) (stat.pgrp === pgrp ? mine : others).push(stat);
      // Only a session's leader can have left ours: a process of another session that does not
      // lead it was started there, and so was everything below it (see above), orphans it adopts
      // included (they were below it).
      else if (stat.session === stat.pid) left.push(stat);
    };
    // Cut: what was read is a process of the session all the same (its children were not looked at).
    const cut = () => {
      for (const unwalked of [...mine, ...others]) found.set(unwalked.pid, unwalked);
      return false;
    };
    const descend = (start: ProcStat): boolean => {
      push(start);
      while (mine.length > 0 || others.length > 0 || left.length > 0) {
        const stat = (mine.length > 0 ? mine : others.length > 0 ? others : left).pop()!;
        if (found.has(stat.pid) || leftPids.has(stat.pid)) continue;
        if (this.inSession(stat)) found.set(stat.pid, stat);
        else leftPids.add(stat.pid);
        // A single-threaded process lists its children under its main thread alone.
        lists += Math.max(stat.threads, 1);
        if (lists > MAX_LOOK_CHILD_LISTS) return cut();
        const children = proc.childPids(stat.pid, stat.threads <= 1);
        for (let i = children.length - 1; i >= 0; i--) {
          const pid = children[i]!;
          if (found.has(pid) || leftPids.has(pid)) continue;
          if (read >= MAX_LOOK_PROCESSES) return cut();
          read++;
          const child = readStat(pid);
          if (child) push(child);
        }
      }
      return true;
    };
    if (!descend(root)) return { processes: [...found.values()], complete: false, read };
    const listed = new Set<number>();
    for (const ancestor of this.ancestors(root.ppid)) {
      for (const pid of proc.childPids(ancestor, true)) {
        if (pid === this.shellPid || listed.has(pid)) continue;
        listed.add(pid);
        if (this.outside.has(pid) || found.has(pid)) continue;
        if (read >= MAX_LOOK_PROCESSES) return { processes: [...found.values()], complete: false, read };
        read++;
        const stat = readStat(pid);
        if (!stat || !this.inSession(stat)) {
          this.outside.add(pid);
          continue;
        }
        if (!descend(stat)) return { processes: [...found.values()], complete: false, read };
      }
    }
    // A pid that left the lists is forgotten: if it is reused, the new process is looked at anew.
    for (const pid of this.outside) if (!listed.has(pid)) this.outside.delete(pid);
    return { processes: [...found.values()], complete: true, read };
  }

  /**
   * True when process group `pgrp` has a member in this session now: its leader (pid `pgrp`)
   * when that is still in the group and the session, else a member a look finds, else a member
   * among the NEARBY_PIDS pids after the leader's (a group's members are mostly forked after it).
   * Else 'searching': a full scan of /proc starts off this thread ({@link search}), and a later
   * call finds what it found (a scan on this thread took 218 ms with 5 100 processes on the
   * machine, and a program can lay out its group so).
   */
  hasMember(pgrp: number): boolean | 'searching' {
    const leader = readStat(pgrp);
    if (leader && leader.pgrp === pgrp && this.inSession(leader)) return true;
    if (this.look(pgrp).members.length > 0) return true;
    for (let pid = pgrp + 1; pid <= pgrp + NEARBY_PIDS; pid++) {
      const stat = readStat(pid);
      if (stat && stat.pgrp === pgrp && this.inSession(stat)) return true;
    }
    this.search(pgrp);
    return 'searching';
  }

  private inSession(stat: ProcStat): boolean {
    return stat.session === this.shellPid && (this.shellStart === undefined || stat.startTime >= this.shellStart);
  }

  /** The shell's ancestors from `ppid` up to the top of this pid namespace (ppid 0), cached. */
  private ancestors(ppid: number): number[] {
    const now = Date.now();
    if (this.chain?.ppid !== ppid || now - this.chain.at > ANCESTORS_TTL_MS) this.chain = { ppid, at: now, pids: readAncestors(ppid) };
    return this.chain.pids;
  }

  private fullScan(): ProcStat[] {
    this.fullScans++;
    return sessionProcesses(this.shellPid, this.shellStart);
  }
}

/** `ppid` and its ancestors up to the top of this pid namespace (ppid 0), at most 64. */
function readAncestors(ppid: number): number[] {
  const chain: number[] = [];
  for (let pid = ppid; pid > 0 && chain.length < 64; ) {
    chain.push(pid);
    const stat = readStat(pid);
    if (!stat) break;
    pid = stat.ppid;
  }
  return chain;
}

/** True while process group `pgrp` has a member this process may signal (kill(2) with signal 0). */
function groupExists(pgrp: number): boolean {
  try {
    process.kill(-pgrp, 0);
    return true;
  } catch (error) {
    // EPERM: members exist that we may not signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
