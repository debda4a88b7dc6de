/**
 * The `until` pattern of a wait: a JavaScript regular expression matched against the output that
 * arrived since the wait began, as plain text (ECMA-48 escape sequences and carriage returns
 * removed, lines joined by `\n`). Only the newest UNTIL_WINDOW_BYTES of that text are matched, each
 * time output arrives: a pattern with catastrophic backtracking is bounded by the window, never by
 * the whole output.
 */
import { TerminalError } from './errors';
import { tailByBytes } from './scrollback';

/** Longest pattern accepted (UTF-16 code units, as String.length counts). */
export const MAX_UNTIL_LENGTH = 1000;
/** The newest plain output matched against the pattern (UTF-8 bytes). */
export const UNTIL_WINDOW_BYTES = 8 * 1024;
/** Longest matched text reported back (UTF-16 code units). */
const MAX_MATCH_REPORT = 200;

/** CSI, OSC/DCS/APC/PM/SOS strings, and two-byte escapes (ECMA-48 §5.3–5.6), plus CR. */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]|\r/g;

/**
 * Compiles a model-given pattern (no flags; `^` and `$` match at line ends, the `m` flag).
 * @throws TerminalError INVALID_ARGUMENT when it is not a string, is empty or longer than
 *   MAX_UNTIL_LENGTH, or does not compile, saying what is valid.
 */
export function compileUntil(pattern: unknown): RegExp {
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > MAX_UNTIL_LENGTH) {
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `until must be a non-empty string of at most ${MAX_UNTIL_LENGTH} characters: a JavaScript regular expression matched against new output lines (got ${typeof pattern === 'string' ? `${pattern.length} characters` : JSON.stringify(pattern)})`,
    );
  }
  try {
    return new RegExp(pattern, 'm');
  } catch (error) {
    throw new TerminalError('INVALID_ARGUMENT', `until is not a valid JavaScript regular expression: ${(error as Error).message}. Escape special characters such as ( ) [ ] . * + ? with a backslash`);
  }
}

/** Output text as the pattern sees it: escape sequences and carriage returns removed. */
export function plainText(text: string): string {
  return text.replace(ESCAPES, '');
}

/** Accumulates the newest plain output of a wait and matches the pattern against it. */
export class UntilMatcher {
  private window = '';

  constructor(readonly pattern: RegExp) {}

  /**
   * Adds output (raw terminal text) and matches. Returns the matched text (at most 200
   * characters) or undefined.
   */
  push(text: string): string | undefined {
    this.window = tailByBytes(this.window + plainText(text), UNTIL_WINDOW_BYTES).text;
    const m = this.pattern.exec(this.window);
    return m ? m[0].slice(0, MAX_MATCH_REPORT) : undefined;
  }
}
