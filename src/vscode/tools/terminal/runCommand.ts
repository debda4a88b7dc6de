/**
 * The check of the command `dsh_run` types, beyond its declared schema (which the input passed
 * already, src/tools/validateInput.ts): the text rules of the terminal (src/terminal/input.ts),
 * with a hint for keys. Plain Node, no `vscode` import.
 */
import { TerminalError } from '../../../terminal/errors';
import { checkText, RUN_KEYS_HINT } from '../../../terminal/input/input';

/**
 * Validates dsh_run's command as text (the rules of src/terminal/input.ts) and returns it.
 * @throws TerminalError INVALID_ARGUMENT when it is not a non-empty string, or naming a refused character.
 */
export function checkRunCommand(command: unknown): string {
  if (typeof command !== 'string' || !command)
    throw new TerminalError('INVALID_ARGUMENT', 'command is required and must be a non-empty string');
  return checkText(command, 'command', RUN_KEYS_HINT);
}
