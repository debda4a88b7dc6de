/**
 * The command line a shell read, recovered from what its line editor echoed between the prompt
 * and the start of the command (markers.ts: after `P`, before `S`). Readline echoes typed text
 * and redraws edits with a few cursor controls (ECMA-48): BS, CR, `CSI n C/D` (cursor right/left),
 * `CSI K` (erase to end of line), `CSI n P` (delete characters), `CSI n @` (insert blanks). This
 * applies those to one line at a time, as a terminal would, and ignores every other escape: good
 * enough for a person's typing; the agent's pasted text is recorded as sent, not from its echo.
 */

import { CUT_MARKER } from '../../common/textHead';

/** Longest command line kept in a record (UTF-16 code units, cut on a code point boundary). */
export const MAX_COMMAND_CHARS = 1000;

/** A command line as kept in a record: its text, and whether it was cut to MAX_COMMAND_CHARS. */
export interface BoundedCommand {
  text: string;
  truncated: boolean;
}

/**
 * `text`, one trailing newline removed, at most MAX_COMMAND_CHARS, as a fresh string: a slice of a
 * large string would keep all of it in memory. A longer one is cut after its last whole word that
 * fits, or before a quote still open there, then `…`: the record is redacted when read
 * (secretRedactor.ts), and a secret cut in two is no longer found, so the word or quoted text the
 * bound falls in is left out whole. A line with no blank to cut
 * at is cut at the bound (never between the halves of a surrogate pair).
 */
export function boundCommand(text: string): BoundedCommand {
  let t = text.endsWith('\n') ? text.slice(0, -1) : text;
  const truncated = t.length > MAX_COMMAND_CHARS;
  if (truncated) {
    // The blank kept and the marker fit in the bound.
    const blank = Math.max(
      t.lastIndexOf(' ', MAX_COMMAND_CHARS - 2),
      t.lastIndexOf('\t', MAX_COMMAND_CHARS - 2),
      t.lastIndexOf('\n', MAX_COMMAND_CHARS - 2),
    );
    if (blank > 0) {
      // A blank inside quotes is no word's end: the cut goes before the quote that is open there.
      const open = openQuoteAt(t, blank);
      t = `${t.slice(0, open ?? blank + 1)}${CUT_MARKER}`;
    } else {
      let end = MAX_COMMAND_CHARS;
      const last = t.charCodeAt(end - 1);
      if (last >= 0xd800 && last <= 0xdbff) end--;
      t = t.slice(0, end);
    }
  }
  return { text: Buffer.from(t, 'utf16le').toString('utf16le'), truncated };
}

/**
 * Where the quote still open at offset `at` of the shell text `text` opened (the offset of its `'`
 * or `"`), as bash reads quotes (a backslash escapes the next character outside single quotes);
 * undefined when none is open.
 */
function openQuoteAt(text: string, at: number): number | undefined {
  let open: number | undefined;
  for (let i = 0; i < at; i++) {
    const c = text[i];
    const quote = open === undefined ? undefined : text[open];
    if (c === '\\' && quote !== "'") i++;
    else if (quote === undefined && (c === "'" || c === '"')) open = i;
    else if (c === quote) open = undefined;
  }
  return open;
}

/** One CSI sequence: parameters, intermediates, final byte (ECMA-48 §5.4). */
const CSI = /^\x1b\[([0-?]*)[ -/]*([@-~])/;
/** Any other escape sequence: OSC/DCS/APC/PM/SOS strings, or ESC and one final byte. */
const OTHER_ESCAPE = /^\x1b(?:[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?|[ -/]*[0-~])?/;

/**
 * The lines the echo `echo` shows, joined by `\n`, trailing empty lines dropped. `\r\n` or `\n`
 * ends a line; every other control character but TAB is ignored. Linear in `echo.length` plus the
 * length of the lines it edits.
 */
export function echoedCommandLine(echo: string): string {
  const lines: string[] = [];
  let line: string[] = [];
  let cursor = 0;
  const count = (params: string) => Math.max(1, Number.parseInt(params, 10) || 1);
  let i = 0;
  while (i < echo.length) {
    const c = echo[i]!;
    if (c === '\n') {
      lines.push(line.join('').trimEnd());
      line = [];
      cursor = 0;
      i++;
    } else if (c === '\r') {
      cursor = 0;
      i++;
    } else if (c === '\b') {
      cursor = Math.max(0, cursor - 1);
      i++;
    } else if (c === '\x1b') {
      const csi = CSI.exec(echo.slice(i, i + 64));
      if (csi) {
        const [all, params = '', final] = csi;
        if (final === 'C') cursor += count(params);
        else if (final === 'D') cursor = Math.max(0, cursor - count(params));
        else if (final === 'K' && (params === '' || params === '0')) line.length = Math.min(line.length, cursor);
        else if (final === 'P') line.splice(cursor, count(params));
        else if (final === '@') line.splice(cursor, 0, ...Array<string>(Math.min(count(params), 1000)).fill(' '));
        i += all.length;
      } else {
        i += Math.max(1, OTHER_ESCAPE.exec(echo.slice(i, i + 256))?.[0].length ?? 1);
      }
    } else if (c < ' ' && c !== '\t') {
      i++;
    } else {
      while (line.length < cursor) line.push(' ');
      line[cursor++] = c;
      i++;
    }
  }
  lines.push(line.join('').trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}
