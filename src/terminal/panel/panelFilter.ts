/**
 * The panel's filter: what a session's output is made into on its way to the person's panel
 * terminal (OSC strings other than hyperlinks emptied, counts that make a terminal loop lowered to
 * what its screen shows), scanned with the parser step of output/escapeScan.ts, xterm.js's.
 */
import { A, COUNTED, MAX_PARAM, S, csiCost, escCost, step } from '../output/escapeScan';
import { CountedFinal, Geometry, boundCount } from '../output/escapeCounts';
import { isHighSurrogate } from '../../common/textHead';

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
  filter(text: string): FilteredText {
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
