/**
 * Errors of the terminal seam. Every error carries a stable `code` a caller can branch on, and a
 * message that says what was wrong and what is valid, so a model can act on it.
 */
import { errorMessage } from '../common/errorMessage';
export type TerminalErrorCode =
  | 'NO_SUCH_SESSION'
  | 'NOT_SESSION_OWNER'
  | 'SESSION_BUSY'
  | 'SESSION_EXITED'
  | 'INVALID_ARGUMENT'
  | 'NO_SUCH_BACKEND'
  | 'BACKEND_REGISTRATION'
  | 'OWNER_DISPOSED'
  | 'SPAWN_FAILED'
  | 'TAKEN_OVER'
  /** What would read the input is not what the person confirmed; nothing was typed. */
  | 'RECEIVER_CHANGED'
  /** The send was cancelled before its input was written (nothing was typed), or the wait before it started (nothing was interrupted). */
  | 'CANCELLED'
  /** A wait found no running command to wait for (the shell is at its prompt). */
  | 'NOTHING_TO_WAIT_FOR'
  /** The sandbox is on but cannot start here (a program missing, namespaces refused); nothing was started. */
  | 'SANDBOX_UNAVAILABLE'
  /** A session outside the agent sandbox was asked for where the settings do not allow one; nothing was started. */
  | 'SANDBOX_REQUIRED'
  /** The caller reached one of its limits (open sessions, searches in flight); nothing was started. */
  | 'LIMIT_REACHED'
  /** A process other than the receiver is reading the session's terminal and could take the input; nothing was typed. */
  | 'OTHER_READER'
  /** A program reads the terminal with echo off (a password prompt): the person answers it, not the agent; nothing was typed. */
  | 'PERSON_MUST_ANSWER';

export class TerminalError extends Error {
  constructor(
    readonly code: TerminalErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TerminalError';
  }
}

/** A TerminalError `INVALID_ARGUMENT` with `message` (e.g. checkInteger's `fail`, src/common/integerInput.ts). */
export function invalidArgument(message: string): TerminalError {
  return new TerminalError('INVALID_ARGUMENT', message);
}

/**
 * A spawn failed and the backend could not bring what it took back to rest. `cause` is the
 * cleanup failure; `reason` keeps the caller's original cancellation reason (or the spawn error).
 */
export class TerminalBackendCleanupError extends Error {
  constructor(
    readonly reason: unknown,
    readonly cleanupError: unknown,
  ) {
    super(`terminal backend cleanup failed after: ${errorMessage(reason)}; cleanup error: ${errorMessage(cleanupError)}`);
    this.name = 'TerminalBackendCleanupError';
  }
}
