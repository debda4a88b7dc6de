/**
 * Terminal text scanned without an emulator, in time linear in its length: where to cut it into
 * chunks of bounded rendering cost (`renderChunks`), its plain text with every escape sequence
 * and control character removed (`plainText`), and where a cut may fall (`cleanStart`). The
 * parser step here is also what the panel's filter (panel/panelFilter.ts) follows.
 *
 * The scanner follows the parser of xterm.js (src/common/parser/EscapeSequenceParser.ts, the DEC
 * ANSI parser of https://vt100.net/emu/dec_ansi_parser with xterm.js's own choices): ESC, CAN, SUB
 * and the C1 controls U+0080–U+009F act in every state (U+009B is CSI, U+009D OSC, U+0090 DCS,
 * U+0098/U+009E/U+009F SOS/PM/APC, U+009C ST); C0 controls inside a CSI are executed without ending
 * it; a character from U+00A0 on ends a CSI, an ESC sequence, a DCS header or a SOS/PM/APC string
 * (they fall back to text) but is part of an OSC or DCS string. A cost estimate that is off only
 * moves a chunk boundary; it never changes what the emulator renders.
 */
import { COUNTED_FINALS, CountedFinal, Geometry, boundCount } from './escapeCounts';

/** Estimated cost (cell writes) of one chunk before a cut; one chunk renders in a few ms. */
export const CHUNK_COST = 64 * 1024;
/** Most UTF-16 units in one chunk, whatever their estimate (covers work the estimate does not see). */
export const CHUNK_UNITS = 4096;

/** The parser's states (xterm.js's ParserState, SOS/PM/APC as one). */
export const enum S {
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
export const enum A {
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
export function step(state: S, c: number): number {
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

/**
 * A unit that starts a sequence or a string: ESC, or the C1 CSI, OSC, DCS, SOS, PM or APC. Found
 * by one native search: a look-back is mostly text without any.
 */
const INTRODUCER = /[\x1b\x90\x98\x9b\x9d\x9e\x9f]/;

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
  const from = Math.max(0, at - CLEAN_START_LOOKBACK);
  const first = from < end ? text.slice(from, end).search(INTRODUCER) : -1;
  let i = first < 0 ? end : from + first;
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

/** The finals of COUNTED_FINALS as UTF-16 units. */
export const COUNTED = new Set<number>(COUNTED_FINALS.map((f) => f.charCodeAt(0)));
/** Largest parameter value, as xterm.js caps it (2^31 - 1). */
export const MAX_PARAM = 0x7fffffff;

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
export function escCost(collect: number, final: number, geometry: Geometry, screen: number): number {
  if ((collect === 0x23 && final === 0x38) || (collect === 0 && final === 0x63)) return screen;
  if (collect === 0 && (final === 0x44 || final === 0x45)) return geometry.rows;
  if (collect === 0 && final === 0x4d) return geometry.rows + geometry.cols;
  return 1;
}

/** Estimated cell writes of one CSI sequence, its count bounded as the renderer bounds it. */
export function csiCost(collected: number, final: number, first: number, geometry: Geometry, screen: number): number {
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
