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

/** Pattern jobs (searches and `until` matches) running at once in the process, each in a worker thread. */
export const POOL_JOBS = 4;
/** Pattern jobs one owner runs at once: the other slots stay free for other owners. */
export const MAX_RUNNING_JOBS_PER_OWNER = 2;
/** Searches one owner may have running or waiting; one more is refused at once. */
export const MAX_SEARCHES_PER_OWNER = 4;
