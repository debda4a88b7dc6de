/**
 * Which TCP and UDP sockets a set of processes listen on, read from /proc (Linux): each process's
 * descriptors (`/proc/<pid>/fd/N` links `socket:[inode]`), then the socket tables of its network
 * namespace (`/proc/<pid>/net/tcp`, `tcp6`, `udp`, `udp6`, read through that process, so a session
 * in a network namespace of its own, as in the agent sandbox, is read in its own). Only the given
 * processes' descriptors are read, never every process's; every read goes through the libuv thread
 * pool, so the calling thread (the extension host's) runs only callbacks and the parsing of the
 * lines that name those processes' sockets (netTables.ts). Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';
import { commandLine } from './procProbe';
import { NET_TABLES, listeningIn, type BoundSocket } from './netTables';
import { readStatAsync } from './stat';

/** A socket a process listens on (see netTables.ts for what counts), with the process. */
export interface ListeningSocket {
  protocol: 'tcp' | 'udp';
  /** Local address: `0.0.0.0` / `::` for every address, `127.0.0.1` / `::1` for this machine only. */
  address: string;
  port: number;
  /** A process holding it (the lowest pid when several share it, as a forking server's workers do). */
  pid: number;
  /** That process's command line (at most 200 characters). */
  command: string;
}

/** A process to look at: its pid and its start time (`/proc/<pid>/stat` field 22), which must still match. */
export interface ProcessRef {
  pid: number;
  startTime: number;
}

/** What one look found. */
export interface SocketLook {
  sockets: ListeningSocket[];
  /** False when the look stopped at MAX_FDS_PER_LOOK descriptors: sockets may be missing. */
  complete: boolean;
}

/** Descriptors one look reads the link of, at most (a program chooses how many it opens). */
export const MAX_FDS_PER_LOOK = 4096;
/** Links read at once through the thread pool. */
const CONCURRENCY = 8;
/** How long a namespace's socket tables are reused while its processes hold no socket new to them (ms). */
const TABLES_TTL_MS = 1000;

/** What the tables of one network namespace said, at one read. */
interface TablesRead {
  at: number;
  /** Every socket inode looked for then. */
  asked: Set<number>;
  found: Map<number, BoundSocket>;
}

/**
 * Reads the listening sockets of processes, reusing a namespace's tables while its processes hold
 * no socket that was not looked for at the last read and that read is younger than TABLES_TTL_MS:
 * a send's result costs the descriptors' links, not 10 000 sockets' worth of tables. A socket
 * that starts listening (listen(2)) after its inode was seen is found within TABLES_TTL_MS.
 */
export class ListeningSocketReader {
  private readonly tables = new Map<string, TablesRead>();

  /**
   * The listening sockets of `processes` (each still the same process: a pid whose start time
   * changed is skipped), sorted by port then protocol.
   */
  async look(processes: readonly ProcessRef[]): Promise<SocketLook> {
    let budget = MAX_FDS_PER_LOOK;
    let complete = true;
    /** Per namespace: a pid to read its tables through, and inode → holders. */
    const spaces = new Map<string, { via: number; holders: Map<number, number[]> }>();
    for (const p of processes) {
      const names = await readdir(`/proc/${p.pid}/fd`);
      if (names.length > budget) complete = false;
      const links = await mapLimited(names.slice(0, budget), (fd) => readlink(`/proc/${p.pid}/fd/${fd}`));
      budget = Math.max(0, budget - names.length);
      const inodes = links.flatMap((link) => (link?.startsWith('socket:[') ? [Number(link.slice(8, -1))] : []));
      if (inodes.length === 0) continue;
      const [space, stat] = await Promise.all([readlink(`/proc/${p.pid}/ns/net`), readStatAsync(p.pid)]);
      if (!space || stat?.startTime !== p.startTime) continue;
      let entry = spaces.get(space);
      if (!entry) spaces.set(space, (entry = { via: p.pid, holders: new Map() }));
      for (const inode of inodes) {
        const holders = entry.holders.get(inode);
        if (holders) holders.push(p.pid);
        else entry.holders.set(inode, [p.pid]);
      }
    }
    const sockets: ListeningSocket[] = [];
    for (const [space, { via, holders }] of spaces) {
      const found = await this.tablesOf(space, via, new Set(holders.keys()));
      for (const [inode, bound] of found) {
        const pids = holders.get(inode);
        if (!pids) continue;
        const pid = Math.min(...pids);
        sockets.push({ protocol: bound.protocol, address: bound.address, port: bound.port, pid, command: commandLine(pid) });
      }
    }
    sockets.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol) || a.address.localeCompare(b.address));
    return { sockets, complete };
  }

  /** The listening sockets among `inodes` in namespace `space`, read through process `via` (or the last read's, see the class comment). */
  private async tablesOf(space: string, via: number, inodes: Set<number>): Promise<Map<number, BoundSocket>> {
    const last = this.tables.get(space);
    if (last && Date.now() - last.at < TABLES_TTL_MS && [...inodes].every((i) => last.asked.has(i))) return last.found;
    const found = new Map<number, BoundSocket>();
    const texts = await Promise.all(NET_TABLES.map((table) => readText(`/proc/${via}/net/${table.file}`)));
    NET_TABLES.forEach((table, i) => {
      for (const socket of listeningIn(texts[i] ?? '', table, inodes)) found.set(socket.inode, socket);
    });
    this.tables.set(space, { at: Date.now(), asked: inodes, found });
    // Namespaces no longer seen are forgotten with the next read of another.
    for (const key of this.tables.keys()) if (Date.now() - this.tables.get(key)!.at > 10 * TABLES_TTL_MS) this.tables.delete(key);
    return found;
  }
}

/** True where listening sockets can be read (Linux with /proc mounted). */
export function socketsAvailable(): boolean {
  try {
    fs.accessSync('/proc/self/net/tcp', fs.constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** A listening socket as one line of text: `tcp 127.0.0.1:5173 (pid 12, node vite)`; IPv6 addresses in brackets. */
export function describeSocket(s: ListeningSocket): string {
  const host = s.address.includes(':') ? `[${s.address}]` : s.address;
  return `${s.protocol} ${host}:${s.port} (pid ${s.pid}, ${s.command})`;
}

async function readdir(path: string): Promise<string[]> {
  try {
    return await fs.promises.readdir(path);
  } catch {
    return [];
  }
}

async function readlink(path: string): Promise<string | undefined> {
  try {
    return await fs.promises.readlink(path);
  } catch {
    return undefined;
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(path, 'latin1');
  } catch {
    return undefined;
  }
}

/** `fn` over `items`, at most CONCURRENCY at a time, results in order. */
async function mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
  return results;
}
