/**
 * Line search in a worker thread within a time bound (common/boundedWorker.ts): the worker's
 * program and the job's shapes. A JavaScript regular expression cannot be interrupted once it
 * runs, and one with catastrophic backtracking (`(a+)+$` on a long line) runs for minutes: on the
 * extension host's thread that would stall every extension. Matches are posted as they are found,
 * so the ones found before the bound survive it. The workers are those of the shared pool
 * (matchPool.ts), which the composition root makes and disposes.
 */
import type { BoundedWorkers } from '../../common/boundedWorker';
import { LINE_SPLIT_MARKER } from './scrollback';
import { UNFINISHED_ESCAPE, UNTIL_CARRY_UNITS } from '../readiness/untilPattern';

/**
 * Longest escape sequence cut between two pieces of a line (scrollback.ts) that is still removed
 * whole (UTF-16 code units), as long as a wait's `until` holds one: a longer one (an OSC string
 * never ended) is made plain piece by piece, as ESCAPES reads each.
 */
const PIECE_CARRY_UNITS = UNTIL_CARRY_UNITS;

/** One search job: `bytes` holds the lines searched, oldest first, each followed by `\n`, in UTF-8. */
export interface SearchJob {
  /** Shared with the worker when it views a SharedArrayBuffer (see MatchPool.pageBuffer, matchPool.ts), else transferred (detached here once posted). */
  bytes: Uint8Array;
  /** Lines in `bytes`. */
  lineCount: number;
  /**
   * Indexes, ascending, of the lines that are a piece of a longer line continued by the next line
   * (Scrollback.utf8Lines): each ends with LINE_SPLIT_MARKER, which is not matched. The pieces are
   * matched as one line.
   */
  continued: number[];
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  /** Lines of context before and after each match. */
  context: number;
  /** Stop after this many matches. */
  maxMatches: number;
  /** Longest match line returned (UTF-16 code units, cut around the match); context lines are cut to half. */
  maxLineChars: number;
  /** Source of the global regular expression that removes escape sequences (plain text is searched). */
  escapes: string;
}

/**
 * A match as the worker reports it: `index` of its line in the job's lines (0 = oldest); for a
 * line stored in pieces, of the piece where the match starts.
 */
export interface WorkerMatch {
  index: number;
  /** Index of the newest piece of the line matched (`index` itself for a line in one piece). */
  last: number;
  /** UTF-16 offset of the match in the plain text of line `index`. */
  column: number;
  /** The plain line (all its pieces), cut around the match. */
  text: string;
  before: string[];
  after: string[];
}

/** What a finished, or stopped, job found. */
export interface WorkerOutcome {
  matches: WorkerMatch[];
  /**
   * Finished: the index of the next (older) line still to search, -1 when every line was searched.
   * Stopped by the time bound: the index of the line it was searching (of its oldest piece).
   */
  next: number;
  /** The time bound stopped the job. */
  timedOut: boolean;
}

/**
 * The worker's program. The page is decoded line by line; lines are searched newest first; each
 * is made plain (escapes removed) only when it holds ESC or CR. The pieces of a line stored in
 * several (`job.continued`) are made plain one by one, their markers dropped, and searched joined:
 * an escape sequence a piece ends inside is read with the next piece (up to PIECE_CARRY_UNITS), so
 * it is removed whole and the pieces joined read as the line unsplit; a match is reported at the
 * piece where it starts, its column in that piece's plain text (which starts where a sequence cut
 * at its start was). A piece shown as context reads as in its line, the piece before it read first.
 * Pieces are made plain one by one rather than joined first: V8 replaces in a string of 16 KiB
 * several times faster per unit than in one of 100 KiB. Before searching a
 * line it stores the index of its (oldest piece's) line in the shared `progress` (so the caller
 * knows where a stopped search was); it posts each `match`, then `done` with the index of the
 * next line to search.
 */
export const SEARCH_SOURCE = `
const { isAscii } = require('node:buffer');
const ascii = (bytes) => typeof isAscii === 'function' && isAscii(bytes);
// Line by line: one 4 MiB string is a large object whose fresh pages fault on every search (a
// median of 40 ms against 1.5 ms for the same text as lines, on this 2-core machine under load).
// An ASCII line reads the same as Latin-1, which decodes about 75 times faster than UTF-8.
const decode = (buffer) => {
  const lines = [];
  for (let from = 0; from < buffer.length; ) {
    let end = buffer.indexOf(10, from);
    if (end < 0) end = buffer.length;
    const line = buffer.subarray(from, end);
    lines.push(line.toString(ascii(line) ? 'latin1' : 'utf8'));
    from = end + 1;
  }
  return lines;
};
function runSearch({ job, progress }, post) {
  const lines = decode(Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength));
  const strip = new RegExp(job.escapes, 'g');
  const continued = new Set(job.continued);
  // Line i as stored, a piece's marker dropped.
  const stored = (i) => (continued.has(i) ? lines[i].slice(0, -${LINE_SPLIT_MARKER.length}) : lines[i]);
  const escaped = (text) => text.indexOf('\\x1b') >= 0 || text.indexOf('\\r') >= 0;
  const plainText = (text) => (escaped(text) ? text.replace(strip, '') : text);
  const unfinished = new RegExp(${JSON.stringify(UNFINISHED_ESCAPE.source)}, 'y');
  // Pieces first..last of a line (first = last for a line in one piece), each made plain in turn:
  // an escape sequence a continued piece ends inside, up to ${PIECE_CARRY_UNITS} units, is read
  // with the next piece (dropped when that piece is past \`last\`), so it is removed whole and the
  // next piece starts where it was. The pieces joined read as the line unsplit.
  const plainPieces = (first, last) => {
    const out = [];
    let carry = '';
    for (let j = first; j <= last; j++) {
      let text = carry ? carry + stored(j) : stored(j);
      carry = '';
      const at = continued.has(j) ? text.lastIndexOf('\\x1b') : -1;
      if (at >= 0 && text.length - at <= ${PIECE_CARRY_UNITS}) {
        unfinished.lastIndex = at;
        if (unfinished.test(text)) {
          carry = text.slice(at);
          text = text.slice(0, at);
        }
      }
      out.push(plainText(text));
    }
    return out;
  };
  // Line j as a context line; a piece as it reads in its line (the piece before it read first).
  const contextPiece = (j) => (j > 0 && continued.has(j - 1) ? plainPieces(j - 1, j)[1] : plainPieces(j, j)[0]);
  const cut = (line, column, max) => {
    if (line.length <= max) return line;
    const from = Math.max(0, Math.min(column - (max >> 2), line.length - max));
    return (from > 0 ? '…' : '') + line.slice(from, from + max) + (from + max < line.length ? '…' : '');
  };
  let find;
  if (job.regex) {
    const re = new RegExp(job.pattern, job.ignoreCase ? 'i' : '');
    find = (line) => { const m = re.exec(line); return m ? m.index : -1; };
  } else if (job.ignoreCase) {
    const re = new RegExp(job.pattern.replace(/[.*+?^\${}()|[\\]\\\\]/g, '\\\\$&'), 'i');
    find = (line) => { const m = re.exec(line); return m ? m.index : -1; };
  } else {
    find = (line) => line.indexOf(job.pattern);
  }
  let found = 0;
  let i = lines.length - 1;
  while (i >= 0 && found < job.maxMatches) {
    // The line's pieces: first..i (a line in one piece: i alone).
    let first = i;
    while (first > 0 && continued.has(first - 1)) first--;
    Atomics.store(progress, 0, first);
    // The line's plain text, and where each piece's starts in it.
    let line;
    const starts = [0];
    if (first === i && !continued.has(i)) {
      line = plainText(lines[i]);
    } else {
      const parts = plainPieces(first, i);
      for (let k = 1, length = 0; k < parts.length; k++) starts.push((length += parts[k - 1].length));
      line = parts.join('');
    }
    const column = find(line);
    if (column >= 0) {
      found++;
      let piece = starts.length - 1;
      while (piece > 0 && starts[piece] > column) piece--;
      const before = [];
      const after = [];
      for (let j = Math.max(0, first - job.context); j < first; j++) before.push(cut(contextPiece(j), 0, job.maxLineChars >> 1));
      for (let j = i + 1; j <= Math.min(lines.length - 1, i + job.context); j++) after.push(cut(contextPiece(j), 0, job.maxLineChars >> 1));
      post({ kind: 'match', match: { index: first + piece, last: i, column: column - starts[piece], text: cut(line, column, job.maxLineChars), before, after } });
    }
    i = first - 1;
  }
  post({ kind: 'done', next: i });
}
`;

/**
 * Runs `job` in one of `workers` (whose program holds SEARCH_SOURCE, dispatching `kind: 'search'`
 * to runSearch) and resolves with what it found, within `timeoutMs`: past it the worker is
 * terminated and the outcome has `timedOut` with the matches found until then, and `next` at the
 * line the search was on. The pattern must already compile (the caller checks it).
 * @throws Error when the worker fails (its message) or the pool was disposed.
 */
export function searchInWorker(workers: BoundedWorkers, job: SearchJob, timeoutMs: number): Promise<WorkerOutcome> {
  const matches: WorkerMatch[] = [];
  const progress = new Int32Array(new SharedArrayBuffer(4));
  progress[0] = job.lineCount - 1;
  const shared = job.bytes.buffer instanceof SharedArrayBuffer;
  return workers.run<{ kind: 'match' | 'done'; next?: number; match?: WorkerMatch }, WorkerOutcome>(
    { kind: 'search', job, progress },
    shared ? [] : [job.bytes.buffer as ArrayBuffer],
    (m) => {
      if (m.match) matches.push(m.match);
      return m.kind === 'done' ? { done: { matches, next: m.next ?? -1, timedOut: false } } : undefined;
    },
    timeoutMs,
    () => ({ matches, next: Atomics.load(progress, 0), timedOut: true }),
  );
}
