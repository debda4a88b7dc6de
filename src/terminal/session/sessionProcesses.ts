/**
 * What a session's processes are doing beyond its foreground: the sockets they listen on and the
 * processes it started that still run (background jobs, and those that left its process groups),
 * read from /proc through proc/ownedProcesses.ts and proc/listeningSockets.ts. Plain Node.
 */
import { TimeSlice } from '../../common/timeSlice';
import { ListeningSocketReader, type ListeningSocket } from '../../proc/listeningSockets';
import { PROC_SLICE_MS } from '../../proc/markIndex';
import { OwnedProcesses, type OwnedProcess } from '../../proc/ownedProcesses';

/** A process a session started, other than its shell. */
export interface SessionProcess {
  pid: number;
  /** Command line, at most 200 characters. */
  command: string;
  /** True when it left the session's process groups (setsid, a daemon's double fork): only its mark ties it to the session. */
  detached?: true;
}

/** What `processes` reports of a session (see {@link SessionProcessWatch.report}). */
export type ProcessesReport =
  | {
      available: true;
      /** Sockets the session's processes listen on, by port. */
      listening: ListeningSocket[];
      /** The session's processes other than its shell, by pid. */
      processes: SessionProcess[];
      /** False when a bound cut the look or scan (a session of hundreds of processes, a busy machine): some may be missing. */
      complete: boolean;
    }
  | { available: false; reason: string };

/** Why ports and background processes cannot be shown where there is no /proc. */
export const PROCESSES_UNAVAILABLE = 'ports and background processes are read from /proc (Linux), which this machine does not have';

/** What redacts the command lines handed out (secretRedactor.ts SecretRedactor): `enabled` may change at any time. */
export interface LineRedactor {
  readonly enabled: boolean;
  /** `text` with its secrets replaced; the same answer for the same text while `enabled` holds. */
  redactLine(text: string): string;
}

/** Command lines whose redaction a session keeps, at most (the oldest forgotten first). */
const MAX_REDACTED = 1024;

/** The processes and sockets of one session (shell pid, start time and mark fixed at its start). */
export class SessionProcessWatch {
  /** Undefined without /proc. */
  readonly owned: OwnedProcesses | undefined;
  private readonly sockets = new ListeningSocketReader();
  /**
   * Command line → its redaction, while redaction is on: a session's processes share few command
   * lines (a thousand `sleep 600`), and each redaction costs about half a ms on this thread.
   */
  private readonly redacted = new Map<string, string>();

  /**
   * @param leaderPid node-pty's child (the shell, or the sandbox's launcher): everything below it is the session's.
   * @param leaderStart its start time, or undefined without /proc.
   * @param mark the `DSH_SESSION=<id>` entry of the session's environment.
   * @param shellPid the shell's pid now (left out of `processes`).
   * @param redactor what every command line handed out goes through (secret redaction: a program's
   *   arguments may hold a token); none: handed out as read.
   */
  constructor(
    leaderPid: number,
    leaderStart: number | undefined,
    mark: string,
    private readonly shellPid: () => number,
    private readonly redactor?: LineRedactor,
  ) {
    this.owned = leaderStart === undefined ? undefined : new OwnedProcesses(leaderPid, leaderStart, mark);
  }

  /**
   * The sockets the session's processes listen on now, from a look at the shell's descendants and
   * the processes found before (no scan of the machine): what send, run and wait results carry.
   * Undefined without /proc. `fresh`: sockets due for a re-check are looked up before it answers
   * (see ListeningSocketReader), as a wait for a port needs.
   */
  async listening(fresh = false): Promise<ListeningSocket[] | undefined> {
    if (!this.owned) return undefined;
    const look = await this.owned.look();
    return (await this.sockets.look(look.processes, fresh)).sockets.map((socket) => this.redactedSocket(socket));
  }

  /**
   * The session's processes and the sockets they listen on; with `scan`, every process on the
   * machine is looked at for the session's mark (ownedProcesses.ts scan, bounded in time), else
   * only the shell's descendants and the processes found before.
   */
  async report(scan: boolean): Promise<ProcessesReport> {
    if (!this.owned) return { available: false, reason: PROCESSES_UNAVAILABLE };
    const look = scan ? await this.owned.scan() : await this.owned.look();
    const sockets = await this.sockets.look(look.processes);
    const slice = new TimeSlice(PROC_SLICE_MS);
    const processes: SessionProcess[] = [];
    for (const p of look.processes) {
      if (p.pid === this.shellPid() || p.pid === this.owned.shellPid) continue;
      await slice.pause();
      processes.push(this.describe(p));
    }
    return {
      available: true,
      listening: sockets.sockets.map((socket) => this.redactedSocket(socket)),
      processes,
      complete: look.complete && sockets.complete,
    };
  }

  /** `socket` with its command line redacted. */
  private redactedSocket(socket: ListeningSocket): ListeningSocket {
    return { ...socket, command: this.redact(socket.command) };
  }

  /** `p` as a {@link SessionProcess}: detached when its session id is not the session's. */
  describe(p: OwnedProcess): SessionProcess {
    return { pid: p.pid, command: this.redact(p.command), ...(p.session !== this.owned?.shellPid ? { detached: true as const } : {}) };
  }

  /** `commandLine` redacted (see {@link redacted}). */
  private redact(commandLine: string): string {
    if (!this.redactor?.enabled) return commandLine;
    let text = this.redacted.get(commandLine);
    if (text === undefined) {
      text = this.redactor.redactLine(commandLine);
      if (this.redacted.size >= MAX_REDACTED) this.redacted.delete(this.redacted.keys().next().value!);
      this.redacted.set(commandLine, text);
    }
    return text;
  }
}
