/**
 * Every process a terminal session started, also after it left the session's process groups
 * (`setsid`, `nohup … & disown`, a double fork): the session's shell gets a mark in its environment
 * (`DSH_SESSION=<random id>`, sessionEnv.ts) that every process it starts inherits through fork and
 * exec, and a process is the session's when it carries that mark and started no earlier than the
 * shell (`/proc/<pid>/stat` field 22), or descends from the shell. The start time is what tells a
 * process from a later one that got the same pid: a pid is reused only after its process ended,
 * and the new process started after it; one of the session's started after the shell did.
 *
 * Two ways to find them, both through the libuv thread pool so the calling thread (the extension
 * host's) only runs callbacks:
 * - {@link OwnedProcesses.look}: the shell's descendants and those of processes found before
 *   (through `/proc/<pid>/task/<tid>/children`), at most MAX_LOOK_PROCESSES: a few reads per
 *   process of the session, whatever the machine runs; what a send's result uses.
 * - {@link OwnedProcesses.scan}: every process's `stat`, and the `environ` of those started after
 *   the shell, at most SCAN_MAX_MS: finds what was reparented out of the shell's tree. Run when the
 *   session is listed or closed, not at every send.
 * A process that clears its environment (`env -i`) and left the shell's tree is not found.
 * Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';
import { commandLineAsync } from './procProbe';
import { readStat, readStatAsync, type ProcStat } from './stat';

/** A process of the session, as found. */
export interface OwnedProcess {
  pid: number;
  /** `/proc/<pid>/stat` field 22, clock ticks after boot. */
  startTime: number;
  /** Process group and session id now: one different from the shell's left the session's groups. */
  pgrp: number;
  session: number;
  /** Command line, at most 200 characters. */
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
/** Processes a scan reads at once through the thread pool. */
const SCAN_CONCURRENCY = 8;
/** Processes the session keeps as known between looks, at most (the newest found are kept). */
const MAX_KNOWN = 4096;

/** The processes of one session (see the module comment). */
export class OwnedProcesses {
  /** Processes found before (pid → start time), looked at again while they are the same process. */
  private readonly known = new Map<number, number>();
  /**
   * Command lines by `pid:startTime:comm`, read once per program a process runs: a program may
   * rewrite its own later (the first seen is shown), and each read costs a few round trips through
   * the thread pool.
   */
  private readonly commands = new Map<string, string>();
  /** `\0NAME=value\0`, searched in a `\0` + environ text. */
  private readonly needle: string;
  /** Files a {@link scan} read so far: `/proc/<pid>/stat` and `/proc/<pid>/environ` files (counts, for its cost). */
  readonly scanReads = { stat: 0, environ: 0 };

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
    this.needle = `\0${mark}\0`;
  }

  /**
   * The shell and its descendants, and the processes found before (by a look or a scan) that are
   * still the same, with theirs: breadth first, at most MAX_LOOK_PROCESSES. Zombies are left out
   * (they hold nothing and no signal ends them further).
   */
  async look(): Promise<OwnedLook> {
    const found = new Map<number, OwnedProcess>();
    const visited = new Set<number>(this.excluded);
    let level: number[] = [this.shellPid, ...this.known.keys()];
    let complete = true;
    // A level of the tree at a time, its reads in flight together.
    while (level.length > 0) {
      const fresh = level.filter((pid) => !visited.has(pid));
      for (const pid of fresh) visited.add(pid);
      const room = MAX_LOOK_PROCESSES - found.size;
      if (fresh.length > room) complete = false;
      const results = await Promise.all(
        fresh.slice(0, room).map(async (pid) => {
          const stat = await readStatAsync(pid);
          const expected = this.known.get(pid);
          if (!stat || stat.startTime < this.shellStart || (expected !== undefined && stat.startTime !== expected)) {
            this.known.delete(pid);
            return [];
          }
          const [process, children] = await Promise.all([stat.state === 'Z' ? undefined : this.owned(stat), childrenOf(pid)]);
          if (process) found.set(pid, process);
          return children;
        }),
      );
      level = results.flat();
      if (found.size >= MAX_LOOK_PROCESSES && level.some((pid) => !visited.has(pid))) {
        complete = false;
        break;
      }
    }
    this.remember(found.values());
    return { processes: [...found.values()], complete };
  }

  /** `stat`'s process as found; its command line read off this thread (see commandLineAsync) once per process. */
  private async owned(stat: ProcStat): Promise<OwnedProcess> {
    // exec(2) keeps the pid and the start time and changes the name (`comm`): a fork of the shell that became the server is named anew.
    const key = `${stat.pid}:${stat.startTime}:${stat.comm}`;
    let command = this.commands.get(key);
    if (command === undefined) {
      command = await commandLineAsync(stat.pid, stat.comm);
      this.commands.set(key, command);
      if (this.commands.size > MAX_KNOWN) this.commands.delete(this.commands.keys().next().value!);
    }
    return { pid: stat.pid, startTime: stat.startTime, pgrp: stat.pgrp, session: stat.session, command };
  }

  /**
   * Every process on the machine carrying the session's mark and started no earlier than the
   * shell, plus what {@link look} finds: each `stat` read, the `environ` only of those started
   * since the shell (others' cannot be the session's), SCAN_CONCURRENCY at a time, stopped after
   * `maxMs` (default SCAN_MAX_MS; `complete` false). Never rejects.
   */
  async scan(maxMs = SCAN_MAX_MS): Promise<OwnedLook> {
    const deadline = Date.now() + maxMs;
    let names: string[];
    try {
      names = (await fs.promises.readdir('/proc')).filter((name) => /^\d+$/.test(name));
    } catch {
      names = [];
    }
    const marked: OwnedProcess[] = [];
    let next = 0;
    let complete = true;
    const reader = async () => {
      while (next < names.length) {
        if (Date.now() > deadline) {
          complete = false;
          return;
        }
        const pid = Number(names[next++]);
        if (this.excluded.has(pid)) continue;
        const stat = await readStatAsync(pid);
        this.scanReads.stat++;
        if (!stat || stat.state === 'Z' || stat.startTime < this.shellStart) continue;
        if (await this.carriesMark(pid)) marked.push(await this.owned(stat));
      }
    };
    await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, reader));
    // Checked again now: a pid found marked is one of ours only while its start time is the same.
    this.remember(marked.filter((p) => isSame(p)));
    const look = await this.look();
    return { processes: look.processes, complete: complete && look.complete };
  }

  /** True when process `pid`'s environment holds the session's mark (false when it cannot be read). */
  private async carriesMark(pid: number): Promise<boolean> {
    this.scanReads.environ++;
    try {
      return `\0${await fs.promises.readFile(`/proc/${pid}/environ`, 'latin1')}`.includes(this.needle);
    } catch {
      return false;
    }
  }

  private remember(processes: Iterable<OwnedProcess>): void {
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


/** The children of `pid`, from the child list of each of its threads (empty when gone or unreadable). */
async function childrenOf(pid: number): Promise<number[]> {
  let tids: string[];
  try {
    tids = await fs.promises.readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const lists = await Promise.all(
    tids.slice(0, 64).map((tid) =>
      fs.promises.readFile(`/proc/${pid}/task/${tid}/children`, 'latin1').then(
        (text) => text.split(' ').filter((s) => s !== '').map(Number),
        () => [] as number[],
      ),
    ),
  );
  return lists.flat();
}
