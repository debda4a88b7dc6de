/**
 * The limits of each owner (an MCP client, an extension, the Language Model Tools): on sessions,
 * what the service reads at every call, and the refusal past them; on the pattern jobs (scrollback
 * searches and waits' `until` matches) the shared pool's caps (output/matchPool.ts).
 */
import { TerminalError } from './errors';

/** The limits of each owner the service reads at every call (a setting may change them). */
export interface OwnerLimits {
  /** Sessions one owner may have open or opening (setting dsh.terminal.maxSessionsPerOwner). */
  maxSessionsPerOwner: number;
}

/** The refusal of a session past the limit: `open` sessions open or opening, `max` the setting. */
export function sessionLimitError(open: number, max: number): TerminalError {
  return new TerminalError(
    'LIMIT_REACHED',
    `no session was opened: this caller has ${open} sessions open or opening, and dsh.terminal.maxSessionsPerOwner is ${max}. ` +
      'Use one of them (dsh_terminal_list), or close one (dsh_terminal_close) first, exited ones included; the person can raise the setting',
  );
}

/** How long an open admitted at its confirmation counts before it lapses (ms): a confirmation the person declined never runs. */
export const OPEN_ADMISSION_TTL_MS = 30_000;
/** Admissions kept at once; the oldest lapses first past it. */
const MAX_ADMISSIONS = 1024;

/**
 * The opens of one owner a tool admitted at their confirmation and that have not started yet, so
 * that a burst of opens is refused at the confirmation, before anything awaits, rather than after
 * the opens let through have started their spawns: each admitted call counts as one more session
 * opening until its run takes it (then the service counts it) or {@link OPEN_ADMISSION_TTL_MS}
 * passes. The service's own check when the open starts stays the one that holds.
 */
export class OpenAdmissions {
  /** By call (its JSON): each admission's expiry (ms, `performance.now()`) and the refusal it got, if any. */
  private readonly calls = new Map<string, { expires: number; refusal?: TerminalError }[]>();
  private size = 0;

  constructor(private readonly ttlMs = OPEN_ADMISSION_TTL_MS) {}

  /**
   * Admits one open of `call` unless `refusal(admitted)` (`admitted`: this owner's admissions
   * held now, lapsed ones left out) returns an error, which is then kept for the call's run and
   * returned. Synchronous.
   */
  admit(call: string, refusal: (admitted: number) => TerminalError | undefined): TerminalError | undefined {
    const now = performance.now();
    this.prune(now);
    let admitted = 0;
    for (const list of this.calls.values()) admitted += list.filter((a) => !a.refusal).length;
    const refused = refusal(admitted);
    const list = this.calls.get(call) ?? [];
    list.push({ expires: now + this.ttlMs, ...(refused ? { refusal: refused } : {}) });
    this.calls.set(call, list);
    if (++this.size > MAX_ADMISSIONS) this.dropOldest();
    return refused;
  }

  /** At the run of `call`: the refusal its confirmation got (nothing is to start), else undefined, releasing its admission. */
  take(call: string): TerminalError | undefined {
    const list = this.calls.get(call);
    const first = list?.shift();
    if (!list || !first) return undefined;
    this.size--;
    if (list.length === 0) this.calls.delete(call);
    return first.expires > performance.now() ? first.refusal : undefined;
  }

  private prune(now: number): void {
    for (const [call, list] of this.calls) {
      const kept = list.filter((a) => a.expires > now);
      this.size -= list.length - kept.length;
      if (kept.length) this.calls.set(call, kept);
      else this.calls.delete(call);
    }
  }

  private dropOldest(): void {
    let oldest: { call: string; expires: number } | undefined;
    for (const [call, list] of this.calls)
      if (list[0] && (!oldest || list[0].expires < oldest.expires)) oldest = { call, expires: list[0].expires };
    if (oldest) this.take(oldest.call);
  }
}

/** Pattern jobs (searches and `until` matches) running at once in the process, each in a worker thread. */
export const POOL_JOBS = 4;
/** Pattern jobs one owner runs at once: the other slots stay free for other owners. */
export const MAX_RUNNING_JOBS_PER_OWNER = 2;
/** Searches one owner may have running or waiting; one more is refused at once. */
export const MAX_SEARCHES_PER_OWNER = 4;
