/**
 * Checks of a request's shape the terminal service makes before it acts: a cancellation signal
 * and a wait's `untilListening` (a confirmed receiver's identity: input/receiverIdentityCheck.ts). Plain Node, no `vscode` import.
 */
import { quoteInput } from '../common/quoteInput';
import { isIntegerIn } from '../common/integerInput';
import { TerminalError } from './errors';

/**
 * Refuses a cancellation `signal` option that is not an AbortSignal (left out or null is no
 * cancellation): anything else would fail deep inside a send or a spawn, or be ignored.
 * @throws TerminalError INVALID_ARGUMENT naming what was given and what is valid.
 */
export function checkAbortSignal(signal: unknown): void {
  if (signal === undefined || signal === null || signal instanceof AbortSignal) return;
  const given =
    typeof signal === 'object' || typeof signal === 'function'
      ? `${Object.prototype.toString.call(signal)} ${quoteInput(signal)}`
      : quoteInput(signal);
  throw new TerminalError(
    'INVALID_ARGUMENT',
    `signal must be an AbortSignal (e.g. new AbortController().signal) or left out (got ${given})`,
  );
}

/**
 * Refuses a wait's `untilListening` that is neither a port (an integer 1..65535) nor `true`; left
 * out (undefined or null) passes.
 * @throws TerminalError INVALID_ARGUMENT naming what was given and what is valid.
 */
export function checkUntilListening(value: unknown): asserts value is number | true | undefined | null {
  if (value === undefined || value === null || value === true) return;
  if (isIntegerIn(value, 1, 65535)) return;
  throw new TerminalError(
    'INVALID_ARGUMENT',
    `untilListening must be a port number (an integer 1..65535) or true (any new listening port), or left out (got ${quoteInput(value)})`,
  );
}
