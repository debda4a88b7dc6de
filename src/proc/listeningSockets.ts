/**
 * Which TCP and UDP sockets a set of processes listen on, read from /proc (Linux): each process's
 * descriptors (`/proc/<pid>/fd/N` links `socket:[inode]`), then the socket tables of its network
 * namespace (`/proc/<pid>/net/tcp`, `tcp6`, `udp`, `udp6`, read through that process, so a session
 * in a network namespace of its own, as in the agent sandbox, is read in its own). Only the given
 * processes' descriptors are read, never every process's, on the calling thread in slices of at
 * most PROC_SLICE_MS (a descriptor's link is a few µs of kernel time and waits on nothing; through
 * the thread pool each cost a round trip several times that, and a look's wall time grew with the
 * machine's load). The socket tables, tens of ms of kernel time on a machine with thousands of
 * sockets, are read through the libuv thread pool, only for sockets not looked up before; the
 * calling thread parses only the lines that name those sockets (netTables.ts). Plain Node, no
 * `vscode` import.
 */
import * as fs from 'node:fs';
import { TimeSlice } from '../common/timeSlice';
import { PROC_SLICE_MS } from './markIndex';
import { commandLineAsync } from './commandLine';
import { NET_TABLES, listeningIn, type BoundSocket } from './netTables';
import { safeReaddir } from './sessions';
import { readStat } from './stat';

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
  /** Its command line when the caller has it (else it is read for a process that listens). */
  command?: string;
}

/** What one look found. */
export interface SocketLook {
  sockets: ListeningSocket[];
  /** False when the look stopped at MAX_FDS_PER_LOOK descriptors: sockets may be missing. */
  complete: boolean;
}

/** Descriptors one look reads the link of, at most (a program chooses how many it opens). */
export const MAX_FDS_PER_LOOK = 4096;
/** Descriptor links read between two checks of the time slice. */
const LINKS_PER_PAUSE = 64;
/** Bytes read from a socket table at a time. */
const CHUNK_BYTES = 64 * 1024;
/**
 * A socket looked for in the tables and not found listening is looked for again this long after
 * the previous look (ms; the n-th re-check waits the n-th step, later ones the last): a TCP socket
 * is in no table between bind(2) and listen(2), and a look can fall in between.
 */
const RECHECK_AFTER_MS = [250, 1000, 4000, 16_000, 60_000];
/** Socket inodes remembered, at most (the oldest forgotten first: looked up again if still held). */
const MAX_REMEMBERED = 65_536;

/** What the tables said of one socket inode. */
interface SocketState {
  /** The listening socket, or undefined while it was not found listening. */
  bound?: BoundSocket;
  /** When it was last looked for (ms since the epoch), and how many re-checks were made. */
  at: number;
  rechecks: number;
}

/**
 * Reads the listening sockets of processes. The socket tables of a busy machine are long (10 000
 * sockets are about 1.5 MB of text, tens of ms of kernel time to print), so they are read only for
 * sockets not looked up before, and only as far as needed: of `tcp` and `tcp6` only the LISTEN
 * sockets, which the kernel prints first (its listening hash before its established one,
 * net/ipv4/tcp_ipv4.c `tcp_seq_next`), of `udp` and `udp6` everything. A socket found listening
 * is taken to stay so while a process holds it (a listening TCP socket never connects; a UDP socket
 * that connect(2)s after it was found is still shown). One not found (a Unix socket, a connected
 * one, or a TCP socket between bind(2) and listen(2)) is looked for again after RECHECK_AFTER_MS,
 * in the background, unless the caller waits for a port (`fresh`: then every RECHECK_AFTER_MS[0] ms,
 * awaited).
 */
export class ListeningSocketReader {
  private readonly known = new Map<number, SocketState>();
  private rechecking: Promise<void> | undefined;

  /**
   * The listening sockets of `processes` (each still the same process: a pid whose start time
   * changed is skipped), sorted by port, then protocol and address.
   * @param fresh re-check sockets not found listening every RECHECK_AFTER_MS[0] ms and wait for it,
   *   instead of backing off and re-checking in the background (a wait for a port).
   */
  async look(processes: readonly ProcessRef[], fresh = false): Promise<SocketLook> {
    const slice = new TimeSlice(PROC_SLICE_MS);
    let budget = MAX_FDS_PER_LOOK;
    let complete = true;
    /** Per network namespace: a pid to read its tables through, and inode → holders. */
    const spaces = new Map<string, { via: number; holders: Map<number, number[]> }>();
    for (const p of processes) {
      await slice.pause();
      const names = safeReaddir(`/proc/${p.pid}/fd`);
      if (names.length > budget) complete = false;
      const mine = names.slice(0, budget);
      budget = Math.max(0, budget - names.length);
      const inodes: number[] = [];
      for (let i = 0; i < mine.length; i++) {
        if (i % LINKS_PER_PAUSE === LINKS_PER_PAUSE - 1) await slice.pause();
        const link = readlink(`/proc/${p.pid}/fd/${mine[i]}`);
        if (link?.startsWith('socket:[')) inodes.push(Number(link.slice(8, -1)));
      }
      if (inodes.length === 0) continue;
      const space = readlink(`/proc/${p.pid}/ns/net`);
      // Read after the links: a pid reused meanwhile has another start time.
      if (!space || readStat(p.pid)?.startTime !== p.startTime) continue;
      let entry = spaces.get(space);
      if (!entry) spaces.set(space, (entry = { via: p.pid, holders: new Map() }));
      for (const inode of inodes) {
        const holders = entry.holders.get(inode);
        if (holders) holders.push(p.pid);
        else entry.holders.set(inode, [p.pid]);
      }
    }
    const now = Date.now();
    const unseen: { via: number; inodes: number[] }[] = [];
    const due: { via: number; inodes: number[] }[] = [];
    for (const { via, holders } of spaces.values()) {
      const inodes = [...holders.keys()];
      const notSeen = inodes.filter((i) => !this.known.has(i));
      const recheck = inodes.filter((i) => {
        const state = this.known.get(i);
        // A wait for a port re-checks at the first step's pace: it must see the port as it opens.
        const after = fresh ? RECHECK_AFTER_MS[0]! : RECHECK_AFTER_MS[Math.min(state?.rechecks ?? 0, RECHECK_AFTER_MS.length - 1)]!;
        return state !== undefined && state.bound === undefined && now - state.at >= after;
      });
      if (notSeen.length > 0) unseen.push({ via, inodes: notSeen });
      if (recheck.length > 0) due.push({ via, inodes: recheck });
    }
    // Not looked up before: read now, so the answer has them.
    for (const { via, inodes } of unseen) await this.lookUp(via, inodes, false);
    if (due.length > 0) {
      const recheck = async () => {
        for (const { via, inodes } of due) await this.lookUp(via, inodes, true);
      };
      this.rechecking ??= recheck().finally(() => (this.rechecking = undefined));
      if (fresh) await this.rechecking;
    }
    const sockets: ListeningSocket[] = [];
    for (const { holders } of spaces.values()) {
      for (const [inode, pids] of holders) {
        const bound = this.known.get(inode)?.bound;
        if (!bound) continue;
        const pid = Math.min(...pids);
        const command = processes.find((p) => p.pid === pid)?.command ?? (await commandLineAsync(pid));
        sockets.push({ protocol: bound.protocol, address: bound.address, port: bound.port, pid, command });
      }
    }
    sockets.sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol) || a.address.localeCompare(b.address));
    return { sockets, complete };
  }

  /** Looks `inodes` up in the tables of the network namespace of process `via` and records what was found (`recheck`: a re-check of ones not found before). */
  private async lookUp(via: number, inodes: readonly number[], recheck: boolean): Promise<void> {
    const wanted = new Set(inodes);
    const texts = await Promise.all(NET_TABLES.map((table) => readTable(`/proc/${via}/net/${table.file}`, table.protocol === 'tcp')));
    const found = new Map<number, BoundSocket>();
    NET_TABLES.forEach((table, i) => {
      for (const socket of listeningIn(texts[i] ?? '', table, wanted)) found.set(socket.inode, socket);
    });
    const now = Date.now();
    for (const inode of inodes) {
      const before = this.known.get(inode);
      this.known.delete(inode);
      const bound = found.get(inode);
      this.known.set(inode, { ...(bound ? { bound } : {}), at: now, rechecks: recheck ? (before?.rechecks ?? 0) + 1 : 0 });
    }
    for (const key of this.known.keys()) {
      if (this.known.size <= MAX_REMEMBERED) break;
      this.known.delete(key);
    }
  }
}

/**
 * The text of socket table `path`, read CHUNK_BYTES at a time through the thread pool; with
 * `listenOnly` (tcp, tcp6) only up to the first socket not in state LISTEN (the kernel prints its
 * listening sockets first). Undefined when it cannot be read.
 */
async function readTable(path: string, listenOnly: boolean): Promise<string | undefined> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let text = '';
    /** Where the next line to judge starts. */
    let judged = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) return text;
      text += buffer.toString('latin1', 0, bytesRead);
      if (!listenOnly) continue;
      for (let end = text.indexOf('\n', judged); end !== -1; end = text.indexOf('\n', judged)) {
        // The header's fourth field is `st`; a data line's is its state in hex.
        const state = text.slice(judged, end).trim().split(/\s+/, 4)[3];
        if (state !== undefined && state !== 'st' && state !== '0A') return text.slice(0, judged);
        judged = end + 1;
      }
    }
  } catch {
    return undefined;
  } finally {
    await handle.close();
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

function readlink(path: string): string | undefined {
  try {
    return fs.readlinkSync(path);
  } catch {
    return undefined;
  }
}
