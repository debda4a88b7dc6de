/**
 * Which processes have a terminal open (`/proc/<pid>/fd/<n>` linking to its `/dev/pts/N`), in any
 * session or process group: who could read what is typed into it. A process outside the
 * terminal's session can hold it (one started with `setsid` keeps the descriptors it inherited;
 * any process of the same user can open `/dev/pts/N` by its path), so every process is looked at.
 *
 * Reading every descriptor of every process takes tens to hundreds of ms (a readlink each, 2 700
 * on a machine with 200 processes), so the full scan runs in a worker thread within a time bound
 * (common/boundedWorker.ts) and is kept; {@link TtyHolders.now} then reads, on the calling thread,
 * only the descriptors of processes started since the scan (a readdir of /proc and a few reads),
 * bounded by MAX_NEW_PROCESSES. A process that was scanned and opens the terminal by its path
 * later is seen at the next full scan: one older than BACKGROUND_SCAN_AGE_MS is renewed in the
 * background at a send, one older than FULL_SCAN_MAX_AGE_MS (or missing too many new processes)
 * before the send is written. Linux only; elsewhere nothing is found and `complete` is false.
 * Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';
import { BoundedWorkers } from '../common/boundedWorker';
import { readStat } from './stat';

/** How long a full scan may run in its worker (ms); past it the scan is cut and not complete. */
const FULL_SCAN_BOUND_MS = 2000;
/** Most descriptors one full scan reads. */
const FULL_SCAN_MAX_FDS = 200_000;
/** A full scan older than this is done again before it is used (ms). */
export const FULL_SCAN_MAX_AGE_MS = 5000;
/** Processes started since the full scan whose descriptors `now` reads on the calling thread, at most. */
const MAX_NEW_PROCESSES = 128;
/** A kept full scan older than this is renewed in the background at the next send (ms). */
const BACKGROUND_SCAN_AGE_MS = 1000;

/** What one look found. */
export interface HolderLook {
  /** Pids with the terminal open. */
  pids: number[];
  /** False when some process could not be looked at (the scan was cut, too many new processes, no /proc). */
  complete: boolean;
}

/**
 * The worker's program: `run({tty, ttyNr, maxFds})` posts `{pids, seen, complete}`. A descriptor
 * of `/dev/tty` is the process's controlling terminal: it counts when that is `ttyNr` (stat field 7).
 */
const WORKER_SOURCE = `
const fs = require('node:fs');
const controls = (pid, ttyNr) => {
  try {
    const stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[4]) === ttyNr;
  } catch { return false; }
};
function run({ tty, ttyNr, maxFds }, post) {
  const pids = [];
  const seen = [];
  let complete = true;
  let fds = 0;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(name)) continue;
    seen.push(Number(name));
    let entries;
    try { entries = fs.readdirSync('/proc/' + name + '/fd'); } catch { continue; }
    for (const fd of entries) {
      if (++fds > maxFds) { complete = false; break; }
      let target;
      try { target = fs.readlinkSync('/proc/' + name + '/fd/' + fd); } catch { continue; }
      if (target === tty || (target === '/dev/tty' && controls(name, ttyNr))) { pids.push(Number(name)); break; }
    }
    if (!complete) break;
  }
  post({ pids, seen, complete });
}
`;

const workers = new BoundedWorkers(WORKER_SOURCE, 1);

/**
 * Whether process `pid` has `tty` open, or `/dev/tty` while `ttyNr` is its controlling terminal;
 * undefined when its descriptors cannot be read.
 */
function holds(pid: number, tty: string, ttyNr: number | undefined): boolean | undefined {
  let entries: string[];
  try {
    entries = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return undefined;
  }
  for (const fd of entries) {
    try {
      const target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target === tty || (target === '/dev/tty' && ttyNr !== undefined && readStat(pid)?.ttyNr === ttyNr)) return true;
    } catch {
      // closed meanwhile
    }
  }
  return false;
}

/** The holders of one terminal, kept between looks (see the module comment). */
export class TtyHolders {
  private scan: { at: number; pids: number[]; seen: Set<number>; complete: boolean } | undefined;
  private running: Promise<void> | undefined;

  /**
   * @param tty the terminal's path (`/dev/pts/N`), read at each scan; '' when unknown (nothing is scanned)
   * @param ttyNr its device number as `/proc/<pid>/stat` field 7 shows a controlling terminal, if known
   */
  constructor(
    private readonly tty: () => string,
    private readonly ttyNr: () => number | undefined,
  ) {}

  /** Starts a full scan in the worker unless one runs; resolves when it is done (never rejects). */
  refresh(): Promise<void> {
    const tty = this.tty();
    if (process.platform !== 'linux' || !tty) return Promise.resolve();
    this.running ??= workers
      .run<{ pids: number[]; seen: number[]; complete: boolean }, { pids: number[]; seen: number[]; complete: boolean }>(
        { tty, ttyNr: this.ttyNr() ?? -1, maxFds: FULL_SCAN_MAX_FDS },
        [],
        (reply) => ({ done: reply }),
        FULL_SCAN_BOUND_MS,
        () => ({ pids: [], seen: [], complete: false }),
      )
      .then(
        (r) => void (this.scan = { at: Date.now(), pids: r.pids, seen: new Set(r.seen), complete: r.complete }),
        () => void (this.scan = { at: Date.now(), pids: [], seen: new Set(), complete: false }),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Resolves once a full scan is kept that is no older than FULL_SCAN_MAX_AGE_MS and that misses
   * fewer than MAX_NEW_PROCESSES processes started since (a readdir of /proc counts them), so that
   * {@link now} reads few. A kept scan older than BACKGROUND_SCAN_AGE_MS is renewed in the
   * background, without waiting for it.
   */
  async fresh(): Promise<void> {
    const scan = this.scan;
    if (!scan || Date.now() - scan.at > FULL_SCAN_MAX_AGE_MS || this.newSince(scan.seen) >= MAX_NEW_PROCESSES) await this.refresh();
    else if (Date.now() - scan.at > BACKGROUND_SCAN_AGE_MS) void this.refresh();
  }

  /** Processes now that `seen` does not hold. */
  private newSince(seen: ReadonlySet<number>): number {
    let fresh = 0;
    try {
      for (const name of fs.readdirSync('/proc')) if (/^\d+$/.test(name) && !seen.has(Number(name))) fresh++;
    } catch {
      // no /proc: nothing to count
    }
    return fresh;
  }

  /**
   * The holders now: those of the kept scan still holding it, and those of the processes started
   * since it (see the module comment). Synchronous and bounded.
   */
  now(): HolderLook {
    const tty = this.tty();
    const scan = this.scan;
    if (process.platform !== 'linux' || !tty || !scan) return { pids: [], complete: false };
    let complete = scan.complete;
    const ttyNr = this.ttyNr();
    const pids = scan.pids.filter((pid) => holds(pid, tty, ttyNr) === true);
    let fresh = 0;
    let names: string[];
    try {
      names = fs.readdirSync('/proc');
    } catch {
      return { pids, complete: false };
    }
    for (const name of names) {
      if (!/^\d+$/.test(name) || scan.seen.has(Number(name))) continue;
      if (++fresh > MAX_NEW_PROCESSES) {
        complete = false;
        break;
      }
      if (holds(Number(name), tty, ttyNr) === true) pids.push(Number(name));
    }
    return { pids, complete };
  }
}
