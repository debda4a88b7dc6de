/**
 * The processes of one PTY session, found from the session's own process tree instead of a scan
 * of every process on the machine: what a waiting send looks at costs the size of the session, not
 * of the machine.
 *
 * A look walks the shell's descendants through `/proc/<pid>/task/<tid>/children` (proc(5)). A
 * process whose parent exited is no longer a descendant of the shell: the kernel reparents it to
 * the nearest ancestor that is a child subreaper, or to init (prctl(2) PR_SET_CHILD_SUBREAPER),
 * and those are ancestors of the shell. So the children of the shell's ancestors' main threads
 * (where the kernel puts orphans) are looked at too; each one outside the session costs one read
 * of its `stat` while it stays listed, and what is inside (same session id, started no earlier
 * than the shell) is walked like the shell. The chain of ancestors is read again when the shell's
 * parent changed or ANCESTORS_TTL_MS passed.
 * Every process counted carries the session id of the shell and started no earlier than it, the
 * identity check of {@link sessionProcesses}. Without child lists (a kernel without
 * CONFIG_PROC_CHILDREN) every look is that full scan.
 */
import * as proc from './procProbe';
import { readStat, type ProcStat } from '../proc/stat';
import { sessionProcesses } from '../proc/sessions';

/** How long the chain of the shell's ancestors is reused before it is read again (ms). */
const ANCESTORS_TTL_MS = 5000;
/** Least time between two full scans of /proc made because a look found no member of a live group (ms). */
const FULL_SCAN_MIN_INTERVAL_MS = 1000;

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
   * Every process of the session that descends from the shell or was reparented out of its tree.
   * When the shell is gone or its pid was reused, the full scan decides (jobs that outlived the
   * shell are found by their session id; a reused pid yields nothing).
   */
  processes(): ProcStat[] {
    if (!this.treeAvailable) return this.fullScan();
    const root = readStat(this.shellPid);
    if (!root || (this.shellStart !== undefined && root.startTime !== this.shellStart)) return this.fullScan();
    const found = new Map<number, ProcStat>();
    const queue: ProcStat[] = [root];
    const listed = new Set<number>();
    for (const ancestor of this.ancestors(root.ppid)) {
      for (const pid of proc.childPids(ancestor, true)) {
        if (pid === this.shellPid || listed.has(pid)) continue;
        listed.add(pid);
        if (this.outside.has(pid)) continue;
        const stat = readStat(pid);
        if (stat && this.inSession(stat)) queue.push(stat);
        else if (stat) this.outside.add(pid);
      }
    }
    // A pid that left the lists is forgotten: if it is reused, the new process is looked at anew.
    for (const pid of this.outside) if (!listed.has(pid)) this.outside.delete(pid);
    while (queue.length > 0) {
      const stat = queue.pop()!;
      if (found.has(stat.pid)) continue;
      found.set(stat.pid, stat);
      for (const pid of proc.childPids(stat.pid)) {
        if (found.has(pid)) continue;
        const child = readStat(pid);
        // A child that called setsid(2) left the session, and so did everything it starts.
        if (child && this.inSession(child)) queue.push(child);
      }
    }
    return [...found.values()];
  }

  /**
   * Members of process group `pgrp` in the session. When the walk finds none although the group
   * still has members (kill(2) with signal 0 to the group succeeds) and the same held at the
   * previous look, a full scan of /proc decides, at most once per FULL_SCAN_MIN_INTERVAL_MS.
   */
  group(pgrp: number): ProcStat[] {
    const members = this.processes().filter((p) => p.pgrp === pgrp);
    if (members.length > 0 || !this.treeAvailable || !groupExists(pgrp)) {
      this.missing = undefined;
      return members;
    }
    const now = Date.now();
    const persistent = this.missing === pgrp;
    this.missing = pgrp;
    if (!persistent || now - this.lastFullScanAt < FULL_SCAN_MIN_INTERVAL_MS) return members;
    this.lastFullScanAt = now;
    return this.fullScan().filter((p) => p.pgrp === pgrp);
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
