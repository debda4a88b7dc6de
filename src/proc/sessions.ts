/**
 * The processes of one session, read from /proc on Linux (proc(5): every `/proc/<pid>/stat`).
 * Shared by the terminal (session teardown, process tree) and the language-server watchdog.
 * Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';
import { readStat, readStatAsync } from './stat';
import type { ProcStat } from './stat';
import { mapLimited } from '../common/mapLimited';

/** True on Linux with a readable /proc (`/proc/self/stat`): {@link sessionProcesses} can list a session there. */
export function procAvailable(): boolean {
  return process.platform === 'linux' && fs.existsSync('/proc/self/stat');
}

/**
 * Every process of the session whose leader had pid `sid`: all process groups of one PTY session,
 * including jobs that ignore SIGHUP and outlived the shell.
 *
 * With `leaderStart` (the leader's `startTime`), only that session counts. A session id stays
 * reserved while any process carries it (the kernel frees a pid only when no process uses it as
 * pid, process group or session id), so: a live process with pid `sid` and another start time means
 * the number was reused after our session ended, and nothing returned is ours; otherwise every
 * member with that session id (started no earlier than the leader) is ours.
 */
export function sessionProcesses(sid: number, leaderStart?: number): ProcStat[] {
  if (leaderStart !== undefined) {
    const leader = readStat(sid);
    if (leader && leader.startTime !== leaderStart) return [];
  }
  const result: ProcStat[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat && stat.session === sid && (leaderStart === undefined || stat.startTime >= leaderStart)) result.push(stat);
  }
  return result;
}

/** Reads of `/proc/<pid>/stat` a {@link scanSessionProcesses} keeps in flight at once. */
const SCAN_CONCURRENCY = 8;

/**
 * {@link sessionProcesses} without holding the calling thread: /proc is listed and every `stat`
 * read through the libuv thread pool, at most SCAN_CONCURRENCY reads at a time, so this thread
 * runs only their callbacks, and other work between them. A machine has as many processes as
 * its programs start (a program in a session can start thousands): read in one go, they held the
 * extension host thread for hundreds of ms. Resolves the same list {@link sessionProcesses}
 * returns (empty without /proc); never rejects.
 */
export async function scanSessionProcesses(sid: number, leaderStart?: number): Promise<ProcStat[]> {
  if (leaderStart !== undefined) {
    const leader = await readStatAsync(sid);
    if (leader && leader.startTime !== leaderStart) return [];
  }
  let names: string[];
  try {
    names = (await fs.promises.readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const stats = await mapLimited(names, SCAN_CONCURRENCY, (name) => readStatAsync(Number(name)));
  const result = stats.filter(
    (stat): stat is ProcStat => stat !== undefined && stat.session === sid && (leaderStart === undefined || stat.startTime >= leaderStart),
  );
  return result.sort((a, b) => a.pid - b.pid);
}

/** Members of a group {@link groupStillHeld} reads, at most. */
const MEMBERS_CHECKED = 16;

/**
 * `member` (a process a scan found in process group `pgrp`) read again now: its stat while it is
 * still the same process (same start time) in that group and session, else undefined.
 */
export function stillMember(member: ProcStat, pgrp: number): ProcStat | undefined {
  const now = readStat(member.pid);
  return now !== undefined && now.startTime === member.startTime && now.pgrp === pgrp && now.session === member.session ? now : undefined;
}

/**
 * True when one of `members` (processes a scan found in process group `pgrp`, at most the first
 * MEMBERS_CHECKED read) is still the same process in that group and session: the group id then
 * cannot name a stranger's group (a number is free for reuse only once no process has it as its
 * pid or group). For a signal after a scan off this thread, which takes up to hundreds of ms
 * during which a group may end: read on this thread, right before the signal.
 */
export function groupStillHeld(pgrp: number, members: readonly ProcStat[]): boolean {
  return members.slice(0, MEMBERS_CHECKED).some((member) => stillMember(member, pgrp) !== undefined);
}

/** The names in folder `path`, or none when it cannot be read (gone, not a folder, no permission). */
export function safeReaddir(path: string): string[] {
  try {
    return fs.readdirSync(path);
  } catch {
    return [];
  }
}
