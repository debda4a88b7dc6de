/**
 * Checks of the terminal tools' input as the model sent it: the schema in package.json says what
 * is valid, but any caller can send anything, so every field is checked again before use. Plain
 * Node, no `vscode` import.
 */
import { integerProblem } from '../../../common/integerInput';
import { quoteInput } from '../../../common/quoteInput';
import { TerminalError } from '../../../terminal/errors';
import { checkText } from '../../../terminal/input/input';

/** `input[key]` as a non-empty string. @throws TerminalError INVALID_ARGUMENT otherwise. */
export function requireString(input: Record<string, unknown>, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || !value) {
    throw new TerminalError('INVALID_ARGUMENT', `${key} is required and must be a non-empty string`);
  }
  return value;
}

/** `input[key]` as an integer ≥ `min`, or undefined when absent or null. @throws TerminalError INVALID_ARGUMENT otherwise. */
export function optionalInteger(input: Record<string, unknown>, key: string, min: number): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  const problem = integerProblem(value, key, min);
  if (problem) throw new TerminalError('INVALID_ARGUMENT', problem);
  return value as number;
}

/** `input[key]` as a boolean, or undefined when absent or null. @throws TerminalError INVALID_ARGUMENT otherwise. */
export function optionalBoolean(input: Record<string, unknown>, key: string): boolean | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new TerminalError('INVALID_ARGUMENT', `${key} must be true or false (got ${quoteInput(value)})`);
  return value;
}

/**
 * Validates dsh_run's command as text (the rules of src/terminal/input/input.ts) and returns it.
 * @throws TerminalError INVALID_ARGUMENT when it is not a non-empty string, or naming a refused character.
 */
export function checkRunCommand(command: unknown): string {
  if (typeof command !== 'string' || !command) throw new TerminalError('INVALID_ARGUMENT', 'command is required and must be a non-empty string');
  return checkText(command, 'command', 'To press keys (Ctrl-C, arrows, Ctrl-D), use dsh_terminal_send with keys on the session id dsh_run returned');
}
