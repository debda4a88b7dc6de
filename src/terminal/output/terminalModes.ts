/**
 * The two terminal modes a session follows in its output without an emulator: the alternate screen
 * (DEC private modes 47, 1047, 1049) and application cursor keys (DECCKM, private mode 1), which
 * decide what a send's result says about the screen and which bytes cursor keys send (input.ts).
 * Read as xterm reads them (xterm ctlseqs): `CSI ? Pm h` sets and `CSI ? Pm l` resets every mode
 * listed in `Pm` (`ESC [ ? 1 ; 1049 h` sets both), RIS (`ESC c`, full reset) resets both, DECSTR
 * (`CSI ! p`, soft reset) resets cursor keys only. A sequence split across output chunks counts
 * once it is complete. Plain Node.
 */

/** Longest unfinished sequence kept from the end of a chunk for the next one (UTF-16 units). */
const CARRY_MAX_UNITS = 64;

/** The sequences that change the two modes. */
const MODE_SEQUENCES = /\x1b(?:\[\?([0-9;]*)([hl])|c|\[!p)/g;

/** An ending of a chunk that may be the start of one of MODE_SEQUENCES. */
const UNFINISHED = /\x1b(?:\[(?:\?[0-9;]*|!)?)?$/;

const ALTERNATE_MODES: ReadonlySet<string> = new Set(['47', '1047', '1049']);

/** The modes as the output so far sets them; fed every chunk of output in order. */
export class TerminalModes {
  /** True while a full-screen program holds the alternate screen. */
  alternateScreen = false;
  /** True while application cursor keys (DECCKM) are set: cursor keys send `ESC O x`. */
  applicationCursor = false;
  /** The unfinished sequence the previous chunk ended with. */
  private carry = '';

  /** Applies the next chunk of output (decoded text, in order). */
  push(chunk: string): void {
    if (!this.carry && !chunk.includes('\x1b')) return;
    const text = this.carry + chunk;
    this.carry = '';
    for (const m of text.matchAll(MODE_SEQUENCES)) {
      if (m[2] === undefined) {
        // RIS resets both; DECSTR resets cursor keys and leaves the screen.
        if (m[0] === '\x1bc') this.alternateScreen = false;
        this.applicationCursor = false;
        continue;
      }
      const set = m[2] === 'h';
      for (const mode of m[1]!.split(';')) {
        if (mode === '1') this.applicationCursor = set;
        else if (ALTERNATE_MODES.has(mode)) this.alternateScreen = set;
      }
    }
    const tail = UNFINISHED.exec(text.length > CARRY_MAX_UNITS ? text.slice(-CARRY_MAX_UNITS) : text);
    if (tail) this.carry = tail[0];
  }
}
