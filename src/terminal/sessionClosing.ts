/**
 * Closing the sessions of the table (service.ts): whether a close keeps the session's background
 * processes (the caller's `keep`, else the keep-by-default policy), the backend's teardown, the
 * processes kept recorded for the person, and the session's removal from the table once its
 * backend is quiet. Plain Node, no `vscode` import.
 */
import { errorMessage } from '../common/errorMessage';
import type { Log } from '../common/log';
import type { KeptProcesses } from './session/keptProcesses';
import type { PublishedSession } from './session/publishedSession';
import type { BackendSession, CloseReport } from './types';
import { TerminalBackendCleanupError, TerminalError } from './errors';

/** Options of `close`. */
export interface CloseOptions {
  /**
   * The person confirmed closing a session they have taken over (a modal dialog, or closing its
   * panel terminal and confirming). Without it such a close is refused with TAKEN_OVER.
   */
  userConfirmed?: boolean;
  /**
   * Leave the session's background processes running (background jobs, and processes that left its
   * process groups); only the shell and its foreground job end. Default: the service's
   * TerminalService.setKeepByDefault policy (VS Code's `detachBackgroundProcesses`).
   */
  keep?: boolean;
}

/** What a close did: whether this call closed the session, and what it ended and kept. */
export interface CloseOutcome extends Partial<CloseReport> {
  /** False when an earlier call had closed it already (nothing more is reported then). */
  closed: boolean;
}

/** What the closing needs of the table of sessions. */
export interface ClosingTable {
  readonly sessions: Map<string, PublishedSession>;
  readonly kept: KeptProcesses;
  readonly log: Log;
  /** Tells the owner's subscribers that `entry` closed. */
  emit(kind: 'closed', entry: PublishedSession): void;
}

/** Closes sessions of a table (see the module comment). */
export class SessionClosing {
  /** Whether a close that does not say keeps the session's background processes (see setKeepByDefault). */
  private keepByDefault: () => boolean = () => false;

  constructor(private readonly table: ClosingTable) {}

  /** Sets the policy a close that does not say follows (read at each close; one that throws counts as no). */
  setKeepByDefault(policy: () => boolean): void {
    this.keepByDefault = policy;
  }

  /** Closes each of `entries` not closing yet (by the policy) and resolves once all settled; never rejects. */
  async closeAll(reason: string, entries: readonly PublishedSession[]): Promise<void> {
    await Promise.allSettled(entries.map((entry) => (entry.closing ??= this.teardown(entry, reason, undefined))));
  }

  /** Closes `entry` (`keep` undefined: the keepByDefault policy), records what it kept, and removes it from the table. */
  async teardown(entry: PublishedSession, reason: string, keep: boolean | undefined): Promise<CloseReport> {
    entry.owner.pending++;
    try {
      let keeping = keep;
      if (keeping === undefined) {
        try {
          keeping = this.keepByDefault();
        } catch {
          keeping = false;
        }
      }
      const report = (await entry.session.close(reason, { keep: keeping })) ?? { ended: [], kept: [] };
      if (report.kept.length > 0) this.table.kept.add(entry.id, entry.name, report.kept);
      this.table.log.info(`session ${entry.id} closed: ${reason}; ${report.ended.length} processes ended, ${report.kept.length} kept`);
      return report;
    } catch (error) {
      this.table.log.warn(`session ${entry.id} cleanup failed (${reason}): ${errorMessage(error)}`);
      throw error;
    } finally {
      this.table.sessions.delete(entry.id);
      entry.owner.pending--;
      this.table.emit('closed', entry);
    }
  }
}

/**
 * Closes a session whose owner went away while it was starting (it was never published).
 * @returns the OWNER_DISPOSED error for the open, or a TerminalBackendCleanupError carrying it
 *   when the close failed.
 */
export async function closeUnpublished(session: BackendSession): Promise<Error> {
  const reason = new TerminalError('OWNER_DISPOSED', 'the session owner was disposed while the session was starting');
  try {
    await session.close('owner disposed during spawn');
  } catch (cleanupError) {
    return new TerminalBackendCleanupError(reason, cleanupError);
  }
  return reason;
}
