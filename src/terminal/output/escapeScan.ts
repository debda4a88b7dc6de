/**
 * Terminal text scanned without an emulator, in time linear in its length: where to cut it into
 * chunks of bounded rendering cost (`renderChunks`), its plain text with every escape sequence
 * and control character removed (`plainText`), and what a person's panel terminal is given of it
 * (`PanelFilter`: OSC strings other than hyperlinks emptied, counts that make a terminal loop
 * lowered to what its screen shows).
 *
 * The scanner follows the parser of xterm.js (src/common/parser/EscapeSequenceParser.ts, the DEC
 * ANSI parser of https://vt100.net/emu/dec_ansi_parser with xterm.js's own choices): ESC, CAN, SUB
 * and the C1 controls U+0080–U+009F act in every state (U+009B is CSI, U+009D OSC, U+0090 DCS,
 * U+0098/U+009E/U+009F SOS/PM/APC, U+009C ST); C0 controls inside a CSI are executed without ending
 * it; a character from U+00A0 on ends a CSI, an ESC sequence, a DCS header or a SOS/PM/APC string
 * (they fall back to text) but is part of an OSC or DCS string. A cost estimate that is off only
 * moves a chunk boundary; it never changes what the emulator renders.
 * One concept in one file (over 400 lines): scanning terminal text without an emulator.
 */
import { COUNTED_FINALS, CountedFinal, Geometry, boundCount } from './escapeCounts';
import { isHighSurrogate } from '../../common/textHead';

/** Estimated cost (cell writes) of one chunk before a cut; one chunk renders in a few ms. */
export const CHUNK_COST = 64 * 1024;
/** Most UTF-16 units in one chunk, whatever their estimate (covers work the estimate does not see). */
export const CHUNK_UNITS = 4096;

const enum S {
  Ground,
  Escape,
  EscInter,
  CsiEntry,
  CsiParam,
  CsiInter,
  CsiIgnore,
  Osc,
  DcsEntry,
  DcsParam,
  DcsInter,
  DcsIgnore,
  DcsPass,
  Sos,
}

/** What one UTF-16 unit did to the parser. */
const enum A {
  /** Printed (Ground). */
  Print,
  /** A C0/C1 control executed. */
  Execute,
  /** Consumed without effect (a byte of a sequence or a string). */
  Ignore,
  /** A CSI sequence started (its parameters cleared). */
  CsiStart,
  /** A parameter character of a CSI (digit, `;` or `:`). */
  Param,
  /** A prefix or intermediate character of a CSI or ESC sequence. */
  Collect,
  CsiDispatch,
  EscDispatch,
}

/** Is `c` a C0 control xterm.js executes (not CAN, SUB, ESC)? */
const isC0 = (c: number) => c < 0x20 && c !== 0x18 && c !== 0x1a && c !== 0x1b;

/**
 * One parser step: the action of unit `c` in `state`, packed as `action << 4 | next state`.
 * Surrogates (U+D800–U+DFFF) count as characters from U+00A0 on, as the code points they form do.
 */
function step(state: S, c: number): number {
  // Anywhere.
  if (c === 0x1b) return (A.Ignore << 4) | S.Escape;
  if (c === 0x18 || c === 0x1a) return (A.Execute << 4) | S.Ground;
  if (c >= 0x80 && c < 0xa0) {
    switch (c) {
      case 0x9b:
        return (A.CsiStart << 4) | S.CsiEntry;
      case 0x9d:
        return (A.Ignore << 4) | S.Osc;
      case 0x90:
        return (A.Ignore << 4) | S.DcsEntry;
      case 0x98:
      case 0x9e:
      case 0x9f:
        return (A.Ignore << 4) | S.Sos;
      case 0x9c:
        return (A.Ignore << 4) | S.Ground;
      default:
        return (A.Execute << 4) | S.Ground;
    }
  }
  const high = c >= 0xa0;
  switch (state) {
    case S.Ground:
      if (c < 0x20) return (A.Execute << 4) | S.Ground;
      return ((c === 0x7f ? A.Ignore : A.Print) << 4) | S.Ground;
    case S.Escape:
      if (isC0(c)) return (A.Execute << 4) | S.Escape;
      if (c === 0x7f) return (A.Ignore << 4) | S.Escape;
      if (high) return (A.Ignore << 4) | S.Ground;
      if (c < 0x30) return (A.Collect << 4) | S.EscInter;
      if (c === 0x5b) return (A.CsiStart << 4) | S.CsiEntry;
      if (c === 0x5d) return (A.Ignore << 4) | S.Osc;
      if (c === 0x50) return (A.Ignore << 4) | S.DcsEntry;
      if (c === 0x58 || c === 0x5e || c === 0x5f) return (A.Ignore << 4) | S.Sos;
      return (A.EscDispatch << 4) | S.Ground;
    case S.EscInter:
      if (isC0(c)) return (A.Execute << 4) | S.EscInter;
      if (c === 0x7f) return (A.Ignore << 4) | S.EscInter;
      if (high) return (A.Ignore << 4) | S.Ground;
      if (c < 0x30) return (A.Collect << 4) | S.EscInter;
      return (A.EscDispatch << 4) | S.Ground;
    case S.CsiEntry:
    case S.CsiParam:
    case S.CsiInter:
      if (isC0(c)) return (A.Execute << 4) | state;
      if (c === 0x7f) return (A.Ignore << 4) | state;
      if (high) return (A.Ignore << 4) | S.Ground;
      if (c >= 0x40) return (A.CsiDispatch << 4) | S.Ground;
      if (c < 0x30) return (A.Collect << 4) | S.CsiInter;
      if (state === S.CsiInter) return (A.Ignore << 4) | S.CsiIgnore;
      if (c < 0x3c) return (A.Param << 4) | S.CsiParam;
      return state === S.CsiEntry ? (A.Collect << 4) | S.CsiParam : (A.Ignore << 4) | S.CsiIgnore;
    case S.CsiIgnore:
      if (isC0(c)) return (A.Execute << 4) | S.CsiIgnore;
      return (A.Ignore << 4) | (c >= 0x40 && c < 0x7f ? S.Ground : S.CsiIgnore);
    case S.Osc:
      return (A.Ignore << 4) | (c === 0x07 ? S.Ground : S.Osc);
    case S.Sos:
      return (A.Ignore << 4) | (high ? S.Ground : S.Sos);
    case S.DcsEntry:
    case S.DcsParam:
    case S.DcsInter:
      if (c < 0x20 || c === 0x7f) return (A.Ignore << 4) | state;
      if (high) return (A.Ignore << 4) | S.Ground;
      if (c >= 0x40) return (A.Ignore << 4) | S.DcsPass;
      if (c < 0x30) return (A.Ignore << 4) | S.DcsInter;
      if (state === S.DcsInter || (state === S.DcsParam && c >= 0x3c)) return (A.Ignore << 4) | S.DcsIgnore;
      return (A.Ignore << 4) | S.DcsParam;
    case S.DcsIgnore:
    case S.DcsPass:
      return (A.Ignore << 4) | state;
  }
}

/** How far back `cleanStart` looks for the start of a sequence a cut may fall in (UTF-16 units). */
export const CLEAN_START_LOOKBACK = 4096;

/** Is `c` a unit that starts a sequence or a string (ESC, or the C1 CSI, OSC, DCS, SOS, PM, APC)? */
const isIntroducer = (c: number) => c === 0x1b || c === 0x9b || c === 0x9d || c === 0x90 || c === 0x98 || c === 0x9e || c === 0x9f;

/**
 * Where the escape sequence or string still open at offset `at` of `text` begins (the offset of its
 * ESC or C1 introducer), or -1 when none is. The text is parsed from the first introducer in the
 * CLEAN_START_LOOKBACK units before `at` (every introducer restarts the parser, so the state from
 * there is the state from the start) up to `at`: the ESC of a string terminator (`ESC \`) belongs
 * to the string it ends. Only `text` before `at` is read; linear in the look-back.
 */
export function openSequenceStart(text: string, at: number): number {
  return scanOpen(text, at).start;
}

/** The parse of `text` up to `at` from the first introducer in the look-back: the open sequence's start (-1: none) and the parser's state at `at`. */
function scanOpen(text: string, at: number): { start: number; state: S } {
  const end = Math.min(at, text.length);
  let i = Math.max(0, at - CLEAN_START_LOOKBACK);
  while (i < end && !isIntroducer(text.charCodeAt(i))) i++;
  let state = S.Ground;
  let start = -1;
  for (; i < end; i++) {
    const next: S = step(state, text.charCodeAt(i)) & 15;
    if (state === S.Ground && next !== S.Ground) start = i;
    state = next;
  }
  return state === S.Ground ? { start: -1, state } : { start, state };
}

/**
 * Where text kept from `at` on (a tail cut from a longer text) starts cleanly: `at` itself unless
 * an escape sequence or string is open there (openSequenceStart), else the offset just past that
 * sequence's end (`text.length` when it never ends), so the tail never starts with the rest of a
 * sequence (`31m` printed as text). A character from U+00A0 on that ends a sequence is kept: it is
 * text. Linear in the look-back and the sequence's length.
 */
export function cleanStart(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const open = scanOpen(text, at);
  if (open.start < 0) return at;
  let state = open.state;
  let end = at;
  while (state !== S.Ground && end < text.length) state = step(state, text.charCodeAt(end++)) & 15;
  if (state === S.Ground && text.charCodeAt(end - 1) >= 0xa0) end--;
  return end;
}

const COUNTED = new Set<number>(COUNTED_FINALS.map((f) => f.charCodeAt(0)));
const MAX_PARAM = 0x7fffffff;

/**
 * End offsets (exclusive, in UTF-16 units of `text`; the last is `text.length`) of consecutive
 * chunks of `text` whose rendering on an emulator of `geometry` is estimated at about CHUNK_COST
 * cell writes each, or CHUNK_UNITS units, whichever comes first. A single sequence costs at most
 * about a screen (`cols` × `rows`) once its count is bounded (escapeCounts.ts). No cut falls inside
 * a CSI sequence or between the two halves of a surrogate pair. Empty text has no chunk.
 */
export function renderChunks(text: string, geometry: Geometry): number[] {
  const { cols, rows } = geometry;
  const screen = cols * rows;
  const ends: number[] = [];
  let state = S.Ground;
  let cost = 0;
  let start = 0;
  // The CSI being read: its collected prefix/intermediates, its first parameter, whether that is done.
  let collected = 0;
  let first = 0;
  let firstDone = false;
  let escCollect = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const packed = step(state, c);
    const action = packed >> 4;
    state = packed & 15;
    switch (action) {
      case A.Print:
        cost += 1;
        break;
      case A.Execute:
        // LF, VT, FF scroll (a scroll region moves its rows); HT walks the tab stops.
        cost += c === 0x0a || c === 0x0b || c === 0x0c ? rows : c === 0x09 ? cols : 1;
        break;
      case A.CsiStart:
        collected = 0;
        first = 0;
        firstDone = false;
        cost += 1;
        break;
      case A.Param:
        if (c === 0x3b || c === 0x3a) firstDone = true;
        else if (!firstDone) first = Math.min(MAX_PARAM, first * 10 + (c - 0x30));
        cost += 1;
        break;
      case A.Collect:
        if (state === S.EscInter) escCollect = c;
        else collected = collected * 128 + c;
        cost += 1;
        break;
      case A.CsiDispatch:
        cost += csiCost(collected, c, first, geometry, screen);
        break;
      case A.EscDispatch:
        cost += escCost(escCollect, c, geometry, screen);
        escCollect = 0;
        break;
      default:
        if (state === S.Escape) escCollect = 0;
        cost += 1;
    }
    const inCsi = state >= S.CsiEntry && state <= S.CsiIgnore;
    if ((cost >= CHUNK_COST || i + 1 - start >= CHUNK_UNITS) && !inCsi && !(c >= 0xd800 && c < 0xdc00)) {
      ends.push(i + 1);
      start = i + 1;
      cost = 0;
    }
  }
  if (start < text.length) ends.push(text.length);
  return ends;
}

/**
 * Estimated cell writes of the ESC sequence with intermediate `collect` (0 if none) and final `final`
 * on an emulator of `geometry` (`screen` = cols × rows): DECALN (ESC # 8) fills the screen and RIS
 * (ESC c) rebuilds it; IND and NEL (ESC D, ESC E) may scroll the rows; RI (ESC M) at the scroll
 * region's top moves its rows and brings in a new line of `cols` cells; anything else, 1.
 */
function escCost(collect: number, final: number, geometry: Geometry, screen: number): number {
  if ((collect === 0x23 && final === 0x38) || (collect === 0 && final === 0x63)) return screen;
  if (collect === 0 && (final === 0x44 || final === 0x45)) return geometry.rows;
  if (collect === 0 && final === 0x4d) return geometry.rows + geometry.cols;
  return 1;
}

/** Estimated cell writes of one CSI sequence, its count bounded as the renderer bounds it. */
function csiCost(collected: number, final: number, first: number, geometry: Geometry, screen: number): number {
  const { cols, rows } = geometry;
  if (collected === 0) {
    if (COUNTED.has(final)) {
      const n = Math.max(1, boundCount(String.fromCharCode(final) as CountedFinal, first, geometry));
      switch (final) {
        case 0x62: // REP: n printed cells
          return n;
        case 0x49: // CHT, CBT: n steps over at most a row of tab stops
        case 0x5a:
          return n + cols;
        case 0x40: // ICH, DCH, ECH: one row
        case 0x50:
        case 0x58:
          return cols;
        default: // IL, DL, SU, SD: per line, the rows of the scroll region moved and a new line of cols cells (xterm.js allocates and fills one for each)
          return n * (rows + cols);
      }
    }
    // ED (may push the screen into the scrollback), EL, DECSTR.
    if (final === 0x4a) return screen;
    if (final === 0x4b) return cols;
    return 1;
  }
  // SL/SR (CSI Ps SP @ / SP A), DECIC/DECDC (CSI Ps ' } / ' ~), DECSTR (CSI ! p): the screen.
  return screen;
}

/**
 * `text` from `from` (a UTF-16 offset; the scan itself starts at 0, in the parser's ground state)
 * as plain text: the characters a terminal would print, without any escape sequence (CSI, OSC, DCS,
 * SOS/PM/APC, ESC) or control character; a line feed stays, a tab stays, a carriage return not
 * followed by a line feed becomes a line feed (each redraw of a progress bar is kept, on its own
 * line). Nothing printable is dropped; nothing is drawn, so cursor movement is not applied.
 */
export function plainText(text: string, from = 0): string {
  let state = S.Ground;
  let out = '';
  let run = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const packed = step(state, c);
    state = packed & 15;
    if (i < from) continue;
    const printed = packed >> 4 === A.Print;
    if (printed) {
      if (run < 0) run = i;
      continue;
    }
    if (run >= 0) {
      out += text.slice(run, i);
      run = -1;
    }
    if (packed >> 4 !== A.Execute) continue;
    if (c === 0x0a || c === 0x09) out += text[i];
    else if (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a) out += '\n';
  }
  if (run >= 0) out += text.slice(run);
  return out;
}

/**
 * OSC strings the panel terminal is given: OSC 8, hyperlinks (the link's text is drawn, and VS Code
 * shows the target before opening it). See {@link PanelFilter}.
 */
export const PANEL_OSC_ALLOWED: ReadonlySet<string> = new Set(['8']);

/** Longest OSC identifier read (digits before the first `;`); a longer one is not allowed. */
const OSC_ID_MAX = 8;

/**
 * Most UTF-16 units of a CSI sequence held back while its final is awaited (its first parameter
 * not counted: it is kept as a number). Real sequences are far shorter (an SGR with every colour
 * is under 100); a longer one is passed on as it is, its first parameter lowered as for REP.
 */
export const CSI_HOLD_MAX = 512;

/** Estimated cost (cell writes) of one piece of {@link PanelFilter.filter}'s result. */
export const PANEL_PIECE_COST = 16 * 1024;
/** Most UTF-16 units of input in one piece of {@link PanelFilter.filter}'s result. */
export const PANEL_PIECE_UNITS = 16 * 1024;

/** What {@link PanelFilter.filter} makes of a chunk of output. */
export interface FilteredText {
  /** What the panel terminal is given. */
  text: string;
  /** End offsets (exclusive) in `text` of consecutive pieces; the last is `text.length`; none for ''. */
  ends: number[];
  /** Estimated cost (cell writes) of each piece. */
  costs: number[];
}

/** Digits of a first parameter kept as written; a longer one is written as its value. */
const PARAM_DIGITS_KEPT = 10;

const enum Hold {
  Held,
  /** A prefix, an intermediate or an invalid character: no count of COUNTED_FINALS. */
  NotCounted,
  /** Longer than CSI_HOLD_MAX. */
  TooLong,
}

/** A CSI sequence held back (everything after its introducer) until its final shows its count. */
interface HeldCsi {
  /** Controls (C0, DEL) met before the first parameter ended; they act where they are, whatever the digits. */
  lead: string;
  /** Value of the first parameter, capped at 2^31 - 1 as xterm.js caps it. */
  first: number;
  /** Its digits as written, up to PARAM_DIGITS_KEPT; `long` once there were more. */
  digits: string;
  long: boolean;
  firstDone: boolean;
  /** Everything after the first parameter (separators, other parameters, controls). */
  rest: string;
}

/**
 * What a session's output is made into on its way to the person's panel terminal (a VS Code
 * terminal, xterm.js), so that nothing a program prints acts outside the drawing or costs the
 * window more than a screenful of work per sequence:
 *
 * - Every OSC string (ESC ] … BEL or ST, or C1 OSC … ) whose identifier is not in
 *   {@link PANEL_OSC_ALLOWED} is emptied. Such strings act outside the drawing, on behalf of
 *   whatever program printed them: shell integration (OSC 133, 633, 1337, 7, 9) would let a program
 *   in the agent's session tell VS Code, and through `terminal.shellIntegration` every extension,
 *   that commands ran in that terminal; OSC 52 writes the clipboard; OSC 0–2 rename the tab; OSC 4,
 *   10–19 and 104–119 recolour the terminal or make it answer as if the person typed. An emptied
 *   string keeps its introducer and its terminator and loses its identifier and data
 *   (`ESC ] 633;E;ls BEL` becomes `ESC ] BEL`, which no handler takes), so the emulator's parser
 *   passes through the same states as before.
 * - The count (first parameter) of a CSI sequence without prefix or intermediates whose final is in
 *   COUNTED_FINALS (REP, IL, DL, SU, SD, CHT, CBT, ICH, DCH, ECH) is lowered by `boundCount` to the
 *   least count with the same result on a screen of the panel's `cols` × `rows` (escapeCounts.ts,
 *   with no scrollback counted: `bufferRows` = `rows`). xterm.js loops that many times for REP, IL,
 *   DL, SU, SD, CHT and CBT, so `printf 'x\e[2000000000b'` would keep the window's terminal busy
 *   for minutes. The screen drawn is the same; only a REP that overflows the screen leaves fewer
 *   copies of its character in the panel's scrollback. ICH, DCH, ECH, ED, EL, SL/SR, DECIC/DECDC
 *   and the cursor moves cost at most a screen in xterm.js whatever their count (checked against
 *   src/common/InputHandler.ts of @xterm/headless 6.0.0), so they need no bound; the first three
 *   are lowered anyway (same result, less work).
 *
 * Everything else passes unchanged. Stateful across calls, since a sequence may span chunks: an
 * OSC identifier is held back while incomplete (at most {@link OSC_ID_MAX} digits); a CSI sequence
 * is held back from its introducer to its final (at most {@link CSI_HOLD_MAX} units besides its
 * first parameter); sequences end where the parser of {@link step} (xterm.js's) ends them.
 */
export class PanelFilter {
  private state = S.Ground;
  /** Inside an OSC string: undefined while its identifier is read, then whether it passes. */
  private pass: boolean | undefined;
  /** The withheld identifier of the OSC string being read. */
  private id = '';
  /** The CSI sequence being held back, while its count may need lowering. */
  private csi: HeldCsi | undefined;
  /** The intermediate of the ESC sequence being read (0 if none), for its cost. */
  private escCollect = 0;
  private geometry: Geometry;

  /** `cols` × `rows`: the panel terminal's size in character cells (default 80 × 24). */
  constructor(cols = 80, rows = 24) {
    this.geometry = { cols, rows, bufferRows: rows };
  }

  /** The panel terminal's new size; sequences read from now on are bounded by it. */
  resize(cols: number, rows: number): void {
    this.geometry = { cols, rows, bufferRows: rows };
  }

  /**
   * True when everything read so far was given on whole: the filter is in its ground state, not
   * inside an escape sequence or string, and holds nothing back. Text given next then starts where
   * a terminal that read this filter's output so far parses plain characters as characters.
   */
  get ground(): boolean {
    return this.state === S.Ground && this.csi === undefined;
  }

  /** The part of `text`, continuing the text of earlier calls, that the panel terminal is given. */
  push(text: string): string {
    return this.filter(text).text;
  }

  /**
   * {@link push}, with where its result can be cut into pieces that cost the panel's emulator about
   * PANEL_PIECE_COST estimated cell writes (as `renderChunks` estimates them, with this filter's
   * bounds) or PANEL_PIECE_UNITS units at most: `ends` (exclusive offsets into `text`, the last is
   * its length) and each piece's `costs`. No cut falls inside a held CSI sequence or a surrogate pair.
   */
  filter(input: string): FilteredText {
    const text = input;
    const { cols, rows } = this.geometry;
    const screen = cols * rows;
    const ends: number[] = [];
    const costs: number[] = [];
    let cost = 0;
    let units = 0;
    let out = '';
    let run = 0; // where the current stretch of `text` that passes unchanged began
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if ((cost >= PANEL_PIECE_COST || units >= PANEL_PIECE_UNITS) && this.csi === undefined && !isHighSurrogate(text.charCodeAt(i - 1))) {
        const end = out.length + (i - run);
        if (end > (ends[ends.length - 1] ?? 0)) {
          ends.push(end);
          costs.push(cost);
          cost = 0;
          units = 0;
        }
      }
      // Printable ASCII in the ground state passes as it is, at one cell write each: a run of it is
      // taken at once, up to where the next piece would be cut (most of any ordinary output).
      if (c >= 0x20 && c < 0x7f && this.state === S.Ground && this.csi === undefined) {
        const stop = Math.min(text.length, i + Math.max(1, Math.min(PANEL_PIECE_COST - cost, PANEL_PIECE_UNITS - units)));
        let j = i + 1;
        for (let d = text.charCodeAt(j); j < stop && d >= 0x20 && d < 0x7f; d = text.charCodeAt(++j));
        cost += j - i;
        units += j - i;
        i = j - 1;
        continue;
      }
      units++;
      const before = this.state;
      const packed = step(before, c);
      this.state = packed & 15;
      const action = packed >> 4;
      const csi = this.csi;
      switch (action) {
        case A.Execute:
          // LF, VT, FF scroll (a scroll region moves its rows); HT walks the tab stops.
          cost += c === 0x0a || c === 0x0b || c === 0x0c ? rows : c === 0x09 ? cols : 1;
          break;
        case A.CsiDispatch:
          cost += csi === undefined ? screen : csiCost(0, c, csi.first, this.geometry, screen);
          break;
        case A.EscDispatch:
          cost += escCost(this.escCollect, c, this.geometry, screen);
          this.escCollect = 0;
          break;
        case A.Collect:
          if (this.state === S.EscInter) this.escCollect = c;
          cost += 1;
          break;
        default:
          if (this.state === S.Escape) this.escCollect = 0;
          cost += 1;
      }
      if (csi !== undefined) {
        if (this.state >= S.CsiEntry && this.state <= S.CsiIgnore && action !== A.CsiStart) {
          const held = this.hold(csi, c, action, text[i]!);
          if (held === Hold.Held) {
            run = i + 1;
            continue;
          }
          // Not a counted sequence after all (a prefix, an intermediate, an invalid character), or
          // too long to hold: what was held goes on, and the rest of the sequence passes as it is.
          out += released(csi, held === Hold.TooLong ? boundCount('b', csi.first, this.geometry) : csi.first);
          run = i;
          this.csi = undefined;
          continue;
        }
        this.csi = undefined;
        if (action === A.CsiDispatch) {
          const lowered = COUNTED.has(c) ? boundCount(String.fromCharCode(c) as CountedFinal, csi.first, this.geometry) : csi.first;
          out += released(csi, lowered) + text[i];
          run = i + 1;
          continue;
        }
        // Ended without a dispatch (ESC, CAN, SUB, a C1 control, a character from U+00A0 on): what
        // was held goes on as it was, and this unit is read as any other.
        out += released(csi, csi.first);
        run = i;
      }
      // A C1 OSC inside an OSC string ends that string and starts a new one.
      const content = before === S.Osc && this.state === S.Osc && c !== 0x9d;
      if (!content) {
        if (before === S.Osc && this.pass === undefined && this.decide()) {
          // It ended while its identifier was read, and passes: the identifier goes before the terminator.
          out += text.slice(run, i) + this.id;
          run = i;
        }
        if (this.state === S.Osc) {
          this.pass = undefined; // the introducer passes; the identifier is held
          this.id = '';
        }
        if (action === A.CsiStart) {
          // The introducer passes; what follows is held until the final shows whether it is counted.
          out += text.slice(run, i + 1);
          run = i + 1;
          this.csi = { lead: '', first: 0, digits: '', long: false, firstDone: false, rest: '' };
        }
        continue;
      }
      if (this.pass === true) continue;
      out += text.slice(run, i);
      run = i + 1;
      if (this.pass === false) continue;
      if (c >= 0x30 && c <= 0x39 && this.id.length < OSC_ID_MAX) this.id += text[i];
      else if (this.decide()) out += this.id + text[i];
    }
    out += text.slice(run);
    if (out.length > (ends[ends.length - 1] ?? 0)) {
      ends.push(out.length);
      costs.push(cost);
    } else if (costs.length > 0) {
      costs[costs.length - 1]! += cost;
    }
    return { text: out, ends, costs };
  }

  /** Takes unit `ch` of the held CSI sequence, or says why the sequence is no longer held (then `ch` is not taken). */
  private hold(csi: HeldCsi, c: number, action: number, ch: string): Hold {
    if (action === A.Collect || this.state === S.CsiIgnore) return Hold.NotCounted;
    if (action === A.Param && !csi.firstDone) {
      if (c <= 0x39) {
        csi.first = Math.min(MAX_PARAM, csi.first * 10 + (c - 0x30));
        if (csi.digits.length < PARAM_DIGITS_KEPT) csi.digits += ch;
        else csi.long = true;
        return Hold.Held;
      }
      csi.firstDone = true;
    }
    if (csi.lead.length + csi.rest.length >= CSI_HOLD_MAX) return Hold.TooLong;
    if (csi.firstDone) csi.rest += ch;
    else csi.lead += ch;
    return Hold.Held;
  }

  /** Decides the string being read: whether it passes ({@link PANEL_OSC_ALLOWED}). */
  private decide(): boolean {
    this.pass = PANEL_OSC_ALLOWED.has(this.id);
    return this.pass;
  }
}

/** A held CSI sequence as it goes on, its first parameter written as `first` when that differs from its value. */
function released(csi: HeldCsi, first: number): string {
  const digits = first !== csi.first ? String(first) : csi.long ? String(csi.first) : csi.digits;
  return csi.lead + digits + csi.rest;
}
