/**
 * The `until` pattern of a wait: a JavaScript regular expression matched against the output that
 * arrived since the wait began, as plain text (ECMA-48 escape sequences and carriage returns
 * removed, lines joined by `\n`), as it arrives: each match reads what arrived since the last one
 * and the newest UNTIL_WINDOW_BYTES before it (see UntilMatcher). Matched in a worker thread within
 * a time bound (untilMatchThread.ts): a pattern that backtracks without bound never holds the
 * calling thread, and is stopped with an error saying so.
 */
import { errorMessage } from '../../common/errorMessage';
import { TerminalError } from '../errors';
import { tailByBytes } from '../output/byteTail';
import type { WorkerMatchOutcome } from './untilMatchThread';
import { quoteInput } from '../../common/quoteInput';
import { unfinishedTail } from '../secrets/heldTail';

/** Longest pattern accepted (UTF-16 code units, as String.length counts). */
export const MAX_UNTIL_LENGTH = 1000;
/** Of the text one match read, what the next match reads again before the new output (UTF-8 bytes): a match may straddle the two. */
export const UNTIL_WINDOW_BYTES = 8 * 1024;
/**
 * Most output that arrived while a match was in flight read by the next match (UTF-16 code
 * units); in a flood beyond it, the oldest is dropped.
 */
export const UNTIL_PENDING_UNITS = 1024 * 1024;
/**
 * Longest unfinished escape sequence or string at the end of a chunk of output held back to be
 * completed by the next chunk (UTF-16 code units). A longer one (an OSC string never ended, a
 * stray ESC ] in binary output) is given up: it is taken as it stands (what ESCAPES removes of
 * it is removed) and the rest of it, in later output, reads as text.
 */
export const UNTIL_CARRY_UNITS = 4096;
/**
 * Text read by one match (UTF-16 code units) from which a match stopped at its time bound is said
 * to have read a flood of output: so much text may itself be why it took that long.
 */
const UNTIL_FLOOD_UNITS = UNTIL_PENDING_UNITS / 2;
/** Longest matched text reported back (UTF-16 code units). */
const MAX_MATCH_REPORT = 200;

/** CSI, OSC/DCS/APC/PM/SOS strings, and two-byte escapes (ECMA-48 §5.3–5.6), plus CR. */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]|\r/g;
/**
 * What ESCAPES would read as the start of a longer sequence, from an ESC to the end of the text:
 * a lone ESC or ESC with intermediates (no final yet), a CSI without its final, an OSC/DCS/APC/
 * PM/SOS string without its BEL or ST (an ESC ending it is the last ESC, so a string cut inside
 * its ST ends where ESCAPES ends it, and the ST's ESC is what is held). Sticky: matched from the
 * last ESC (see unfinishedEscapeStart). The scrollback search reads a line cut in pieces with it
 * (searchWorker.ts): its escapes are these but for strings ending at a line's end, and a piece
 * holds no line end.
 */
export const UNFINISHED_ESCAPE = /\x1b(?:\[[0-?]*[ -/]*|[\]PX^_][^\x07\x1b]*|[ -/]*)$/y;

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
    throw new TerminalError(
      'INVALID_ARGUMENT',
      `until is not a valid JavaScript regular expression: ${errorMessage(error)}. Escape special characters such as ( ) [ ] . * + ? with a backslash`,
    );
  }
}

/** Output text as the pattern sees it: escape sequences and carriage returns removed. */
export function plainText(text: string): string {
  return text.replace(ESCAPES, '');
}

/**
 * Where an escape sequence that `text` ends inside begins (a UTF-16 offset), as ESCAPES reads
 * sequences: the next output may complete it. -1 when `text` ends outside any: only a sequence
 * from the last ESC on can be unfinished, since every one ESCAPES removes starts at an ESC and
 * none holds another ESC but the ST that ends a string.
 */
export function unfinishedEscapeStart(text: string): number {
  const last = text.lastIndexOf('\x1b');
  if (last < 0) return -1;
  UNFINISHED_ESCAPE.lastIndex = last;
  return UNFINISHED_ESCAPE.test(text) ? last : -1;
}

/**
 * The newest UNTIL_WINDOW_BYTES of `text` that the next match reads again, starting after a blank
 * or line end: a window never starts inside a word, which could be the tail of a secret the
 * rules cannot tell without its head.
 */
function windowOf(text: string): string {
  const tail = tailByBytes(text, UNTIL_WINDOW_BYTES).text;
  if (tail.length === text.length) return tail;
  const blank = tail.search(/\s/);
  return blank < 0 ? '' : tail.slice(blank);
}

/** What a wait learns from its {@link UntilMatcher}, once. */
export interface UntilListener {
  /** The pattern matched: the matched text, at most 200 UTF-16 code units. */
  matched(text: string): void;
  /**
   * The pattern was stopped at its time bound (TerminalError INVALID_ARGUMENT saying so and what to
   * do), or its worker failed (that error); nothing more is matched.
   */
  failed(error: Error): void;
}

/**
 * Accumulates the plain output of a wait and matches the pattern against it in a worker thread
 * (untilMatchThread.ts), one match at a time. Each match reads the newest UNTIL_WINDOW_BYTES of
 * what the previous one read (a match may straddle the two) and everything that arrived since,
 * up to UNTIL_PENDING_UNITS of it (beyond that, in a flood, the oldest is dropped): output that
 * arrives while a match is in flight is matched next, never skipped. Tells `listener` once, when
 * the pattern matched or was stopped.
 */
export class UntilMatcher {
  /** The newest UNTIL_WINDOW_BYTES of the text the last match read. */
  private window = '';
  /** Plain output that arrived since the last match was posted, in pieces (joined once, by the match). */
  private pending: string[] = [];
  /** UTF-16 code units in `pending`. */
  private pendingUnits = 0;
  /** The unfinished escape sequence the last chunk ended with (raw, at most UNTIL_CARRY_UNITS), completed by the next chunk. */
  private carry = '';
  private inFlight = false;
  private done = false;

  /**
   * @param redact redacts secrets in the text a match reads (secrets/secretRedactor.ts): the
   *   pattern matches the redacted text, never a secret.
   * @param matchInPool matches the pattern against a text in a worker thread of the shared pool,
   *   within UNTIL_MATCH_MS (output/matchPool.ts, OwnerJobs.matchUntil).
   */
  constructor(
    readonly pattern: RegExp,
    private readonly redact: (text: string) => Promise<string>,
    private readonly matchInPool: (pattern: RegExp, text: string) => Promise<WorkerMatchOutcome>,
    private readonly listener: UntilListener,
  ) {}

  /**
   * Adds output (raw terminal text, continuing the text of earlier calls); it is matched as soon
   * as no match is in flight. An escape sequence it ends inside is held back, up to
   * UNTIL_CARRY_UNITS, and read with the next output, so a sequence cut between two chunks is
   * removed whole; the text before it is matched now.
   */
  push(text: string): void {
    if (this.done) return;
    let raw = this.carry + text;
    this.carry = '';
    const open = unfinishedEscapeStart(raw);
    if (open >= 0 && raw.length - open <= UNTIL_CARRY_UNITS) {
      this.carry = raw.slice(open);
      raw = raw.slice(0, open);
    }
    const plain = plainText(raw);
    if (!plain) return;
    this.pending.push(plain);
    this.pendingUnits += plain.length;
    // In a flood past the bound, whole older pieces go (cheap per piece; the match cuts the rest).
    while (this.pending.length > 1 && this.pendingUnits - this.pending[0]!.length >= UNTIL_PENDING_UNITS)
      this.pendingUnits -= this.pending.shift()!.length;
    if (!this.inFlight) this.match();
  }

  /** The wait ended: nothing more is matched or told. */
  stop(): void {
    this.done = true;
  }

  private match(): void {
    const joined = this.pending.join('');
    const whole = this.window + (joined.length > UNTIL_PENDING_UNITS ? joined.slice(-UNTIL_PENDING_UNITS) : joined);
    // What may be the head of a secret still arriving waits for the rest: matched redacted, whole.
    const cut = Math.max(unfinishedTail(whole), this.window.length);
    const text = whole.slice(0, cut);
    this.pending = cut < whole.length ? [whole.slice(cut)] : [];
    this.pendingUnits = whole.length - cut;
    if (text.length <= this.window.length) return;
    this.window = windowOf(text);
    this.inFlight = true;
    const read = text.length;
    this.redact(text)
      .then((redacted) => this.matchInPool(this.pattern, redacted))
      .then(
        (outcome) => {
          this.inFlight = false;
          if (this.done) return;
          if (outcome.kind === 'matched') {
            this.done = true;
            this.listener.matched(outcome.text.slice(0, MAX_MATCH_REPORT));
          } else if (outcome.kind === 'stopped') {
            this.done = true;
            const flood = read >= UNTIL_FLOOD_UNITS;
            this.listener.failed(
              new TerminalError(
                'INVALID_ARGUMENT',
                `until ${quoteInput(this.pattern.source)} was stopped: one match against the output took more than ${outcome.afterMs} ms, as a pattern does that backtracks without bound (nested quantifiers such as (a+)+, or several .* before text that is absent).` +
                  (flood
                    ? ` That match read ${read} characters (UTF-16 code units) of output that arrived in a flood: on that much text even a pattern without nested quantifiers can take that long, so the flood may be the cause.`
                    : '') +
                  ` The wait ended; the command goes on and its output is in the scrollback (dsh_terminal_read). Wait again with a simpler pattern, e.g. a literal word` +
                  (flood ? ', or search the output with dsh_terminal_read and search once the flood is over' : ''),
              ),
            );
          } else if (this.pending.length > 0) {
            this.match();
          }
        },
        (error: Error) => {
          this.inFlight = false;
          if (this.done) return;
          this.done = true;
          this.listener.failed(error);
        },
      );
  }
}
