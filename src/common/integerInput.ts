/**
 * The one check of an integer a caller sent (a tool's offset, count, limit, depth, line, timeout,
 * a setting, a constructor's size): any caller can send anything, so the schema's bounds are
 * checked again before use, and the message says what was wrong and what is valid, in one shape:
 * `<name> must be an integer <range>[, <note>] (got <value>)`. Each seam throws it with its own
 * error type (TerminalError `INVALID_ARGUMENT`, LspError `invalid_request`, RangeError for a
 * programming error), through {@link checkInteger}'s `fail`.
 */
import { quoteInput } from './quoteInput';

/** The bounds of an integer input, both inclusive; `max` left out is Number.MAX_SAFE_INTEGER (open). */
export interface IntegerRange {
  readonly min: number;
  readonly max?: number;
  /** What the number counts or means, said after the range: "in milliseconds", "0-based". */
  readonly note?: string;
}

/** Whether `value` is a number that is an integer in `min..max` (both inclusive). */
export function isIntegerIn(value: unknown, min: number, max: number = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * A range in words: `≥ <min>` when `max` is left open (undefined or Number.MAX_SAFE_INTEGER), else
 * `in <min>..<max>`. The tool validator's "what is valid" says integer ranges the same way.
 */
export function integerRangeText(min: number, max?: number): string {
  return max === undefined || max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `in ${min}..${max}`;
}

/**
 * What is wrong with `value` as the integer input `name` in `min..max`, or undefined when it is
 * one: `"<name> must be an integer ≥ <min> (got <value>)"` when `max` is left open
 * (Number.MAX_SAFE_INTEGER), else `"<name> must be an integer in <min>..<max> (got <value>)"`, with
 * `, <note>` before `(got` when a note is given; the value is quoted as the caller sent it
 * (quoteInput).
 */
export function integerProblem(
  value: unknown,
  name: string,
  min: number,
  max: number = Number.MAX_SAFE_INTEGER,
  note?: string,
): string | undefined {
  if (isIntegerIn(value, min, max)) return undefined;
  return `${name} must be an integer ${integerRangeText(min, max)}${note ? `, ${note}` : ''} (got ${quoteInput(value)})`;
}

/**
 * `value` as the integer input `name`, checked against `range`; `fallback` when `value` is left out
 * (undefined or null) and a fallback is given.
 * @param fail makes the error to throw from the message ({@link integerProblem}'s).
 * @throws what `fail` returns, when `value` is not an integer in the range (or is left out with no fallback).
 */
export function checkInteger(
  value: unknown,
  name: string,
  range: IntegerRange,
  fail: (message: string) => Error,
  fallback?: number,
): number {
  if ((value === undefined || value === null) && fallback !== undefined) return fallback;
  const problem = integerProblem(value, name, range.min, range.max, range.note);
  if (problem !== undefined) throw fail(problem);
  return value as number;
}
