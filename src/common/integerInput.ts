/**
 * The one check of an integer a caller sent (a tool's offset, count, limit, depth, line, timeout):
 * any caller can send anything, so the schema's bounds are checked again before use, and the
 * message says what was wrong and what is valid. Each seam throws it with its own error type
 * (TerminalError `INVALID_ARGUMENT`, LspError `invalid_request`).
 */
import { quoteInput } from './quoteInput';

/**
 * What is wrong with `value` as the integer input `name` in `min..max`, or undefined when it is
 * one: `"<name> must be an integer ≥ <min> (got <value>)"` when `max` is left open
 * (Number.MAX_SAFE_INTEGER), else `"<name> must be an integer in <min>..<max> (got <value>)"`; the
 * value is quoted as the caller sent it (quoteInput).
 */
export function integerProblem(value: unknown, name: string, min: number, max: number = Number.MAX_SAFE_INTEGER): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in ${min}..${max}`;
  return `${name} must be an integer ${range} (got ${quoteInput(value)})`;
}
