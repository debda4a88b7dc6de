/**
 * Search in a session's scrollback, or in one command's output: a literal text or a JavaScript
 * regular expression, matched line by line against the plain text of each line (escape sequences
 * and carriage returns removed, as `until` sees output), newest match first, with context lines,
 * a bounded number of matches per page and a time bound per call. The search runs in a worker
 * thread (searchWorker.ts): a pattern that backtracks for minutes is cut at the time bound with a
 * note, and the extension host's thread is never held by it.
 */
import { quoteInput } from '../../common/quoteInput';
import { checkInteger } from '../../common/integerInput';
import { errorMessage } from '../../common/errorMessage';
import type { CommandHistory } from '../history/commandHistory';
import { invalidArgument, TerminalError } from '../errors';
import type { Scrollback } from './scrollback';
import type { SearchThreads } from './matchPool';
import { WITHHELD_NOTICE } from '../secrets/secretRedactor';

/** Longest pattern accepted (UTF-16 code units). */
export const MAX_SEARCH_PATTERN = 1000;
/** Context lines before and after a match, at most. */
export const MAX_SEARCH_CONTEXT = 10;
/** Matches per page: default and maximum. */
export const DEFAULT_SEARCH_MATCHES = 20;
export const MAX_SEARCH_MATCHES = 100;
/** Time bound of one search (ms): default and maximum. */
export const DEFAULT_SEARCH_MS = 2000;
export const MAX_SEARCH_MS = 10_000;
/** A match line is shown cut to this many characters around the match; context lines to half. */
const MAX_MATCH_LINE_CHARS = 400;
/** Characters of matched and context text in one result, at most; later matches go to the next page. */
const MAX_RESULT_CHARS = 96 * 1024;
/**
 * Escape sequences removed before matching (ECMA-48 §5.3–5.6: CSI; OSC, DCS, APC, PM, SOS strings;
 * two-byte escapes) and CR. A string never runs past the end of its line.
 */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b\n]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]|\r/g;

/** A search request (see dsh_terminal_read's `search`). */
export interface SearchRequest {
  /** The text, or with `regex` the JavaScript regular expression, a line must contain. */
  pattern: string;
  regex?: boolean;
  ignoreCase?: boolean;
  /** Lines of context before and after each match; default 0, at most MAX_SEARCH_CONTEXT. */
  context?: number;
  /** Matches in this page; default DEFAULT_SEARCH_MATCHES, at most MAX_SEARCH_MATCHES. */
  maxMatches?: number;
  /** Lines back from the newest (of the command's output, with `command`) where the search starts. Default 0. */
  offset?: number;
  /** Search only the retained output of this command (its index in the command record). */
  command?: number;
  /** Time bound in ms; default DEFAULT_SEARCH_MS, at most MAX_SEARCH_MS. */
  timeoutMs?: number;
}

/**
 * One matching line. A line longer than the scrollback's line limit, stored as several lines
 * (pieces ending with LINE_SPLIT_MARKER, scrollback.ts), is matched whole, markers left out, as
 * the same line unsplit (an escape sequence cut between two pieces is removed whole): a match may
 * straddle two pieces, and is placed at the piece where it starts.
 */
export interface SearchMatch {
  /** Absolute line number (0-based since the session opened: `firstLineNumber` of a read). */
  line: number;
  /** Lines back from the newest line of the scrollback now: a read with this offset ends at it. */
  offset: number;
  /** Index of the command whose output holds the line, when it is recorded. */
  command?: number;
  /**
   * UTF-16 offset (0-based) of the match in the plain text of line `line`; for a line in pieces, in
   * that piece's part of the line's plain text (a sequence cut at the piece's start is removed, so
   * the piece's plain text starts after it).
   */
  column: number;
  /** The plain line (all its pieces), cut around the match to MAX_MATCH_LINE_CHARS with `…` where cut. */
  text: string;
  /** Context lines, oldest first, cut to half that length. */
  before?: string[];
  after?: string[];
}

/** A page of matches, newest first. */
export interface SearchResult {
  matches: SearchMatch[];
  /** Lines searched by this call. */
  searchedLines: number;
  /** Lines in the range searched: the retained scrollback, or the command's retained output. */
  totalLines: number;
  /** More lines remain older than the ones searched: pass as `offset` to continue. */
  nextOffset?: number;
  /** The time bound stopped the search. */
  timedOut?: true;
  /** What stopped it, when it is not the end of the range; and what of a command's output is gone. */
  note?: string;
}

/**
 * Searches `scrollback` (or command `request.command`'s output, `history` telling where it is)
 * as {@link SearchRequest} says, in the lines as `redact` returns them (secrets redacted, each line
 * kept: secrets/secretRedactor.ts), so no pattern reads a secret piece by piece.
 * @throws TerminalError INVALID_ARGUMENT for a bad field (naming it and what is valid), a pattern
 *   that does not compile, or an unknown command; Error when the worker fails.
 */
export async function searchScrollback(
  scrollback: Scrollback,
  history: CommandHistory,
  request: SearchRequest,
  redact: (texts: string[]) => Promise<string[]>,
  threads: SearchThreads,
): Promise<SearchResult> {
  const pattern = checkPattern(request);
  const context = checkInteger(request.context, 'context', { min: 0, max: MAX_SEARCH_CONTEXT }, invalidArgument, 0);
  const maxMatches = checkInteger(
    request.maxMatches,
    'maxMatches',
    { min: 1, max: MAX_SEARCH_MATCHES },
    invalidArgument,
    DEFAULT_SEARCH_MATCHES,
  );
  const offset = checkInteger(request.offset, 'offset', { min: 0 }, invalidArgument, 0);
  const timeoutMs = checkInteger(
    request.timeoutMs,
    'timeoutMs',
    { min: 1, max: MAX_SEARCH_MS, note: 'in milliseconds' },
    invalidArgument,
    DEFAULT_SEARCH_MS,
  );
  // The range, in the scrollback's newest-first lines: `base` back from the newest, `total` lines.
  let base = 0;
  let total = scrollback.totalLines;
  let evicted: string | undefined;
  if (request.command !== undefined) {
    const output = history.get(request.command).output;
    base = output.offset;
    total = output.lineCount;
    if (output.truncated) {
      evicted = `${output.lineCount === 0 ? 'all' : `the oldest ${output.droppedLines}`} of the ${output.droppedLines! + output.lineCount} lines of command ${request.command}'s output are no longer in the scrollback (evicted by newer output)${output.lineCount ? '; the rest was searched' : ''}`;
    }
  }
  const from = Math.min(offset, total);
  const lease = threads.pageBuffer();
  const page = scrollback.utf8Lines(base + from, total - from, lease.get);
  if (request.command !== undefined && from === 0 && page.lineCount > 0) {
    // The command's last line ends with what followed it there (the next prompt, what was typed at it).
    const tail = history.bytesAfterEnd(request.command);
    if (tail > 0) {
      page.bytes = withoutLastLineTail(page.bytes, tail);
      // Cut, the last line no longer ends with the marker of a piece (a line split after the
      // command ended): the worker must not drop its last character as one.
      if (page.continued[page.continued.length - 1] === page.lineCount - 1) page.continued.pop();
    }
  }
  const { lineCount } = page;
  const result: SearchResult = { matches: [], searchedLines: 0, totalLines: total };
  if (evicted) result.note = evicted;
  let outcome;
  try {
    if (lineCount === 0) return result;
    // The pattern reads the lines as an agent may: secrets redacted (their line count kept).
    const [redacted] = await redact([new TextDecoder().decode(page.bytes)]);
    if (redacted!.startsWith(WITHHELD_NOTICE))
      result.note = `${result.note ? `${result.note}; ` : ''}nothing was searched: checking the output for secrets did not finish in time, so it is withheld; search a smaller range (offset, command)`;
    page.bytes = new TextEncoder().encode(redacted);
    outcome = await threads.search(
      {
        bytes: page.bytes,
        lineCount,
        continued: page.continued,
        pattern,
        regex: request.regex === true,
        ignoreCase: request.ignoreCase === true,
        context,
        maxMatches,
        maxLineChars: MAX_MATCH_LINE_CHARS,
        escapes: ESCAPES.source,
      },
      timeoutMs,
    );
  } catch (error) {
    throw new Error(`the search failed: ${errorMessage(error)}`, { cause: error });
  } finally {
    lease.release();
  }
  // Output may have arrived while the worker ran: offsets are taken now, from absolute lines.
  const now = scrollback.position();
  const newestEnd = now.endLine + (now.open ? 1 : 0);
  const rangeEnd = request.command === undefined ? newestEnd : commandEnd(history, request.command, newestEnd);
  let chars = 0;
  // The index (in the page) of the next line to search: -1 when none is left.
  let next = outcome.timedOut ? outcome.next - 1 : outcome.next;
  let cut = false;
  for (const m of outcome.matches) {
    const size = m.text.length + m.before.reduce((n, l) => n + l.length, 0) + m.after.reduce((n, l) => n + l.length, 0);
    if (result.matches.length > 0 && chars + size > MAX_RESULT_CHARS) {
      next = m.last;
      cut = true;
      break;
    }
    chars += size;
    const line = page.firstLineNumber + m.index;
    const match: SearchMatch = { line, offset: newestEnd - 1 - line, column: m.column, text: m.text };
    const command = history.commandAt(line);
    if (command !== undefined) match.command = command;
    if (m.before.length) match.before = m.before;
    if (m.after.length) match.after = m.after;
    result.matches.push(match);
  }
  result.searchedLines = lineCount - 1 - (cut ? next : outcome.next);
  if (next >= 0) result.nextOffset = Math.max(0, rangeEnd - 1 - (page.firstLineNumber + next));
  if (outcome.timedOut) {
    result.timedOut = true;
    result.note =
      `the search stopped at its time bound (${timeoutMs} ms) while matching line ${page.firstLineNumber + outcome.next}, after ${result.searchedLines} lines and ${result.matches.length} matches: ` +
      'a regular expression with nested quantifiers such as (a+)+ can take exponential time on a long line. Simplify the pattern (or search literal text)' +
      (result.nextOffset !== undefined ? `, or continue past that line with offset ${result.nextOffset}` : '');
  } else if (next >= 0) {
    result.note = `${result.matches.length} matches shown (this page's limit); older lines are not searched yet: continue with offset ${result.nextOffset}`;
  }
  if (evicted && result.note !== evicted) result.note = `${result.note}. Also: ${evicted}`;
  return result;
}

/** The absolute end (exclusive) of command `index`'s output now. */
function commandEnd(history: CommandHistory, index: number, newestEnd: number): number {
  try {
    const output = history.get(index).output;
    return output.firstLineNumber + output.lineCount;
  } catch {
    return newestEnd; // forgotten by the record meanwhile
  }
}

function checkPattern(request: SearchRequest): string {
  const { pattern } = request;
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > MAX_SEARCH_PATTERN) {
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `search must be a non-empty string of at most ${MAX_SEARCH_PATTERN} characters (got ${quoteInput(pattern)})`,
    );
  }
  for (const key of ['regex', 'ignoreCase'] as const) {
    if (request[key] !== undefined && typeof request[key] !== 'boolean')
      throw new TerminalError('INVALID_ARGUMENT', `${key} must be true or false (got ${quoteInput(request[key])})`);
  }
  if (pattern.includes('\n'))
    throw new TerminalError('INVALID_ARGUMENT', 'search matches one line at a time: the pattern cannot hold a newline');
  if (request.regex) {
    try {
      new RegExp(pattern, request.ignoreCase ? 'i' : '');
    } catch (error) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `search is not a valid JavaScript regular expression: ${errorMessage(error)}. Without regex: true it is matched as literal text`,
      );
    }
  }
  return pattern;
}

/**
 * `bytes` (UTF-8 lines, each followed by `\n`) with the last `tail` bytes of its last line removed
 * (the whole line's text at most), its `\n` kept: a view of the same memory, written in place.
 */
function withoutLastLineTail(bytes: Uint8Array, tail: number): Uint8Array {
  if (tail <= 0 || bytes.length === 0) return bytes;
  const end = bytes.length - 1; // the last line's `\n`
  const start = bytes.lastIndexOf(0x0a, end - 1) + 1;
  const cut = Math.max(start, end - tail);
  bytes[cut] = 0x0a;
  return bytes.subarray(0, cut + 1);
}
