/**
 * Foreground probing: a PTY session's shell and the process group that holds its terminal, as the
 * Linux /proc probe shows them (without the probe, what can be said without one): the foreground
 * group, its members' blocked reads of the terminal, whether a group is the session's, how a
 * process is named, the terminal's path, and whether the shell is still the shell started.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../errors';
import { epollReadsSettled } from '../../proc/epollSetReads';
import * as proc from '../../proc/procProbe';
import { readStat } from '../../proc/stat';
import { type Executable, executableOf, processIdentity, sameExecutable } from '../../proc/processIdentity';
import { SessionProcessTree } from '../../proc/processTree';
import type { ForegroundProcess, ReceiverProcess } from '../types';

/** Longest wait for the epoll sets of the foreground's waits to be read before a send looks (ms). */
const EPOLL_SETTLE_MS = 500;

/** The session's shell and its terminal's foreground, looked at when asked (nothing is cached but the terminal's path). */
export class ForegroundProbe {
  /**
   * The shell. In a sandbox it is not node-pty's child (the sandbox launcher is): until its first
   * prompt this is the launcher's pid, then the shell's (see locateSandboxedShell).
   */
  private pid: number;
  /** node-pty's child: the session leader, whose pid is the session id of every process of the session. */
  readonly leaderPid: number;
  /** The shell's start time (/proc stat field 22): with its pid it names our shell across pid reuse. */
  readonly shellStart: number | undefined;
  /** The session's processes from its own process tree (Linux /proc probe only). */
  readonly tree: SessionProcessTree | undefined;
  private ptsPath: string | undefined;
  /** The executable the shell ran at its first prompt (with the /proc probe): another one since means it is no longer our shell. */
  private shellExecutable: Executable | undefined;
  /** The shell's stopped children at the latest prompt that asked (see stoppedJob): pid → context switches. */
  private stoppedSwitches = new Map<number, number>();

  /**
   * @param leaderPid node-pty's child's pid.
   * @param ptsName node-pty's name for the terminal (`/dev/pts/N`), when it gives one.
   * @param probe use the Linux /proc probe (else ps(1) and no probe).
   * @param shell the executable started and its arguments.
   * @param redactLine redacts secrets in a process's command line.
   * @param exited the shell has exited (then there is no foreground).
   */
  constructor(
    leaderPid: number,
    ptsName: string | undefined,
    readonly probe: boolean,
    private readonly shell: { executable: string; args: readonly string[] },
    private readonly redactLine: (line: string) => string,
    private readonly exited: () => boolean,
  ) {
    this.pid = this.leaderPid = leaderPid;
    this.ptsPath = ptsName;
    this.shellStart = probe ? readStat(leaderPid)?.startTime : undefined;
    this.tree = probe ? new SessionProcessTree(leaderPid, this.shellStart) : undefined;
  }

  /** The shell's pid (the sandboxed shell's once its first prompt located it). */
  get shellPid(): number {
    return this.pid;
  }

  /** The foreground process group of the terminal; undefined without the probe, after the exit, or when none. */
  foregroundGroup(): number | undefined {
    if (!this.probe || this.exited()) return undefined;
    const tpgid = readStat(this.pid)?.tpgid;
    return tpgid !== undefined && tpgid > 0 ? tpgid : undefined;
  }

  /** The foreground process (the shell's without the probe); undefined after the exit. */
  foreground(): ForegroundProcess | undefined {
    if (this.exited()) return undefined;
    const tpgid = this.foregroundGroup();
    const pid = tpgid ?? this.pid;
    return { pid, command: this.commandOf(pid) };
  }

  /**
   * The waits on this session's terminal of process group `pgrp`, from one look at the session's
   * own process tree (processTree.ts; a look reads a bounded number of processes and says when it
   * was cut). Call only with the probe on.
   */
  groupWaits(pgrp: number): proc.GroupWaits {
    const look = this.tree?.look(pgrp) ?? { members: proc.groupProcesses(this.leaderPid, pgrp, this.shellStart), complete: true };
    return proc.groupWaits(pgrp, look, this.pts());
  }

  /**
   * True when process group `pgrp` has a member in this session now, so a signal to it reaches
   * only processes of ours (see SessionProcessTree.hasMember; 'searching' while a scan of /proc
   * off this thread looks for members nothing nearer found). Call only with the probe on.
   */
  groupIsOurs(pgrp: number): boolean | 'searching' {
    return this.tree ? this.tree.hasMember(pgrp) : proc.groupProcesses(this.leaderPid, pgrp, this.shellStart).length > 0;
  }

  /**
   * A program in the foreground that waits in epoll is judged from its epoll set, which is read
   * off this thread (procProbe.ts epollWatches): one look starts the reads, and the send's own
   * look comes once they are in (at most EPOLL_SETTLE_MS), so it can tell that the program reads.
   */
  async epollWaitsSettled(): Promise<void> {
    const tpgid = this.probe ? this.foregroundGroup() : undefined;
    if (tpgid === undefined || tpgid === this.pid) return;
    this.groupWaits(tpgid);
    await epollReadsSettled(EPOLL_SETTLE_MS);
  }

  /**
   * The shell is named by its executable (its command line holds our rc path); others in full,
   * secrets in their arguments redacted (results, listings, errors and confirmations name them).
   */
  commandOf(pid: number): string {
    // The shell's short name, while it is still the shell started (a stand-in may write it into its comm).
    if (pid === this.pid && readStat(pid)?.comm === path.basename(this.shell.executable) && !this.shellReplaced())
      return path.basename(this.shell.executable);
    return this.redactLine(proc.commandLine(pid, readStat(pid)?.comm ?? ''));
  }

  /** Process `pid` as a receiver names it: what it says it is, and what the kernel runs (processIdentity.ts). */
  receiverProcess(pid: number): ReceiverProcess {
    const identity = this.probe ? processIdentity(pid) : undefined;
    return {
      pid,
      command: this.commandOf(pid),
      ...(identity?.executable && { executable: identity.executable.path }),
      ...(identity && { identity }),
    };
  }

  /**
   * True when the shell's process runs another executable than at its first prompt: it `exec`ed a
   * program (which may call itself bash and print prompt markers), or its executable can no longer
   * be read. False without the /proc probe (nothing recorded).
   */
  shellReplaced(): boolean {
    if (this.shellExecutable === undefined || this.exited()) return false;
    return !sameExecutable(executableOf(this.pid), this.shellExecutable);
  }

  /** Records the executable the shell runs at its first prompt (with the probe), for shellReplaced. */
  recordShellExecutable(): void {
    if (this.probe) this.shellExecutable = executableOf(this.pid);
  }

  /**
   * Whether a command just ended by a prompt with `$?` = 128 + a stop signal left a process stopped:
   * a child of the shell stopped now that was not stopped, or has run since, at the previous such
   * prompt (its context switches grew), so a job stopped earlier and still stopped is not taken for
   * this command's. Undefined without the /proc probe.
   */
  stoppedJob(): boolean | undefined {
    if (!this.probe) return undefined;
    const now = proc.stoppedChildren(this.pid);
    const fresh = now.some((p) => this.stoppedSwitches.get(p.pid) !== p.switches);
    this.stoppedSwitches = new Map(now.map((p) => [p.pid, p.switches]));
    return fresh;
  }

  /** The shell's working directory now (Linux /proc/<pid>/cwd); undefined after the exit or where it cannot be read. */
  currentCwd(): string | undefined {
    if (this.exited() || process.platform !== 'linux') return undefined;
    try {
      return fs.readlinkSync(`/proc/${this.pid}/cwd`);
    } catch {
      return undefined;
    }
  }

  /**
   * In a sandbox the shell is a descendant of node-pty's child, in the same session. At its first
   * prompt an interactive bash or zsh holds the terminal's foreground in a process group of its own, so
   * the foreground group names it; its command line must be the one the session started.
   * @returns the error that ends the session when the foreground is not that shell; else undefined, the shell's pid now the group's.
   */
  locateSandboxedShell(): TerminalError | undefined {
    const tpgid = readStat(this.leaderPid)?.tpgid;
    const args = tpgid !== undefined && tpgid > 0 ? proc.procArgs(tpgid) : undefined;
    if (tpgid === undefined || args === undefined || !args.endsWith(` ${this.shell.args.join(' ')}`)) {
      return new TerminalError(
        'SPAWN_FAILED',
        `the sandboxed shell reached its first prompt but does not hold the terminal's foreground (foreground group ${tpgid ?? 'unknown'}); the session is ended`,
      );
    }
    this.pid = tpgid;
    return undefined;
  }

  /** The terminal's path as far as it is known, without reading anything (teardown names it). */
  knownPts(): string | undefined {
    return this.ptsPath;
  }

  /** The session's terminal, or '' when it cannot be named (then stty reads nothing). */
  ptsIfKnown(): string {
    try {
      return this.pts();
    } catch {
      return '';
    }
  }

  /**
   * The session's terminal (`/dev/pts/N`): node-pty's name for it, else the link of the shell's stdin.
   * @throws the file system's error when neither is known and the link cannot be read.
   */
  pts(): string {
    this.ptsPath ??= fs.readlinkSync(`/proc/${this.pid}/fd/0`);
    return this.ptsPath;
  }
}
