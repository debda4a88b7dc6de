/**
 * Every process of the machine by the values one environment variable has in it (the session
 * mark, `DSH_SESSION`), kept from one look to the next: a process is read once, by its pid and
 * start time (`/proc/<pid>/stat` field 22, which a reused pid does not share), and its
 * environment once (`/proc/<pid>/environ`: what it was started with; exec may replace it, a
 * process may overwrite it, and then the first reading stands). A refresh lists /proc and reads
 * the `stat` only of pids it has not seen or that the kernel may have given out again since the
 * previous refresh (pidAllocation.ts), and the environment only of processes read anew that
 * started no earlier than the caller's bound. So a look costs a listing of /proc plus the reads
 * of what started since the previous one, whatever else the machine runs.
 *
 * Where the reads run: `stat` on this thread in slices of at most PROC_SLICE_MS (a `stat` read is a
 * few µs of kernel time and waits on nothing: through the thread pool, its round trips cost ten
 * times the read); `environ` through the libuv thread pool, because reading another process's
 * memory takes its memory map's lock, which a process that forks or execs holds, and that wait
 * must not fall on this thread. Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';
import { TimeSlice } from '../common/timeSlice';
import { newSince, pidMark, pidMax, type PidMark } from './pidAllocation';
import { readStat } from './stat';

/** Synchronous /proc reading between two yields to the event loop (ms). */
export const PROC_SLICE_MS = 4;
/** Environments read at once through the thread pool. */
const ENVIRON_CONCURRENCY = 8;
/** Bytes read from an environment at a time. */
const ENVIRON_CHUNK_BYTES = 64 * 1024;

/** A process carrying a value, as the index last read it. */
export interface MarkedProcess {
  pid: number;
  /** `/proc/<pid>/stat` field 22, clock ticks after boot. */
  startTime: number;
}

/** What the index knows of one process. */
interface Entry {
  startTime: number;
  /** The variable's values in its environment (none: it has none); undefined until read. */
  values?: readonly string[];
}

/** The processes of the machine by one variable's values (see the module comment). */
export class MarkIndex {
  private readonly entries = new Map<number, Entry>();
  /** Value → pids whose environment holds it. */
  private readonly byValue = new Map<string, Set<number>>();
  /** The allocator's state at the last refresh that read every pid it had to. */
  private mark: PidMark | undefined;
  /** The refresh under way; refreshes run one after the other. */
  private running: Promise<unknown> = Promise.resolve();
  /** The earliest `since` of the refreshes waiting to run: the one that runs first reads for them all. */
  private waitingSince: number | undefined;
  /** `\0NAME=`, searched in `\0` + an environment's text. */
  private readonly needle: string;
  /** Files read so far: `/proc/<pid>/stat` and `/proc/<pid>/environ` (counts, for the cost). */
  readonly reads = { stat: 0, environ: 0 };

  /** @param variable the environment variable's name. */
  constructor(readonly variable: string) {
    this.needle = `\0${variable}=`;
  }

  /**
   * Brings the index up to date: lists /proc, forgets pids that are gone, reads the `stat` of new
   * and possibly reused pids and the environment of those read anew that started at `since` or
   * later (clock ticks after boot), until `maxMs` after the call. Resolves false when it stopped
   * at that bound (the next refresh reads the rest), true otherwise; never rejects. Calls run one
   * after the other.
   */
  refresh(since: number, maxMs: number): Promise<boolean> {
    const deadline = Date.now() + maxMs;
    this.waitingSince = Math.min(this.waitingSince ?? since, since);
    const run = this.running.then(() => this.refreshNow(since, deadline));
    this.running = run.catch(() => undefined);
    return run.catch(() => false);
  }

  /** The processes whose environment held `value` at the last refresh and that started at `since` or later. */
  carrying(value: string, since: number): MarkedProcess[] {
    const found: MarkedProcess[] = [];
    for (const pid of this.byValue.get(value) ?? []) {
      const entry = this.entries.get(pid);
      if (entry && entry.startTime >= since) found.push({ pid, startTime: entry.startTime });
    }
    return found;
  }

  private async refreshNow(callerSince: number, deadline: number): Promise<boolean> {
    // Refreshes run one after the other, each within its caller's deadline: the first to run reads
    // the environments every waiting caller needs, so a later one's spent deadline misses none.
    const since = Math.min(callerSince, this.waitingSince ?? callerSince);
    this.waitingSince = undefined;
    const slice = new TimeSlice(PROC_SLICE_MS);
    // Read before the listing: a pid given out after this reading is in the next refresh's range.
    const now = pidMark();
    let names: string[];
    try {
      names = await fs.promises.readdir('/proc');
    } catch {
      return false;
    }
    const mayBeNew = newSince(this.mark, now, pidMax());
    const present = new Set<number>();
    const toRead: number[] = [];
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue;
      const pid = Number(name);
      present.add(pid);
      if (!this.entries.has(pid) || mayBeNew(pid)) toRead.push(pid);
    }
    for (const pid of this.entries.keys()) if (!present.has(pid)) this.forget(pid);
    let complete = true;
    for (const pid of toRead) {
      await slice.pause();
      if (Date.now() > deadline) {
        complete = false;
        break;
      }
      const stat = readStat(pid);
      this.reads.stat++;
      if (stat?.startTime === this.entries.get(pid)?.startTime) continue;
      this.forget(pid);
      if (!stat) continue;
      // A kernel thread has no environment; a zombie no longer has one (it is read once reaped, never).
      const values = stat.kernelThread ? [] : undefined;
      this.entries.set(pid, { startTime: stat.startTime, ...(values && { values }) });
    }
    const unread = [...this.entries].filter(([, e]) => e.values === undefined && e.startTime >= since).map(([pid]) => pid);
    let next = 0;
    const reader = async (buffer: Buffer) => {
      while (next < unread.length) {
        if (Date.now() > deadline) {
          complete = false;
          return;
        }
        const pid = unread[next++]!;
        const entry = this.entries.get(pid);
        const read = await readEnviron(pid, buffer);
        this.reads.environ++;
        // The entry may have been forgotten or replaced by a later refresh's reads meanwhile: only this one is set.
        if (read === undefined || this.entries.get(pid) !== entry || !entry) continue;
        if (read === 'gone') this.forget(pid);
        else if (read === 'denied') this.setValues(pid, entry, []);
        else if (read.text !== '') this.setValues(pid, entry, this.valuesIn(read.text));
        // Empty: exec replacing its memory, or a zombie: read again at the next refresh.
      }
    };
    await Promise.all(Array.from({ length: ENVIRON_CONCURRENCY }, () => reader(Buffer.alloc(ENVIRON_CHUNK_BYTES))));
    if (complete) this.mark = now;
    return complete;
  }

  /** The values of the variable in an environment's text (`NAME=value` entries separated by NUL). */
  private valuesIn(text: string): string[] {
    const values: string[] = [];
    const all = `\0${text}`;
    for (let at = all.indexOf(this.needle); at !== -1; at = all.indexOf(this.needle, at + 1)) {
      const start = at + this.needle.length;
      const end = all.indexOf('\0', start);
      values.push(all.slice(start, end === -1 ? all.length : end));
    }
    return values;
  }

  private setValues(pid: number, entry: Entry, values: readonly string[]): void {
    entry.values = values;
    for (const value of values) {
      let pids = this.byValue.get(value);
      if (!pids) this.byValue.set(value, (pids = new Set()));
      pids.add(pid);
    }
  }

  private forget(pid: number): void {
    const entry = this.entries.get(pid);
    if (!entry) return;
    this.entries.delete(pid);
    for (const value of entry.values ?? []) {
      const pids = this.byValue.get(value);
      pids?.delete(pid);
      if (pids?.size === 0) this.byValue.delete(value);
    }
  }
}

/**
 * The text of `/proc/<pid>/environ` through the thread pool (latin1, `NAME=value` entries separated
 * by NUL): `{ text: '' }` when empty (a kernel thread, a zombie, a process in the middle of exec), `'gone'`
 * when the process is gone, `'denied'` for a process of another user (its environment cannot be
 * read, so it holds no value for us), undefined for any other error (read again later).
 */
async function readEnviron(pid: number, buffer: Buffer): Promise<{ text: string } | 'gone' | 'denied' | undefined> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(`/proc/${pid}/environ`, 'r');
    let text = '';
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      text += buffer.toString('latin1', 0, bytesRead);
      // The kernel copies all it has up to the size asked in one read: a short one is the end.
      if (bytesRead < buffer.length) return { text };
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') return 'gone';
    if (code === 'EACCES' || code === 'EPERM') return 'denied';
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** One index per variable name, shared by every caller in this process (see {@link markIndex}). */
const indexes = new Map<string, MarkIndex>();

/** The index of the processes of the machine by `variable`'s values, made on first use and shared. */
export function markIndex(variable: string): MarkIndex {
  let index = indexes.get(variable);
  if (!index) indexes.set(variable, (index = new MarkIndex(variable)));
  return index;
}
