/**
 * Process-group teardown of a session: which process groups belong to it now, and ending every
 * process of it, and only those, when it closes.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as proc from '../../proc/procProbe';
import { readStat, readStatAsync, type ProcStat } from '../../proc/stat';
import { isSame, signalIfSame, type OwnedProcess, type OwnedProcesses } from '../../proc/ownedProcesses';
import type { CloseReport, SessionProcess } from '../types';
import { groupStillHeld, scanSessionProcesses } from '../../proc/sessions';
import type { StartupDir } from './sessionStartup';
import { waitUntil } from '../readiness/waitUntil';
import type { Log } from '../../common/log';

/** Time between SIGHUP and SIGKILL when a session closes (ms). */
const CLOSE_HANGUP_MS = 1000;
/** Longest a close looks for the session's processes that left its groups (ms): within the SIGHUP grace, so SIGTERM reaches them before SIGKILL. */
const CLOSE_SCAN_MS = 600;
/** Time after SIGKILL before close reports survivors (ms). */
const CLOSE_KILL_MS = 3000;
/** Longest a close can take: the SIGHUP grace plus the SIGKILL wait (ms). */
export const CLOSE_MAX_MS = CLOSE_HANGUP_MS + CLOSE_KILL_MS;

/** Most tmux sockets in a session's private `TMUX_TMPDIR` whose servers are stopped at its close. */
const MAX_TMUX_SOCKETS = 16;
/** Time one `tmux kill-server` is given (ms). */
const TMUX_KILL_MS = 2000;

/** What the teardown needs to know about its session, read when it needs it. */
export interface TeardownSubject {
  /** The shell's pid: its session id and its process group id. */
  shellPid: number;
  /** The shell's start time (/proc stat field 22), or undefined without /proc. */
  shellStart: number | undefined;
  /** The Linux /proc probe is in use (else ps(1) on the session's terminal). */
  probe: boolean;
  startup: StartupDir;
  /**
   * The shell runs in the agent sandbox. Its commands can write the session's private folder, and
   * no tmux server of theirs needs stopping from outside (see {@link SessionTeardown.run}).
   */
  sandboxed: boolean;
  log: Log;
  /** The session's terminal (`/dev/pts/N`), when known. */
  ptsPath(): string | undefined;
  /** The shell has exited. */
  exited(): boolean;
  /** The shell reached its first prompt (startup ran to the end). */
  opened(): boolean;
  /** SIGKILL to the shell through node-pty. */
  killShell(): void;
  /** The session's processes by its mark (undefined without /proc): a close ends those that left its groups too. */
  owned?: OwnedProcesses;
  /** A found process as the close report names it. */
  describe(p: OwnedProcess): SessionProcess;
}

/** Process groups a close checks and signals in one turn of the event loop (see groupStillHeld in proc/sessions.ts). */
const GROUPS_PER_TURN = 32;

/** Finds and ends the process groups of one session. */
export class SessionTeardown {
  /** Without /proc: every process seen on this session's terminal, to be signalled while still the same. */
  private readonly seenOnTty: proc.PsEntry[] = [];

  constructor(private readonly s: TeardownSubject) {}

  /**
   * Ends every process of the session, and only those: SIGHUP and SIGCONT to each of its process
   * groups, SIGKILL to what is left after CLOSE_HANGUP_MS, and an error when anything survives
   * CLOSE_KILL_MS more. Each round re-lists the groups with {@link ownGroups}, so a group id is
   * signalled only while it still belongs to the session. Then, for an open that failed during
   * startup, processes that escaped the session (a daemonized tmux server) are ended, any tmux
   * server in the private socket folder is stopped (not for a sandboxed session: its commands can
   * write that folder, and could point it at a server outside; a tmux server they started cannot
   * make its socket there (the sandbox refuses new Unix sockets) and ends with the sandbox's pid
   * namespace), and the session's folder is removed. Processes of the session that left its groups
   * (found by its mark, proc/ownedProcesses.ts, within CLOSE_SCAN_MS) get SIGTERM and SIGCONT as
   * they are found, and SIGKILL with the groups. With `keep` (outside the agent sandbox), see
   * {@link runKeeping}.
   * @returns what was ended (processes running at the start that are gone) and kept.
   * @throws Error naming the shell pid when processes survive SIGKILL.
   */
  async run(options: { keep?: boolean } = {}): Promise<CloseReport> {
    const owned = this.s.owned;
    const keepRefused =
      options.keep && this.s.sandboxed ? 'the session runs in the agent sandbox, whose processes all end with it' : undefined;
    if (options.keep && owned && !keepRefused) return this.runKeeping(owned);
    // Named before anything is signalled: what the close ended.
    const before = owned ? (await owned.look()).processes : [];
    // Processes that left the session's groups, found by its mark while the groups get SIGHUP.
    let escaped: OwnedProcess[] | undefined = owned ? undefined : [];
    const scanning = owned?.scan(CLOSE_SCAN_MS).then((look) => {
      escaped = look.processes.filter((p) => p.pid !== this.s.shellPid);
      for (const p of escaped) if (signalIfSame(p, 'SIGTERM')) signalIfSame(p, 'SIGCONT');
    });
    const signalAll = async (sig: NodeJS.Signals) => {
      let checked = 0;
      for (const [pgrp, members] of await this.ownGroups()) {
        // The checks of a large session are spread over turns of the event loop.
        if (members && ++checked % GROUPS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        if (members && !groupStillHeld(pgrp, members)) continue;
        try {
          process.kill(-pgrp, sig);
        } catch {
          // The group is already gone.
        }
      }
    };
    const quiet = async () => this.s.exited() && escaped !== undefined && !escaped.some(isSame) && (await this.ownGroups()).size === 0;
    const pollMs = this.s.probe ? 20 : 100;
    let survived = false;
    await signalAll('SIGHUP');
    await signalAll('SIGCONT');
    if (!(await waitUntil(quiet, CLOSE_HANGUP_MS, pollMs))) {
      await scanning;
      await signalAll('SIGKILL');
      for (const p of escaped ?? []) signalIfSame(p, 'SIGKILL');
      if (!this.s.exited()) {
        try {
          this.s.killShell();
        } catch {
          // Already dead.
        }
      }
      survived = !(await waitUntil(quiet, CLOSE_KILL_MS, pollMs));
    }
    if (!this.s.opened()) await this.endEscapedStartupProcesses();
    if (!this.s.sandboxed) await this.stopPrivateTmuxServers();
    await this.s.startup.remove();
    if (survived) throw new Error(`processes of session ${this.s.shellPid} survived SIGKILL`);
    const ended = new Map<number, OwnedProcess>();
    for (const p of [...before, ...(escaped ?? [])]) if (p.pid !== this.s.shellPid && !isSame(p)) ended.set(p.pid, p);
    return { ended: [...ended.values()].map((p) => this.s.describe(p)), kept: [], ...(keepRefused ? { keepRefused } : {}) };
  }

  /**
   * A close that keeps the session's background processes: SIGKILL to the shell (bash forwards a
   * SIGHUP it gets to every job; killed, it forwards nothing), SIGHUP and SIGCONT to its foreground
   * job when one runs, SIGKILL to what of it is left after CLOSE_HANGUP_MS; every other process of
   * the session (found by {@link OwnedProcesses.scan}) is left running and reported as kept. Once
   * the terminal is gone, what they write to it fails (EIO): a server kept should write elsewhere.
   */
  private async runKeeping(owned: OwnedProcesses): Promise<CloseReport> {
    const all = (await owned.scan(CLOSE_SCAN_MS)).processes;
    const tpgid = readStat(this.s.shellPid)?.tpgid;
    const foreground = tpgid !== undefined && tpgid > 0 && tpgid !== this.s.shellPid ? all.filter((p) => p.pgrp === tpgid) : [];
    try {
      this.s.killShell();
    } catch {
      // Already dead.
    }
    for (const p of foreground) if (signalIfSame(p, 'SIGHUP')) signalIfSame(p, 'SIGCONT');
    const quiet = () => this.s.exited() && !foreground.some(isSame);
    if (!(await waitUntil(quiet, CLOSE_HANGUP_MS, 20))) {
      for (const p of foreground) signalIfSame(p, 'SIGKILL');
      if (!(await waitUntil(quiet, CLOSE_KILL_MS, 20)))
        throw new Error(`the foreground job of session ${this.s.shellPid} survived SIGKILL`);
    }
    await this.s.startup.remove();
    const kept = all.filter((p) => p.pid !== this.s.shellPid && !foreground.includes(p) && isSame(p));
    for (const p of kept) this.s.log.info(`kept pid ${p.pid} of shell pid ${this.s.shellPid} running at close`);
    return {
      ended: foreground.filter((p) => !isSame(p)).map((p) => this.s.describe(p)),
      kept: kept.map((p) => ({ ...this.s.describe(p), startTime: p.startTime })),
    };
  }

  /**
   * The process groups that belong to this session now. With /proc: every group of the shell's
   * session, checked by the shell's start time (see procProbe.sessionProcesses), so a reused pid
   * is never taken for ours, each with the members the scan found (a scan of /proc takes up to
   * hundreds of ms: the signal goes to a group only while one of them is still in it, see
   * groupStillHeld in proc/sessions.ts). Without /proc: the groups of processes on the session's terminal
   * (ps -t), read only while the shell is on it (the terminal is ours while the shell holds it; its
   * number is free for any program once the shell exited and the master closed), plus those seen
   * there before that still run as the same process (same pid, group and start time: jobs that
   * outlived the shell), plus the shell's own group until it exited.
   *
   * Zombies do not count: a process that exited holds no descriptor, memory or port, only its pid
   * until its parent waits for it, and no signal ends it further. Under an init that never reaps
   * orphans (Node or code-server as pid 1 of a container) they stay forever.
   */
  private async ownGroups(): Promise<Map<number, ProcStat[] | undefined>> {
    const { shellPid, shellStart } = this.s;
    if (this.s.probe) {
      const groups = new Map<number, ProcStat[]>();
      if (shellStart === undefined && this.s.exited()) return groups;
      for (const p of await scanSessionProcesses(shellPid, shellStart)) {
        if (p.state === 'Z') continue;
        const members = groups.get(p.pgrp);
        if (members) members.push(p);
        else groups.set(p.pgrp, [p]);
      }
      return groups;
    }
    const tty = this.s.ptsPath();
    const listed = tty ? await proc.psOnTty(tty) : [];
    // The terminal is this session's only while its shell is on it: once the shell exited, node-pty
    // closes the master, and another program's new PTY may take the freed number at once.
    if (!this.s.exited() && listed.some((e) => e.pid === shellPid)) {
      for (const entry of listed) {
        if (!this.seenOnTty.some((e) => e.pid === entry.pid && e.lstart === entry.lstart)) this.seenOnTty.push(entry);
      }
    }
    const alive = await proc.psStillSame(this.seenOnTty);
    this.seenOnTty.splice(0, this.seenOnTty.length, ...alive);
    const groups = new Map<number, undefined>(alive.filter((e) => !e.stat.startsWith('Z')).map((e) => [e.pgid, undefined]));
    if (!this.s.exited()) groups.set(shellPid, undefined);
    return groups;
  }

  /**
   * After an open that failed during startup: SIGKILL to the processes that left the session but
   * carry its private `TMUX_TMPDIR` in their environment (only processes started by this session's
   * startup files have it), e.g. a tmux server that daemonized. Linux /proc only; elsewhere
   * {@link stopPrivateTmuxServers} covers tmux. Every process on the machine is looked at, so
   * each read goes off this thread, one at a time.
   */
  private async endEscapedStartupProcesses(): Promise<void> {
    if (!this.s.probe) return;
    const mark = `\0TMUX_TMPDIR=${this.s.startup.tmuxTmpdir}\0`;
    for (const name of await fs.promises.readdir('/proc')) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      try {
        const stat = await readStatAsync(Number(name));
        if (!stat || (this.s.shellStart !== undefined && stat.startTime < this.s.shellStart)) continue;
        if (!`\0${await fs.promises.readFile(`/proc/${name}/environ`, 'latin1')}`.includes(mark)) continue;
        process.kill(Number(name), 'SIGKILL');
        this.s.log.info(`ended pid ${name}, started by the startup files of shell pid ${this.s.shellPid} outside its session`);
      } catch {
        // Gone, or not ours to read.
      }
    }
  }

  /**
   * Stops each tmux server whose socket is in the session's private `TMUX_TMPDIR` (tmux kill-server),
   * off this thread: at most {@link MAX_TMUX_SOCKETS} sockets (entries of any other kind are not
   * tmux's), each `tmux` given {@link TMUX_KILL_MS} ms, all at once. The folder is the session's to
   * write: a command can fill it, and must not hold the extension host thread with it; a folder on
   * the way that is a symbolic link (to another tmux's socket folder) is not followed.
   */
  private async stopPrivateTmuxServers(): Promise<void> {
    const uid = process.getuid?.();
    if (uid === undefined) return;
    const socketDir = path.join(this.s.startup.tmuxTmpdir, `tmux-${uid}`);
    let entries: fs.Dirent[];
    try {
      for (const dir of [this.s.startup.tmuxTmpdir, socketDir]) {
        if (!(await fs.promises.lstat(dir)).isDirectory()) return;
      }
      entries = await fs.promises.readdir(socketDir, { withFileTypes: true });
    } catch {
      return;
    }
    const sockets = entries.filter((e) => e.isSocket()).slice(0, MAX_TMUX_SOCKETS);
    await Promise.all(
      sockets.map(
        ({ name }) =>
          new Promise<void>((resolve) => {
            execFile('tmux', ['-S', path.join(socketDir, name), 'kill-server'], { timeout: TMUX_KILL_MS }, (error) => {
              // An error: no server behind the socket any more, or tmux is gone.
              if (!error)
                this.s.log.info(`stopped the tmux server at socket ${name} that the startup files of shell pid ${this.s.shellPid} started`);
              resolve();
            });
          }),
      ),
    );
  }
}
