/**
 * Processes that closes left running on purpose (`keep`, or VS Code's
 * `chat.tools.terminal.detachBackgroundProcesses`), for the person to list and stop later (the
 * palette's "Kept Agent Processes"). Each is held with its start time: it is listed and signalled
 * only while it is the same process (proc/ownedProcesses.ts `isSame`), never a later one with its
 * pid. In memory: a new extension host starts with an empty list. Plain Node.
 */
import { ListeningSocketReader, type ListeningSocket } from '../../proc/listeningSockets';
import { isSame, signalIfSame } from '../../proc/ownedProcesses';
import { waitUntil } from '../readiness/waitUntil';
import type { KeptProcess } from '../types';

/** A kept process, with the session that started it. */
export interface KeptEntry extends KeptProcess {
  sessionId: string;
  sessionName: string;
  /** When its session closed (ms since the epoch). */
  keptAt: number;
  /** Sockets it listens on, when listed with them. */
  listening?: ListeningSocket[];
}

/** How a {@link KeptProcesses.stop} went. */
export type StopOutcome = 'stopped' | 'gone' | 'survived';

/** Time a kept process gets after SIGTERM before SIGKILL (ms). */
const STOP_GRACE_MS = 2000;
/** Time after SIGKILL before a stop reports that it survived (ms). */
const STOP_KILL_MS = 1000;
/** Kept processes remembered, at most (the oldest are forgotten first; they keep running). */
const MAX_KEPT = 256;

/** The processes closes kept (see the module comment). */
export class KeptProcesses {
  private entries: KeptEntry[] = [];
  private readonly sockets = new ListeningSocketReader();

  /** Records `processes` kept at the close of session `sessionId` (`sessionName`). */
  add(sessionId: string, sessionName: string, processes: readonly KeptProcess[]): void {
    const keptAt = Date.now();
    this.entries.push(...processes.map((p) => ({ ...p, sessionId, sessionName, keptAt })));
    this.entries.splice(0, Math.max(0, this.entries.length - MAX_KEPT));
  }

  /** The kept processes still running as the same process, oldest first, each with the sockets it listens on. */
  async list(): Promise<KeptEntry[]> {
    this.entries = this.entries.filter(isSame);
    const look = await this.sockets.look(this.entries);
    return this.entries.map((e) => {
      const listening = look.sockets.filter((s) => s.pid === e.pid);
      return listening.length > 0 ? { ...e, listening } : { ...e };
    });
  }

  /**
   * Ends kept process `pid` started at `startTime`: SIGTERM, then SIGKILL after STOP_GRACE_MS.
   * `gone` when no such kept process runs (ended, or never kept: nothing is signalled), `survived`
   * when it outlived SIGKILL by STOP_KILL_MS.
   */
  async stop(pid: number, startTime: number): Promise<StopOutcome> {
    const entry = this.entries.find((e) => e.pid === pid && e.startTime === startTime);
    if (!entry || !signalIfSame(entry, 'SIGTERM')) {
      this.entries = this.entries.filter((e) => e !== entry);
      return 'gone';
    }
    signalIfSame(entry, 'SIGCONT');
    let ended = await waitUntil(() => !isSame(entry), STOP_GRACE_MS, 50);
    if (!ended) {
      signalIfSame(entry, 'SIGKILL');
      ended = await waitUntil(() => !isSame(entry), STOP_KILL_MS, 50);
    }
    if (ended) this.entries = this.entries.filter((e) => e !== entry);
    return ended ? 'stopped' : 'survived';
  }
}
