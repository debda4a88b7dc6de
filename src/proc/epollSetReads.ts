/**
 * Epoll sets read off the extension host thread, for the /proc probe (procProbe.ts epollWatches).
 * The kernel formats a whole epoll set at any read of its `/proc/<pid>/fdinfo/<epfd>`, and a
 * program makes a set as large as it likes, so each set is read once per wait through libuv's
 * thread pool, kept by the wait it was read for, and judged at a later look.
 */
import * as fs from 'node:fs';

/** Bytes of an epoll set's fdinfo searched for our tty: about 55 000 watched descriptors. */
const EPOLL_INFO_MAX_BYTES = 4 * 1024 * 1024;
/** Bytes of an epoll set's fdinfo whose descriptors may be looked up (opened as /dev/tty): about 900. */
const EPOLL_LINKS_MAX_BYTES = 64 * 1024;
/** Epoll sets read (see procProbe.ts epollWatches) kept for later looks; the oldest is dropped past it. */
const EPOLL_SETS_KEPT = 64;
/** Reads of epoll sets in flight at once (each holds a thread of libuv's pool while the kernel formats it). */
const EPOLL_READS_IN_FLIGHT = 2;

/** What was read of an epoll set's fdinfo. */
export interface EpollSet {
  /** A watched descriptor's `ino:` and `sdev:` are our tty's slave. */
  watchesTty: boolean;
  /** Watched descriptors whose links may name /dev/tty (those in the first EPOLL_LINKS_MAX_BYTES). */
  others: number[];
  /** The set was larger than what was read, or than `others` holds. */
  cut: boolean;
}

/**
 * Epoll sets read off this thread, by the wait they were read for (pid, tid, voluntary context
 * switches, epoll descriptor): 'reading' while the read is in flight, null when unreadable.
 */
const epollSets = new Map<string, EpollSet | null | 'reading'>();
const epollReads = new Set<Promise<void>>();

/** What was read of the epoll set for wait `key` ({@link readEpollSet}): undefined when never read or dropped. */
export function epollSetRead(key: string): EpollSet | null | 'reading' | undefined {
  return epollSets.get(key);
}

/**
 * Starts reading the epoll set at `path` (fdinfo) for wait `key`, unless EPOLL_READS_IN_FLIGHT
 * are: `tty` is how its lines name our tty (see procProbe.ts WaitReads.ttyInEpoll), searched for natively.
 */
export function readEpollSet(key: string, path: string, tty: string | null): void {
  if (epollReads.size >= EPOLL_READS_IN_FLIGHT) return;
  epollSets.set(key, 'reading');
  const read = (async () => {
    let set: EpollSet | null = null;
    try {
      const handle = await fs.promises.open(path, 'r');
      try {
        const chunks: Buffer[] = [];
        let length = 0;
        for (let n = 1; n > 0 && length <= EPOLL_INFO_MAX_BYTES; length += n) {
          const chunk = Buffer.alloc(64 * 1024);
          n = (await handle.read(chunk, 0, chunk.length, null)).bytesRead;
          chunks.push(chunk.subarray(0, n));
        }
        const text = Buffer.concat(chunks);
        const lines = [...text.toString('latin1', 0, Math.min(text.length, EPOLL_LINKS_MAX_BYTES)).matchAll(/^tfd:\s*(\d+)/gm)];
        // A cut set's last line may be cut too.
        if (text.length > EPOLL_LINKS_MAX_BYTES) lines.pop();
        set = {
          watchesTty: tty !== null && text.indexOf(tty, 0, 'latin1') !== -1,
          others: lines.map((line) => Number(line[1])),
          cut: text.length > EPOLL_LINKS_MAX_BYTES,
        };
      } finally {
        await handle.close();
      }
    } catch {
      // gone or unreadable: not proof
    }
    epollSets.delete(key);
    epollSets.set(key, set);
    for (const old of epollSets.keys()) {
      if (epollSets.size <= EPOLL_SETS_KEPT) break;
      if (epollSets.get(old) !== 'reading') epollSets.delete(old);
    }
  })();
  epollReads.add(read);
  void read.finally(() => epollReads.delete(read));
}

/**
 * Resolves once the reads of epoll sets in flight are done, or after `ms` ms: a look then finds
 * answers for the epoll waits an earlier look could not judge. At once when none is in flight.
 */
export async function epollReadsSettled(ms: number): Promise<void> {
  if (epollReads.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(epollReads), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
