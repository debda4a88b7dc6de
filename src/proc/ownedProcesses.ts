/**
 * Every process a terminal session started, also after it left the session's process groups
 * (`setsid`, `nohup … & disown`, a double fork): the session's shell gets a mark in its environment
 * (`DSH_SESSION=<random id>`, sessionEnv.ts) that every process it starts inherits through fork and
 * exec, and a process is the session's when it carries that mark and started no earlier than the
 * shell (`/proc/<pid>/stat` field 22), or descends from the shell. The start time is what tells a
 * process from a later one that got the same pid: a pid is reused only after its process ended,
 * and the new process started after it; one of the session's started after the shell did.
 *
 * Two ways to find them:
 * - {@link OwnedProcesses.look}: the shell's descendants and those of processes found before
 *   (through `/proc/<pid>/task/<tid>/children`), at most MAX_LOOK_PROCESSES: a few reads per
 *   process of the session, whatever the machine runs; what a send's result uses.
 * - {@link OwnedProcesses.scan}: the processes of the machine carrying the mark, from the index
 *   every session shares (markIndex.ts: a process's `stat` and `environ` are read once, at the
 *   first scan after it started), then a look: finds what was reparented out of the shell's tree.
 *   Run when the session is listed or closed, not at every send.
 * `stat` and child lists are read on this thread in slices of at most PROC_SLICE_MS (each a few
 * µs of kernel time that waits on nothing), command lines and environments through the libuv
 * thread pool (reading them takes the process's memory map lock, which a forking process holds).
 * A process that clears its environment (`env -i`) and left the shell's tree is not found.
 * Plain Node, no `vscode` import.
 */
import { TimeSlice } from '../common/timeSlice';
import { mapLimited } from '../common/mapLimited';
import { markIndex, PROC_SLICE_MS, type MarkIndex } from './markIndex';
import { commandLineAsync } from './commandLine';
import { childPids } from './procProbe';
import { readStat, type ProcStat } from './stat';

/** A process of the session, as found. */
export interface OwnedProcess {
  pid: number;
  /** `/proc/<pid>/stat` field 22, clock ticks after boot. */
  startTime: number;
  /** Process group and session id now: one different from the shell's left the session's groups. */
  pgrp: number;
  session: number;
  /** Command line, at most 200 characters; `comm` while it has none (`/proc/<pid>/cmdline` empty or unreadable). */
  command: string;
}

/** What a look or scan found. */
export interface OwnedLook {
  processes: OwnedProcess[];
  /** False when it stopped at its bound (MAX_LOOK_PROCESSES, or SCAN_MAX_MS for a scan). */
  complete: boolean;
}

/** Processes one {@link OwnedProcesses.look} reads, at most. */
export const MAX_LOOK_PROCESSES = 256;
/** Longest a {@link OwnedProcesses.scan} reads before it stops and says it is not complete (ms). */
export const SCAN_MAX_MS = 2000;
/** Command lines read at once through the thread pool. */
const COMMAND_CONCURRENCY = 8;
/** Threads of one process whose child lists a look reads, at most. */
const MAX_THREADS_READ = 64;
/** Processes the session keeps as known between looks, at most (the newest found are kept). */
const MAX_KNOWN = 4096;

/** The processes of one session (see the module comment). */
export class OwnedProcesses {
  /** Processes found before (pid → start time), looked at again while they are the same process. */
  private readonly known = new Map<number, number>();
  /**
   * Command lines by `pid:startTime:comm`, read once per program a process runs: a program may
   * rewrite its own later (the first seen is shown), and each read costs a few round trips through
   * the thread pool. An empty or unreadable one is not kept: exec(2) gives the process its new
   * `comm` before the new program's arguments are in place, and a read in between finds none.
   */
  private readonly commands = new Map<string, string>();
  /** The index of every process by its mark (shared by every session), and this session's value in it. */
  private readonly index: MarkIndex;
  private readonly value: string;

  /**
   * @param shellPid the process every descendant of which is the session's (node-pty's child).
   * @param shellStart its start time; nothing started before it is ever taken for the session's.
   * @param mark the `NAME=value` entry of the session's environment (sessionEnv.ts SESSION_MARK_VARIABLE).
   * @param excluded pids never taken (this process: the extension host).
   */
  constructor(
    readonly shellPid: number,
    readonly shellStart: number,
    readonly mark: string,
    private readonly excluded: ReadonlySet<number> = new Set([process.pid]),
  ) {
    const equals = mark.indexOf('=');
    this.index = markIndex(mark.slice(0, equals));
    this.value = mark.slice(equals + 1);
  }

  /**
   * The shell and its descendants, and the processes found before (by a look or a scan) that are
   * still the same, with theirs: breadth first, at most MAX_LOOK_PROCESSES. Zombies are left out
   * (they hold nothing and no signal ends them further).
   */
  async look(): Promise<OwnedLook> {
    const slice = new TimeSlice(PROC_SLICE_MS);
    const found = new Map<number, ProcStat>();
    const visited = new Set<number>(this.excluded);
    const queue: number[] = [this.shellPid, ...this.known.keys()];
    let complete = true;
    for (let i = 0; i < queue.length; i++) {
      const pid = queue[i]!;
      if (visited.has(pid)) continue;
      if (found.size >= MAX_LOOK_PROCESSES) {
        complete = false;
        break;
      }
      visited.add(pid);
      await slice.pause();
      const stat = readStat(pid);
      const expected = this.known.get(pid);
      if (!stat || stat.startTime < this.shellStart || (expected !== undefined && stat.startTime !== expected)) {
        this.known.delete(pid);
        continue;
      }
      if (stat.state !== 'Z') found.set(pid, stat);
      for (const child of childPids(pid, false, MAX_THREADS_READ)) queue.push(child);
    }
    const processes = await mapLimited([...found.values()], COMMAND_CONCURRENCY, (stat) => this.owned(stat));
    this.remember(processes);
    return { processes, complete };
  }

  /**
   * `stat`'s process as found; its command line read off this thread (see commandLineAsync) once
   * per program it runs, or `comm` while it has none (read again at the next look).
   */
  private async owned(stat: ProcStat): Promise<OwnedProcess> {
    // exec(2) keeps the pid and the start time and changes the name (`comm`): a fork of the shell that became the server is named anew.
    const key = `${stat.pid}:${stat.startTime}:${stat.comm}`;
    let command = this.commands.get(key);
    if (command === undefined) {
      command = await commandLineAsync(stat.pid);
      if (command) {
        this.commands.set(key, command);
        if (this.commands.size > MAX_KNOWN) this.commands.delete(this.commands.keys().next().value!);
      }
    }
    return { pid: stat.pid, startTime: stat.startTime, pgrp: stat.pgrp, session: stat.session, command: command || stat.comm };
  }

  /**
   * Every process on the machine carrying the session's mark and started no earlier than the
   * shell, plus what {@link look} finds: the shared index brought up to date first (markIndex.ts:
   * only what started since its previous refresh is read), for at most `maxMs` (default
   * SCAN_MAX_MS; `complete` false when it stopped there). Never rejects.
   */
  async scan(maxMs = SCAN_MAX_MS): Promise<OwnedLook> {
    const complete = await this.index.refresh(this.shellStart, maxMs);
    // A marked pid is one of ours only while its start time is the same: the look checks it.
    this.remember(this.index.carrying(this.value, this.shellStart).filter((p) => !this.excluded.has(p.pid)));
    const look = await this.look();
    return { processes: look.processes, complete: complete && look.complete };
  }

  /** Files the scans of every session read so far (the shared index's counts, see MarkIndex.reads). */
  get scanReads(): { readonly stat: number; readonly environ: number } {
    return this.index.reads;
  }

  private remember(processes: Iterable<{ pid: number; startTime: number }>): void {
    for (const p of processes) {
      this.known.delete(p.pid);
      this.known.set(p.pid, p.startTime);
    }
    for (const pid of this.known.keys()) {
      if (this.known.size <= MAX_KNOWN) break;
      this.known.delete(pid);
    }
  }
}

/** True while `p` is still the same process (same start time) and not a zombie. */
export function isSame(p: { pid: number; startTime: number }): boolean {
  const now = readStat(p.pid);
  return now !== undefined && now.startTime === p.startTime && now.state !== 'Z';
}

/**
 * Sends `signal` to `p` only while it is the same process (read right before the call, see
 * {@link isSame}); true when it was sent.
 */
export function signalIfSame(p: { pid: number; startTime: number }, signal: NodeJS.Signals): boolean {
  if (!isSame(p)) return false;
  try {
    process.kill(p.pid, signal);
    return true;
  } catch {
    return false;
  }
}
