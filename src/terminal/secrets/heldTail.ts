/**
 * Output that arrives in pieces (a wait's `until` matching, background job output) is redacted
 * piece by piece; a secret cut between two pieces would be missed in both. So the end of a piece
 * that may be the head of a secret still arriving is held back and read with the next piece.
 * Output whose oldest part was dropped to a byte bound (a viewport, a job's unread output) may
 * start with the tail of a secret, which no rule knows without its head: that fragment goes.
 */
import { TOKEN_CHAR, WRAP_WIDTHS as WRAPPED_AT } from './redact';

/** Shortest run of token characters at the end of a piece held back as the possible head of a secret. */
export const HELD_RUN_UNITS = 6;
/** The run of token characters a text starts with (maybe empty). */
const LEADING_RUN = new RegExp(`^${TOKEN_CHAR.source}*`);
/** Widths at which programs wrap long text: a last line this wide may go on in the next piece. */
const WRAP_WIDTHS = new Set(WRAPPED_AT);

/** What replaces the fragment of a word a byte bound cut at the start of output (see withoutCutHead). */
export const CUT_HEAD = '…';

/**
 * `text`, whose oldest part was dropped to a byte bound, without the run of token characters it
 * starts with (at least HELD_RUN_UNITS of them, letters and digits both), which may be the tail of
 * a secret: replaced by CUT_HEAD. Unchanged when it starts otherwise.
 */
export function withoutCutHead(text: string): string {
  // One native match, not a test per character: a viewport may be one run of 256 KiB.
  const run = LEADING_RUN.exec(text)![0];
  const end = run.length;
  // Secrets mix letters and digits; a cut number or word is left as it is.
  return end >= HELD_RUN_UNITS && /[A-Za-z]/.test(run) && /[0-9]/.test(run) ? CUT_HEAD + text.slice(end) : text;
}

/** Longest unfinished last line held back whole (UTF-16 code units) where a caller holds lines. */
export const HELD_LINE_UNITS = 4096;

/**
 * Where the part of `text` that may be redacted and handed out now ends: before its unfinished
 * last line when `holdLine` (up to HELD_LINE_UNITS of it), else before a trailing run of
 * HELD_RUN_UNITS to HELD_LINE_UNITS token characters (a secret may still be arriving); and before
 * a last complete line as wide as a wrap width (it may continue on the next line).
 * `text.length` when none applies.
 */
export function unfinishedTail(text: string, holdLine = false): number {
  let cut = text.length;
  const lineStart = text.lastIndexOf('\n') + 1;
  // The trailing run, scanned back from the end (a regular expression anchored at `$` would try
  // every start), no further than a run that is held: a longer one is not.
  let runStart = text.length;
  const runLimit = Math.max(0, text.length - HELD_LINE_UNITS - 1);
  while (runStart > runLimit && TOKEN_CHAR.test(text[runStart - 1]!)) runStart--;
  if (holdLine && lineStart < text.length && text.length - lineStart <= HELD_LINE_UNITS) cut = lineStart;
  else if (text.length - runStart >= HELD_RUN_UNITS && text.length - runStart <= HELD_LINE_UNITS) cut = runStart;
  if (cut > 0 && text[cut - 1] === '\n') {
    const start = text.lastIndexOf('\n', cut - 2) + 1;
    const width = cut - 1 - start - (text[cut - 2] === '\r' ? 1 : 0);
    if (WRAP_WIDTHS.has(width)) cut = start;
  }
  return cut;
}
