/**
 * The checks of a session's opening options that need no backend: its size (`cols`, `rows`) and
 * its display name. Plain Node, no `vscode` import.
 */
import { checkInteger } from '../common/integerInput';
import { TerminalError, invalidArgument } from './errors';
import { checkLabel } from './input/input';

/** The smallest and largest terminal width (`cols`) and height (`rows`) a session may open with, in cells. */
const MIN_TERMINAL_CELLS = 2;
const MAX_TERMINAL_CELLS = 1000;

/** The longest session name (characters). */
const MAX_NAME_LENGTH = 100;

/**
 * Refuses options a session cannot open with.
 * @throws TerminalError INVALID_ARGUMENT for `cols` or `rows` not an integer in
 *   MIN_TERMINAL_CELLS..MAX_TERMINAL_CELLS, or a name that is not a string, is longer than
 *   MAX_NAME_LENGTH characters or is not a label (input.ts checkLabel).
 */
export function checkOpenOptions(options: { cols?: unknown; rows?: unknown; name?: unknown }): void {
  for (const name of ['cols', 'rows'] as const) {
    if (options[name] !== undefined)
      checkInteger(options[name], name, { min: MIN_TERMINAL_CELLS, max: MAX_TERMINAL_CELLS }, invalidArgument);
  }
  if (options.name !== undefined) {
    if (typeof options.name !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'name must be a string');
    // Sized first: nothing is read of a name that cannot be one.
    const length = options.name.length > 2 * MAX_NAME_LENGTH ? options.name.length : [...options.name].length;
    if (length > MAX_NAME_LENGTH)
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `name is ${length} ${length === options.name.length ? 'UTF-16 code units' : 'characters'} long; at most ${MAX_NAME_LENGTH} characters`,
      );
    checkLabel(options.name, 'name');
  }
}
