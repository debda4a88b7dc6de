/**
 * Output that arrives in pieces (a wait's `until` matching, background job output) is redacted
 * piece by piece; a secret cut between two pieces would be missed in both. So the end of a piece
 * that may be the head of a secret still arriving is held back and read with the next piece.
 */

/** Shortest run of token characters at the end of a piece held back as the possible head of a secret. */
export const HELD_RUN_UNITS = 6;
/** Widths at which programs wrap long text: a last line this wide may go on in the next piece. */
const WRAP_WIDTHS = new Set([76, 80]);

/**
 * Where the part of `text` that may be redacted and handed out now ends: before a trailing run of
 * at least HELD_RUN_UNITS token characters (a secret may still be arriving), or before a last line
 * as wide as a wrap width (it may continue on the next line); `text.length` when neither.
 */
export function unfinishedTail(text: string): number {
  const run = /[A-Za-z0-9+/=_\-.~]+$/.exec(text);
  if (run && run[0].length >= HELD_RUN_UNITS) return run.index;
  if (text.endsWith('\n')) {
    const start = text.lastIndexOf('\n', text.length - 2) + 1;
    const width = text.length - 1 - start - (text.endsWith('\r\n') ? 1 : 0);
    if (WRAP_WIDTHS.has(width)) return start;
  }
  return text.length;
}
